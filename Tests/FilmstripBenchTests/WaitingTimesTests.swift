import CLITestSupport
import Filmstrip
import FilmstripProcess
@testable import FilmstripReport
@testable import FilmstripResults
import Foundation
import Glibc
import ResultsTestSupport
import Synchronization
import Testing

/// Waiting by kind (issue 47): each thread's on-CPU, run-queue and blocked time over a stretch,
/// threads that end inside it included. No test asserts a duration of its own: a thread that
/// sleeps is blocked at least as long as it asked to sleep (the kernel's guarantee), and a thread
/// that only computes is never blocked, however loaded the machine.
struct WaitingTimesTests {
    private func sample(_ tid: Int32, tracked: Bool = true, created: Int64 = 0, at: Int64, cpu: Int64, wait: Int64) -> ThreadTimes.Sample {
        ThreadTimes.Sample(tid: tid, tracked: tracked, createdNanoseconds: created, atNanoseconds: at,
                           onCPUNanoseconds: cpu, runWaitNanoseconds: wait)
    }

    /// Threads living through the stretch, starting in it, ending in it, or both, and one that
    /// ended before it: each counted for its own part of the stretch only.
    @Test func eachThreadCountsItsPartOfTheStretch() {
        let start = ThreadTimes.Snapshot(beganNanoseconds: 1_000, endedNanoseconds: 1_100, live: [
            sample(1, tracked: false, at: 1_010, cpu: 500, wait: 100),            // main thread, parked throughout
            sample(2, tracked: false, at: 1_020, cpu: 700, wait: 50),             // a pool thread that works
            sample(3, created: 900, at: 1_030, cpu: 40, wait: 10),                // a worker that ends inside
        ])
        let end = ThreadTimes.Snapshot(beganNanoseconds: 2_000, endedNanoseconds: 2_100, live: [
            sample(1, tracked: false, at: 2_010, cpu: 500, wait: 100),
            sample(2, tracked: false, at: 2_020, cpu: 1_000, wait: 250),
            sample(5, created: 1_500, at: 2_040, cpu: 100, wait: 300),           // started inside, still running
        ])
        let records = [
            sample(3, created: 900, at: 1_800, cpu: 340, wait: 110),             // ended inside
            sample(4, created: 1_200, at: 1_700, cpu: 200, wait: 100),           // started and ended inside
            sample(6, created: 100, at: 800, cpu: 50, wait: 5),                  // ended before the stretch
            sample(5, created: 1_500, at: 0, cpu: 0, wait: 0),                   // still running: its live sample counts
        ]
        let totals = ThreadTimes.between(start, end, records: records)
        // On-CPU: 300 (pool) + 100 (5) + 300 (3) + 200 (4); the main thread ran 0.
        #expect(totals.onCPUSeconds == Double(900) / 1e9)
        #expect(totals.runQueueWaitSeconds == Double(200 + 300 + 100 + 100) / 1e9)
        // Blocked, threads started inside: thread 5 540 − 100 − 300, thread 4 500 − 200 − 100;
        // not those that were there before (the pool thread's 1000 − 300 − 200 = 500, the worker
        // that ended inside: 770 − 300 − 100), which wait for the work rather than do it.
        #expect(totals.blockedSeconds == Double(140 + 200) / 1e9)
        #expect(totals.threadsStarted == 2)
    }

    /// A thread the process did not track that ends (or appears) inside the stretch took (or
    /// brought) times nobody read: blocked time is then unknown, not a guess.
    @Test func untrackedThreadEndingInsideLeavesBlockedUnknown() {
        let start = ThreadTimes.Snapshot(beganNanoseconds: 0, endedNanoseconds: 10, live: [
            sample(1, tracked: false, at: 5, cpu: 10, wait: 0), sample(2, tracked: false, at: 6, cpu: 10, wait: 0),
        ])
        let end = ThreadTimes.Snapshot(beganNanoseconds: 100, endedNanoseconds: 110, live: [sample(1, tracked: false, at: 105, cpu: 50, wait: 0)])
        #expect(ThreadTimes.between(start, end, records: []).blockedSeconds == nil)
        let appeared = ThreadTimes.Snapshot(beganNanoseconds: 100, endedNanoseconds: 110, live: [
            sample(1, tracked: false, at: 105, cpu: 50, wait: 0), sample(2, tracked: false, at: 106, cpu: 20, wait: 0),
            sample(9, tracked: false, at: 107, cpu: 20, wait: 0),
        ])
        #expect(ThreadTimes.between(start, appeared, records: []).blockedSeconds == nil)
        let same = ThreadTimes.Snapshot(beganNanoseconds: 100, endedNanoseconds: 110, live: Array(appeared.live.prefix(2)))
        #expect(ThreadTimes.between(start, same, records: []).blockedSeconds != nil)
    }

