/// How a phase's threads spent its time, by kind of waiting (the `bench-run` child's
/// `ThreadTimes`, summed over the process's threads, those that ended inside the phase included):
/// the columns `on_cpu_s`, `run_queue_wait_s`, `blocked_s`, `voluntary_switches` and
/// `involuntary_switches`. Run-queue wait is the machine's doing (a runnable thread waiting for a
/// core another tenant holds); blocked time is the program's own (a lock, a join, a condition, I/O).
package struct WaitingTimes: Sendable, Hashable, Codable {
    /// Seconds on a CPU, all threads (the kernel's `schedstat`; about `cpu_user_s + cpu_sys_s`).
    package var onCPUSeconds: Double
    /// Seconds runnable but not running, all threads.
    package var runQueueWaitSeconds: Double
    /// Seconds blocked, summed over the threads started inside the phase (the workers and codec
    /// threads doing its work, not the pool threads waiting for them): each one's life in the
    /// phase less its on-CPU and run-queue time. nil when a thread the child did not start
    /// began or ended inside the phase (its share cannot be known).
    package var blockedSeconds: Double?
    /// Context switches of the process in the phase, all threads, ended ones included
    /// (`getrusage`): voluntary (the thread blocked) and involuntary (the scheduler took the CPU).
    package var voluntarySwitches: Int
    /// Involuntary switches of the phase (`ru_nivcsw`).
    package var involuntarySwitches: Int

    /// A phase's waiting, in seconds and switches.
    package init(onCPUSeconds: Double, runQueueWaitSeconds: Double, blockedSeconds: Double?,
                 voluntarySwitches: Int, involuntarySwitches: Int) {
        self.onCPUSeconds = onCPUSeconds
        self.runQueueWaitSeconds = runQueueWaitSeconds
        self.blockedSeconds = blockedSeconds
        self.voluntarySwitches = voluntarySwitches
        self.involuntarySwitches = involuntarySwitches
    }
}
