import CThreadTimes

/// How the threads of this process spent a stretch of time, by kind of waiting: on a CPU, runnable
/// but waiting for one (the machine's doing: another tenant held the core), and blocked (the
/// program's own: a lock, a condition, a join, I/O, a sleep). The `bench-run` child's phases
/// (docs/gate.md, "Waiting").
///
/// Read from the kernel's per-thread `schedstat` (on-CPU and run-queue nanoseconds); blocked is
/// each thread's life in the stretch less both. Threads that end inside the stretch (decoding
/// workers, FFmpeg's codec threads) read their own `schedstat` as they end (`CThreadTimes`
/// replaces `pthread_create` in the executable for that), so they count in full.
package enum ThreadTimes {
    /// One thread's times at one instant, or at its end (``ThreadTimes/records()``).
    package struct Sample: Sendable, Hashable {
        /// The kernel's thread id.
        package var tid: Int32
        /// Started by `pthread_create` after ``startAccounting()``: its start is known and its end
        /// recorded. An untracked thread (the main thread, the runtime's first pool threads) is
        /// counted only while it lives through the whole stretch.
        package var tracked: Bool
        /// `CLOCK_MONOTONIC` nanoseconds when the kernel first queued it (0 untracked).
        package var createdNanoseconds: Int64
        /// When the times were read (an ended thread's record: its end; 0 while it lives).
        package var atNanoseconds: Int64
        /// On a CPU so far (schedstat's first field).
        package var onCPUNanoseconds: Int64
        /// Runnable but waiting for a CPU so far (schedstat's second field).
        package var runWaitNanoseconds: Int64

        /// A sample as the C side reads one (the tests build their own).
        package init(tid: Int32, tracked: Bool, createdNanoseconds: Int64, atNanoseconds: Int64,
                     onCPUNanoseconds: Int64, runWaitNanoseconds: Int64) {
            self.tid = tid
            self.tracked = tracked
            self.createdNanoseconds = createdNanoseconds
            self.atNanoseconds = atNanoseconds
            self.onCPUNanoseconds = onCPUNanoseconds
            self.runWaitNanoseconds = runWaitNanoseconds
        }

        init(_ sample: filmstrip_thread_sample) {
            self.init(tid: sample.tid, tracked: sample.tracked != 0, createdNanoseconds: sample.created_ns,
                      atNanoseconds: sample.at_ns, onCPUNanoseconds: sample.on_cpu_ns, runWaitNanoseconds: sample.run_wait_ns)
        }

        /// The same thread: a tid is reused only after its thread ended, and then with a later start.
        func isSameThread(as other: Sample) -> Bool { tid == other.tid && createdNanoseconds == other.createdNanoseconds }
    }

    /// Every live thread at one instant.
    package struct Snapshot: Sendable, Hashable {
        /// `CLOCK_MONOTONIC` nanoseconds when the reading began and ended.
        package var beganNanoseconds: Int64
        package var endedNanoseconds: Int64
        /// Every thread alive while it was read.
        package var live: [Sample]

        /// A snapshot of `live` read between the two instants.
        package init(beganNanoseconds: Int64, endedNanoseconds: Int64, live: [Sample]) {
            self.beganNanoseconds = beganNanoseconds
            self.endedNanoseconds = endedNanoseconds
            self.live = live
        }
    }

    /// One thread's times within a stretch, in nanoseconds.
    package struct Share: Sendable, Hashable {
        /// The kernel's thread id.
        package var tid: Int32
        /// On a CPU within the stretch.
        package var onCPUNanoseconds: Int64
        /// Runnable but waiting for a CPU within the stretch.
        package var runWaitNanoseconds: Int64
        /// Its life within the stretch (from its start when it started inside, to its end when it ended inside).
        package var lifeNanoseconds: Int64
        /// Started inside the stretch: one of the stretch's own threads (a decoding worker, a codec
        /// thread), not one that was there before and waits for them (the main thread, a pool thread).
        package var startedInside: Bool
        /// Life less on-CPU and run-queue time.
        package var blockedNanoseconds: Int64 { lifeNanoseconds - onCPUNanoseconds - runWaitNanoseconds }
    }

    /// A stretch's times summed over threads, in seconds.
    package struct Totals: Sendable, Hashable {
        /// Time on a CPU, every thread that lived in the stretch.
        package var onCPUSeconds: Double
        /// Time runnable but waiting for a CPU, every thread.
        package var runQueueWaitSeconds: Double
        /// Life less on-CPU and run-queue time, summed over the threads started inside the stretch
        /// (decoding workers, FFmpeg's codec threads, pool threads the runtime adds). Threads that
        /// were there before (the main thread, the runtime's pool) wait for those: their blocked time
        /// is the stretch's wall time again, other tenants' delays of the workers included, so it
        /// would carry the machine's load into the program's waiting. nil when a thread this
        /// process did not track started or ended inside the stretch (its share is unknown).
        package var blockedSeconds: Double?
        /// Threads started inside the stretch.
        package var threadsStarted: Int
    }

    /// From now on every thread started with `pthread_create` records its times as it ends.
    /// Call it before the threads to be measured start (the `bench-run` child does, first).
    package static func startAccounting() { filmstrip_thread_times_enable() }

    /// A snapshot of every live thread taken now into a fixed slot (no heap allocation, so it may
    /// sit inside a measured phase); read it with ``snapshot(_:)`` after the measurement.
    /// nil when the slots are used up or `/proc/self/task` cannot be read.
    package static func take() -> Int64? {
        let ticket = filmstrip_thread_times_take()
        return ticket >= 0 ? ticket : nil
    }

    /// The snapshot of `ticket`, nil when it could not be read whole or its slot was reused since
    /// (32 snapshots later).
    package static func snapshot(_ ticket: Int64) -> Snapshot? {
        let count = filmstrip_thread_times_count(ticket)
        guard count >= 0 else { return nil }
        let snapshot = Snapshot(beganNanoseconds: filmstrip_thread_times_began(ticket), endedNanoseconds: filmstrip_thread_times_ended(ticket),
                                live: (0..<count).map { Sample(filmstrip_thread_times_sample(ticket, $0)) })
        // Read again: a take into the same slot meanwhile would have mixed two snapshots.
        return filmstrip_thread_times_count(ticket) == count ? snapshot : nil
    }

    /// The calling thread's kernel id, as samples name threads.
    package static var currentThreadID: Int32 { filmstrip_thread_times_current_tid() }

    /// Every thread started since ``startAccounting()``, ended or not, with its final times once
    /// it ended; nil when more were started than the table holds.
    package static func records() -> [Sample]? {
        guard filmstrip_thread_times_overflowed() == 0 else { return nil }
        return (0..<filmstrip_thread_times_record_count()).map { Sample(filmstrip_thread_times_record($0)) }
    }

    /// The times between snapshots `start` and `end` of one process, `records` being its ended
    /// threads' final times (``records()``, read after `end`).
    ///
    /// Per thread: its times at `end` (or at its own end, when it ended first) less those at
    /// `start` (or none, when it started after), and its life between the same instants. Each
    /// thread's times and its instant are read together, so the error of one thread's blocked time
    /// is the time one `schedstat` read takes (a few µs); a thread started inside the stretch
    /// starts its life when the kernel first queued it (its first instant less its times so far),
    /// so its creator's own wait inside `pthread_create` is not lent to it; a thread's exit after
    /// it read its times (thread-specific data, the stack's release) counts nowhere.
    package static func between(_ start: Snapshot, _ end: Snapshot, records: [Sample]) -> Totals {
        let (shares, complete) = shares(start, end, records: records)
        let started = shares.filter(\.startedInside)
        return Totals(onCPUSeconds: Double(shares.reduce(0) { $0 + $1.onCPUNanoseconds }) / 1e9,
                      runQueueWaitSeconds: Double(shares.reduce(0) { $0 + $1.runWaitNanoseconds }) / 1e9,
                      blockedSeconds: complete ? max(0, Double(started.reduce(0) { $0 + $1.blockedNanoseconds }) / 1e9) : nil,
                      threadsStarted: started.count)
    }

    /// Each thread's share of the stretch between `start` and `end` (``between(_:_:records:)``),
    /// and whether every thread that lived in it is there (false when a thread this process did
    /// not track started or ended inside it).
    package static func shares(_ start: Snapshot, _ end: Snapshot, records: [Sample]) -> (shares: [Share], complete: Bool) {
        var shares: [Share] = [], complete = true
        func add(_ last: Sample, since first: Sample?) {
            shares.append(Share(tid: last.tid, onCPUNanoseconds: last.onCPUNanoseconds - (first?.onCPUNanoseconds ?? 0),
                                runWaitNanoseconds: last.runWaitNanoseconds - (first?.runWaitNanoseconds ?? 0),
                                lifeNanoseconds: last.atNanoseconds - (first?.atNanoseconds ?? last.createdNanoseconds),
                                startedInside: first == nil))
        }
        let before = Dictionary(start.live.map { ($0.tid, $0) }, uniquingKeysWith: { first, _ in first })
        for sample in end.live {
            if let earlier = before[sample.tid], earlier.isSameThread(as: sample) {
                add(sample, since: earlier)
            } else if sample.tracked {
                add(sample, since: nil)
            } else {
                complete = false
            }
        }
        for record in records where record.atNanoseconds != 0 && record.atNanoseconds <= end.endedNanoseconds
            && !end.live.contains(where: { $0.isSameThread(as: record) }) {
            if let earlier = before[record.tid], earlier.isSameThread(as: record) {
                add(record, since: earlier)
            } else if record.createdNanoseconds >= start.beganNanoseconds {
                add(record, since: nil)
            }
            // Else it ended before the stretch, or while `start` was being read (its last
            // microseconds are lost: the reading's length at most).
        }
        // An untracked thread that ended inside the stretch took its times with it.
        if start.live.contains(where: { earlier in !earlier.tracked && !end.live.contains { $0.tid == earlier.tid } }) { complete = false }
        return (shares, complete)
    }
}