    /// Real threads that end before the stretch does, read from their own records: one sleeps
    /// (blocked at least its sleep, on a CPU hardly at all), one computes until its own CPU clock
    /// has counted 20 ms (on a CPU that long, blocked hardly at all, whatever else runs).
    @Test func sleepingThreadIsBlockedAndComputingThreadIsNot() throws {
        ThreadTimes.startAccounting()
        let tids = Mutex<[String: Int32]>([:])
        let start = try #require(ThreadTimes.take().flatMap(ThreadTimes.snapshot))
        let sleeper = try JoinableThread(stackSize: 1 << 20) {
            tids.withLock { $0["sleeper"] = ThreadTimes.currentThreadID }
            usleep(30_000)
        }
        let computer = try JoinableThread(stackSize: 1 << 20) {
            tids.withLock { $0["computer"] = ThreadTimes.currentThreadID }
            var own = timespec(), sum = 0.0
            repeat {
                for step in 0..<10_000 { sum += sqrt(Double(step)) }
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &own)
            } while Double(own.tv_sec) + Double(own.tv_nsec) / 1e9 < 0.020 && sum > 0
        }
        sleeper.join()
        computer.join()
        let end = try #require(ThreadTimes.take().flatMap(ThreadTimes.snapshot))
        let shares = ThreadTimes.shares(start, end, records: try #require(ThreadTimes.records())).shares
        let named = tids.withLock { $0 }
        let slept = try #require(shares.first { $0.tid == named["sleeper"] })
        let computed = try #require(shares.first { $0.tid == named["computer"] })
        // A sleep lasts at least what it asked for; the reads' own error is microseconds.
        #expect(slept.blockedNanoseconds >= 29_000_000, "\(slept)")
        #expect(slept.onCPUNanoseconds < slept.blockedNanoseconds / 10, "\(slept)")
        // schedstat counts the same CPU time as the thread's own clock.
        #expect(computed.onCPUNanoseconds >= 19_000_000, "\(computed)")
        #expect(computed.blockedNanoseconds < computed.onCPUNanoseconds / 4, "\(computed)")
        // Each thread's life covers its on-CPU, run-queue and blocked time, none negative.
        for share in [slept, computed] {
            #expect(share.runWaitNanoseconds >= 0 && share.blockedNanoseconds > -1_000_000, "\(share)")
        }
    }

    // MARK: The columns and the gate

    /// The waiting columns are written and read back; a file written before them reads as no waiting.
    @Test func waitingColumnsRoundTripAndOlderFilesReadWithout() throws {
        var row = Fixtures.row()
        row.waiting = WaitingTimes(onCPUSeconds: 0.02, runQueueWaitSeconds: 0.03, blockedSeconds: 0.004, voluntarySwitches: 7, involuntarySwitches: 9)
        let path = Fixtures.temporaryPath("waiting-raw.csv")
        try ResultsFileWriter<RawResultRow>(path: path).append(row)
        #expect(try ResultsFileReader.read(RawResultRow.self, from: path).first?.waiting == row.waiting)
        #expect(Metric.cpuAndBlockedSeconds.value(in: row) == (row.cpuUserSeconds ?? 0) + (row.cpuSysSeconds ?? 0) + 0.004)
        // The same file as an older build wrote it: the five columns gone.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let kept = lines[0].indices.filter { !["on_cpu_s", "run_queue_wait_s", "blocked_s", "voluntary_switches", "involuntary_switches"].contains(String(lines[0][$0])) }
        #expect(kept.count == lines[0].count - 5)
        let older = Fixtures.temporaryPath("older-raw.csv")
        try lines.map { line in kept.map { String(line[$0]) }.joined(separator: ",") }.joined(separator: "\n").appending("\n")
            .write(toFile: older, atomically: true, encoding: .utf8)
        let read = try ResultsFileReader.read(RawResultRow.self, from: older)
        #expect(read.count == 1 && read[0].waiting == nil && Metric.cpuAndBlockedSeconds.value(in: read[0]) == nil)
    }

