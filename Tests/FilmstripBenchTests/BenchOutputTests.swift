import Filmstrip
import Foundation
import Synchronization
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults

/// What `bench` prints while and after it runs, read as hyperfine's output is: mean ± σ and
/// user/system CPU time in the table, warnings about a busy machine and a wide spread, the
/// plan with its time estimate, and `--until-decided` rounds that say how many configurations
/// are still open. The session runs with the fake executor of ``BenchSessionFakeTests``.
struct BenchOutputTests {
    typealias Fake = BenchSessionFakeTests.FakeExecutor

    /// Collects what a ``BenchProgress`` writes.
    final class Transcript: Sendable {
        let text = Mutex("")
        var lines: [String] { text.withLock { $0 }.split(separator: "\n").map(String.init) }
        func progress(quiet: Bool = false) -> BenchProgress {
            BenchProgress(isTerminal: false, quiet: quiet, write: { piece in self.text.withLock { $0 += piece } })
        }
    }

    /// A measurement whose times depend on the run's index: wall spread by `spread` (a fraction)
    /// around 10 ms, user and system CPU 8 ms and 1 ms with the same spread.
    static func varying(spread: Double) -> @Sendable (BenchConfiguration, Int) -> RunOutcome {
        { configuration, index in
            let factor = 1 + spread * sin(Double(index) * 1.7)
            return .measured(BenchMeasurement(
                phases: configuration.phases.map {
                    .init(phase: $0, wallSeconds: 0.01 * factor, cpuUserSeconds: 0.008 * factor, cpuSysSeconds: 0.001 * factor,
                          peakRSSBytes: 1 << 20, framesDecoded: nil)
                },
                checksum: "fake", maxFrameError: 0), nil)
        }
    }

    static func calm() -> MachineLoad { MachineLoad(read: { 0.2 }, logicalCores: 2) }

    @Test func theTableShowsMeanAndDeviationAndUserAndSystemTime() throws {
        var session = BenchSessionFakeTests.session(builds: [.init(role: nil, runner: Fake(name: "one", log: .init(), outcome: Self.varying(spread: 0.05)))], repetitions: 6)
        session.load = Self.calm()
        let result = try session.run(interruption: Interruption(), progress: Transcript().progress())
        let table = FastestTable.text(result.summary, raw: result.rows)
        let wall = try #require(result.summary.first { $0.metric == .wallSeconds && $0.configurationKey.phase == .compose })
        // Under each ranked line: the wall time's mean ± σ, then the mean user and system CPU time.
        let meanLines = table.split(separator: "\n").filter { $0.contains("mean ") && $0.contains(" ± ") && $0.contains("user ") && $0.contains("sys ") }
        #expect(meanLines.count == 2, "\(table)")
        #expect(table.contains("mean \(ReadableSeconds.text(wall.mean)) ± \(ReadableSeconds.text(wall.stddev))"), "\(table)")
        let user = try #require(result.summary.first { $0.metric == .cpuUserSeconds && $0.configurationKey == wall.configurationKey })
        #expect(table.contains("user \(ReadableSeconds.text(user.mean))"), "\(table)")
        #expect(wall.stddev > 0)
    }

    @Test func aBusyMachineIsWarnedOfBeforeTheFirstRun() throws {
        var session = BenchSessionFakeTests.session(builds: [.init(role: nil, runner: Fake(name: "one", log: .init()))], repetitions: 2)
        session.load = MachineLoad(read: { 6.2 }, logicalCores: 2)
        let transcript = Transcript()
        _ = try session.run(interruption: Interruption(), progress: transcript.progress())
        let warnings = transcript.lines.filter { $0.contains("warning: the machine is busy") }
        #expect(warnings.count == 1, "\(transcript.lines)")
        #expect(warnings.first?.contains("load average 6.2 on 2 core(s)") == true)
    }

    @Test func aMachineThatBecomesBusyIsWarnedOfOncePerMinute() {
        let reading = Mutex(0.5)
        var load = MachineLoad(read: { reading.withLock { $0 } }, logicalCores: 2)
        #expect(load.atStart() == nil)
        // The bench's own single-threaded child explains a load of up to 3 on 2 cores.
        reading.withLock { $0 = 2.9 }
        #expect(load.between(elapsed: 20, ownParallelism: 1) == nil)
        reading.withLock { $0 = 4.5 }
        let warning = load.between(elapsed: 40, ownParallelism: 1)
        #expect(warning?.contains("became busy at 0:40: load average 4.5 on 2 core(s)") == true, "\(warning ?? "nil")")
        // Still busy: not again within the minute, nor before the next reading is due.
        #expect(load.between(elapsed: 80, ownParallelism: 1) == nil)
        #expect(load.between(elapsed: 101, ownParallelism: 1) != nil)
        // A child keeping both cores busy explains a load of 4.
        var twoThreads = MachineLoad(read: { 3.9 }, logicalCores: 2)
        #expect(twoThreads.between(elapsed: 10, ownParallelism: 2) == nil)
    }

