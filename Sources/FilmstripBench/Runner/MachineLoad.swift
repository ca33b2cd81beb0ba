import Filmstrip

/// Whether other work competes with the bench for the cores: the 1-minute load average
/// against the logical cores, read before the first run and between runs.
///
/// Before the first run the bench has no child of its own, so the machine is busy when the
/// load exceeds the cores. During the run the bench's own children count in the load too,
/// so the allowance is the cores plus the last child's parallelism (its CPU time over its
/// wall time, at least 1): a single-threaded child on an idle 2-core machine keeps the load
/// near 1, and only a load above 3 says something else is running.
package struct MachineLoad: Sendable {
    /// The 1-minute load average; nil when it cannot be read (tests give a fixed one).
    package var read: @Sendable () -> Double?
    package var logicalCores: Int
    /// The load is read between runs at most this often (seconds)...
    static let readInterval = 10.0
    /// ...and a busy machine is warned of at most this often: the load average's own window.
    static let warningInterval = 60.0

    private var lastRead = -Double.infinity
    private var lastWarning = -Double.infinity

    /// `read` nil: `/proc/loadavg`.
    package init(read: (@Sendable () -> Double?)? = nil, logicalCores: Int) {
        self.read = read ?? { System.loadAverage() }
        self.logicalCores = logicalCores
    }

    /// The warning before the first run, nil when the machine is not busy.
    mutating func atStart() -> String? {
        lastRead = 0
        guard let load = read(), load > Double(logicalCores) else { return nil }
        lastWarning = 0
        return "bench: warning: the machine is busy: load average \(Self.text(load)) on \(logicalCores) core(s) before the first run; "
            + "other processes will slow and spread the timings (CPU time suffers less than wall time)"
    }

    /// The warning between runs at `elapsed` seconds into the session, when the load is above
    /// the cores plus `ownParallelism` (the bench's own last child) and none was given in the
    /// last minute.
    mutating func between(elapsed: Double, ownParallelism: Double) -> String? {
        guard elapsed - lastRead >= Self.readInterval else { return nil }
        lastRead = elapsed
        let allowance = Double(logicalCores) + Swift.max(1, ownParallelism)
        guard let load = read(), load > allowance, elapsed - lastWarning >= Self.warningInterval else { return nil }
        lastWarning = elapsed
        return "bench: warning: the machine became busy at \(BenchProgress.clock(elapsed)): load average \(Self.text(load)) on "
            + "\(logicalCores) core(s), above the \(Self.text(allowance)) the bench's own runs explain; timings from now on are noisier"
    }

    static func text(_ load: Double) -> String { String(format: "%.1f", load) }
}