    /// A two-build run of one configuration: CPU time with noise `cpuSD`, the workers' blocked
    /// time a few hundred µs with noise of a half, plus `lockShare` of the CPU time in the
    /// candidate (a lock); run-queue wait `runQueueShare` of the CPU time, and wall time with
    /// the noise `wallSD` of other tenants.
    private func waitingRows(pairs: Int, lockShare: Double, runQueueShare: Double, cpuSD: Double = 0.03, wallSD: Double = 0.3) -> [RawResultRow] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func noise(_ sd: Double) -> Double { sd * (uniform() + uniform() + uniform() - 1.5) * 2 }
        return (0..<pairs).flatMap { repetition in
            [BuildRole.baseline, .candidate].map { build in
                let cpu = 0.02 * exp(noise(cpuSD))
                let blocked = 0.0003 * exp(noise(0.5)) + (build == .candidate ? lockShare * cpu : 0)
                var row = Fixtures.row(pipeline: "taskgroup+rowcopy", repetition: repetition, wall: (cpu / 2 + blocked) * (1 + runQueueShare) * exp(noise(wallSD)))
                row.cpuUserSeconds = cpu
                row.cpuSysSeconds = 0
                row.build = build
                row.waiting = WaitingTimes(onCPUSeconds: cpu, runQueueWaitSeconds: cpu * runQueueShare, blockedSeconds: blocked,
                                           voluntarySwitches: 4, involuntarySwitches: 8)
                return row
            }
        }
    }

    /// Under load (run-queue wait 3× the CPU time, wall time's pairs ±30 %): a lock that makes the
    /// workers wait as long as they decode fails the default time gate on CPU plus blocked time,
    /// and identical builds pass, wall time not judged (a warning says so).
    @Test func underLoadTheProgramsWaitingGatesAndWallTimeDoesNot() {
        let locked = RegressionGate.elapsedAndCPU().comparePaired(waitingRows(pairs: 20, lockShare: 1, runQueueShare: 3))
        #expect(locked.outcome == .regressed, "\(locked.text)")
        let headline = WrappedText.joined(locked.text).filter { $0.hasPrefix("slower: ") }
        #expect(headline.count == 1 && headline[0].contains("cpu+blocked +"), "\(locked.text)")
        #expect(!locked.comparisons.contains { $0.metric == .wallSeconds })
        #expect(locked.warnings.contains { $0.hasPrefix("wall time not judged for 1 configuration") }, "\(locked.warnings)")
        let same = RegressionGate.elapsedAndCPU().comparePaired(waitingRows(pairs: 60, lockShare: 0, runQueueShare: 3))
        #expect(same.outcome == .passed, "\(same.text)")
    }

    /// On a quiet machine wall time is judged beside them, as before; without the waiting columns
    /// (an older file, a baseline built before them) too.
    @Test func onAQuietMachineWallTimeIsJudged() {
        let quiet = RegressionGate.elapsedAndCPU().comparePaired(waitingRows(pairs: 20, lockShare: 0, runQueueShare: 0.02, wallSD: 0.02))
        #expect(Set(quiet.comparisons.filter(\.gated).map(\.metric)) == [.cpuSeconds, .cpuAndBlockedSeconds, .wallSeconds], "\(quiet.text)")
        #expect(quiet.warnings.isEmpty)
        let older = waitingRows(pairs: 20, lockShare: 0, runQueueShare: 3, wallSD: 0.02).map { row in
            var row = row
            row.waiting = nil
            return row
        }
        #expect(Set(RegressionGate.elapsedAndCPU().comparePaired(older).comparisons.map(\.metric)) == [.cpuSeconds, .wallSeconds])
    }

    /// The real child: `bench-run` children of a two-worker task group, whose workers end inside
    /// `extract`. Their CPU time must be in `on_cpu_s` (the kernel's own sum, `getrusage`, keeps
    /// ended threads' CPU time: the two agree to within the threads' exits), and every phase has
    /// its blocked time.
    @Test func benchRowsCountTheThreadsThatEndedInsideThePhase() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("waiting").path
        let result = try CLISupport.run(["bench", "--videos", "h264-180p-3s", "--extractors", "taskgroup", "--composers", "rowcopy",
                                         "--counts", "10", "--workers", "2", "--threads", "1", "--repetitions", "3", "--warmup", "0",
                                         "--pipelines-only", "--out", name, "--fixtures-dir", CLISupport.fixturesDirectory, "-q"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        #expect(rows.count == 9 && rows.allSatisfy { $0.waiting?.blockedSeconds != nil }, "\(rows.map(\.waiting))")
        for row in rows where row.phase == .extract {
            let waiting = try #require(row.waiting)
            let cpu = (row.cpuUserSeconds ?? 0) + (row.cpuSysSeconds ?? 0)
            #expect(abs(waiting.onCPUSeconds - cpu) <= 0.1 * cpu + 0.002, "on-CPU \(waiting.onCPUSeconds) s against getrusage's \(cpu) s")
            #expect(waiting.voluntarySwitches > 0 && waiting.runQueueWaitSeconds >= 0)
        }
    }
}