    @Test func aWideSpreadNamesTheConfiguration() throws {
        var session = BenchSessionFakeTests.session(builds: [.init(role: nil, runner: Fake(name: "one", log: .init(), outcome: Self.varying(spread: 0.4)))], repetitions: 6)
        session.load = Self.calm()
        let transcript = Transcript()
        let result = try session.run(interruption: Interruption(), progress: transcript.progress())
        let warning = try #require(transcript.lines.first { $0.contains("warning: wide spread") }, "\(transcript.lines)")
        let ranked = FastestTable.rankedRows(result.summary)
        #expect(!ranked.isEmpty)
        for row in ranked where row.stddev / row.mean > WideSpread.threshold {
            #expect(warning.contains("\(row.configurationKey.pipeline) on \(row.configurationKey.videoID) ×\(row.configurationKey.thumbnailCount)"), "\(warning)")
        }
        // A spread of 1 % is not wide.
        #expect(WideSpread.warning(result.summary.map { row in var row = row; row.stddev = row.mean * 0.01; return row }) == nil)
    }

    @Test func untilDecidedSaysOncePerRoundHowManyConfigurationsAreOpen() throws {
        let log = Fake.Log()
        // The candidate's CPU time is noisy, so the gate cannot decide within a few pairs.
        var session = BenchSessionFakeTests.session(builds: [.init(role: .baseline, runner: Fake(name: "baseline", log: log)),
                                                             .init(role: .candidate, runner: Fake(name: "candidate", log: log, outcome: Self.varying(spread: 0.3)))],
                                                    repetitions: 3)
        session.load = Self.calm()
        session.untilDecided = UntilDecided(gate: RegressionGate(metric: .cpuSeconds, threshold: 0.05), maxSeconds: 600, maxPairs: 7)
        let transcript = Transcript()
        let result = try session.run(interruption: Interruption(), progress: transcript.progress())
        let addedRounds = (result.rows.map(\.repetition).max() ?? 0) + 1 - 3
        #expect(addedRounds > 0)
        let lines = transcript.lines.filter { $0.contains("after pair") }
        #expect(lines.count == addedRounds, "\(transcript.lines)")
        #expect(lines.allSatisfy { $0.range(of: #"after pair \d+: \d+ of 4 configuration\(s\) still undecided"#, options: .regularExpression) != nil },
                "\(lines)")
        // No line per added pair without the count, and no terminal escapes in a log.
        #expect(!transcript.lines.contains { $0.contains("(undecided)") || $0.contains("\u{1B}") })
    }

    @Test func quietPrintsNothingOnSuccess() throws {
        var session = BenchSessionFakeTests.session(builds: [.init(role: nil, runner: Fake(name: "one", log: .init(), outcome: Self.varying(spread: 0.4)))], repetitions: 2)
        session.load = MachineLoad(read: { 9 }, logicalCores: 2)
        let transcript = Transcript()
        _ = try session.run(interruption: Interruption(), progress: transcript.progress(quiet: true))
        #expect(transcript.text.withLock { $0 }.isEmpty, "\(transcript.lines)")
    }

    @Test func thePlanEstimatesTheTimeFromTheLatestEarlierRun() throws {
        var session = BenchSessionFakeTests.session(builds: [.init(role: nil, runner: Fake(name: "one", log: .init()))], repetitions: 2)
        session.load = Self.calm()
        let first = Transcript()
        _ = try session.run(interruption: Interruption(), progress: first.progress())
        #expect(first.lines.first?.contains("no earlier run in \(session.files.raw) to estimate the time from") == true, "\(first.lines)")
        // Rows 12 s apart over 8 child runs of an earlier run: 12 / 7 s a child run.
        var rows = try ResultsFileReader.read(RawResultRow.self, from: session.files.raw)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for index in rows.indices { rows[index].timestamp = start.addingTimeInterval(12 * Double(index) / Double(rows.count - 1)) }
        #expect(abs((RunEstimate.secondsPerChildRun(earlier: rows) ?? 0) - 12.0 / 7) < 1e-9)
        var next = BenchSessionFakeTests.session(builds: [.init(role: nil, runner: Fake(name: "one", log: .init()))], repetitions: 2)
        next.load = Self.calm()
        let writer = try ResultsFileWriter<RawResultRow>(path: next.files.raw)
        for row in rows { try writer.append(row) }
        let second = Transcript()
        _ = try next.run(interruption: Interruption(), progress: second.progress())
        // 8 planned runs at 12 / 7 s each: 13.7 s.
        #expect(second.lines.first?.contains("= 8 child runs; estimated 0:14 (1.7 s a child run") == true, "\(second.lines)")
    }
}
