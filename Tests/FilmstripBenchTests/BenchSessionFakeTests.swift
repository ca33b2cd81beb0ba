import CLITestSupport
import Filmstrip
import FilmstripFixtures
import Foundation
import Glibc
import Synchronization
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// `BenchSession.run` with a fake in place of the `bench-run` children (as hyperfine's
/// `MockExecutor`): the order of runs, a failure dropping a configuration for both builds,
/// an interruption, in milliseconds. The real children are tested in `BenchCommandTests`.
struct BenchSessionFakeTests {
    /// Answers every run at once with a fixed measurement, records who ran what, and fails or
    /// interrupts where told.
    final class FakeExecutor: ConfigurationExecutor {
        struct Call: Equatable {
            var build: String
            var label: String
        }
        /// Every run of every fake of a session, in order.
        final class Log: Sendable {
            let calls = Mutex<[Call]>([])
        }
        let name: String
        let log: Log
        private let outcome: @Sendable (BenchConfiguration, Int) -> RunOutcome

        init(name: String, log: Log, outcome: @escaping @Sendable (BenchConfiguration, Int) -> RunOutcome = { configuration, _ in .measured(FakeExecutor.measurement(configuration), nil) }) {
            self.name = name
            self.log = log
            self.outcome = outcome
        }

        func run(_ configuration: BenchConfiguration, timeLimit: Double, interruption: Interruption) -> RunOutcome {
            let index = log.calls.withLock { log -> Int in
                log.append(Call(build: name, label: configuration.label))
                return log.count - 1
            }
            return outcome(configuration, index)
        }

        /// What a child reports: a cost for each of the configuration's phases.
        static func measurement(_ configuration: BenchConfiguration) -> BenchMeasurement {
            BenchMeasurement(
                phases: configuration.phases.map {
                    .init(phase: $0, wallSeconds: 0.01, cpuUserSeconds: 0.01, cpuSysSeconds: 0, peakRSSBytes: 1 << 20, framesDecoded: nil)
                },
                checksum: "fake", maxFrameError: 0)
        }
    }

    /// Four configurations (a synthetic composition, the memcpy floor, both calibrations): only
    /// the calibration video is probed, from the fixtures cache.
    static func session(builds: [BenchSession.Build], repetitions: Int = 3) -> BenchSession {
        var matrix = BenchMatrix(extractors: [Extractors.composerSweepPartner], composers: [.thumbnails(Composers.extractorSweepPartner)],
                                 videoIDs: [], counts: [10], heights: [64], accuracies: [.exact], decoderThreads: [1],
                                 repetitions: repetitions, warmup: 0, timeLimitSeconds: 5)
        matrix.referenceRuns = true
        let folder = Fixtures.temporaryPath("fake")
        return BenchSession(matrix: matrix, context: RunContext(runID: "fake", gitCommit: "c", gitDirty: false, machine: Fixtures.machine()),
                            files: ResultsFiles(name: folder),
                            cache: ReferenceVideoCache(directory: URL(fileURLWithPath: CLISupport.fixturesDirectory)), builds: builds)
    }

    @Test func runsEveryConfigurationEveryRoundInRotatedOrder() throws {
        let log = FakeExecutor.Log()
        let session = Self.session(builds: [.init(role: nil, runner: FakeExecutor(name: "one", log: log))])
        let result = try session.run(interruption: Interruption(), progress: BenchProgress(isTerminal: false))
        let calls = log.calls.withLock { $0 }
        #expect(calls.count == 4 * 3)
        let rounds = stride(from: 0, to: calls.count, by: 4).map { calls[$0..<$0 + 4].map(\.label) }
        // Each round runs every configuration once, each starting from a different one.
        #expect(rounds.allSatisfy { Set($0).count == 4 })
        #expect(Set(rounds.map { $0[0] }).count == 3)
        #expect(result.failures == 0 && result.interruptedBy == nil)
        // One row per phase: compose, compose, calibration, calibration; kinds written by the runner.
        #expect(result.rows.count == 4 * 3)
        #expect(Set(result.rows.map(\.kind)) == [.syntheticComposition, .memcpyFloor, .calibrationCopy, .calibrationDecode])
        // The file holds the rows (its timestamps in whole seconds).
        #expect(try ResultsFileReader.read(RawResultRow.self, from: session.files.raw).map(\.configurationKey) == result.rows.map(\.configurationKey))
    }

    @Test func twoBuildsRunBackToBackInAlternatingOrder() throws {
        let log = FakeExecutor.Log()
        let session = Self.session(builds: [.init(role: .baseline, runner: FakeExecutor(name: "baseline", log: log)),
                                            .init(role: .candidate, runner: FakeExecutor(name: "candidate", log: log))], repetitions: 2)
        let result = try session.run(interruption: Interruption(), progress: BenchProgress(isTerminal: false))
        let calls = log.calls.withLock { $0 }
        #expect(calls.count == 4 * 2 * 2)
        let pairs = stride(from: 0, to: calls.count, by: 2).map { (calls[$0], calls[$0 + 1]) }
        // The same configuration under both builds back to back; who goes first alternates.
        #expect(pairs.allSatisfy { $0.0.label == $0.1.label && $0.0.build != $0.1.build })
        let firsts: [String] = pairs.map(\.0.build)
        // Pair p is slot p % 4 of round p / 4: the baseline first when slot + round is even.
        let expected: [String] = (0..<8).map { (pair: Int) -> String in (pair % 4 + pair / 4) % 2 == 0 ? "baseline" : "candidate" }
        #expect(firsts == expected)
        #expect(result.rows.filter { $0.build == .baseline }.count == result.rows.filter { $0.build == .candidate }.count)
        // The summary is the candidate's.
        #expect(!result.summary.isEmpty)
    }

    @Test func aFailureDropsTheConfigurationForBothBuilds() throws {
        let log = FakeExecutor.Log()
        let failCopy: @Sendable (BenchConfiguration, Int) -> RunOutcome = { configuration, _ in
            configuration.kind == .calibrationCopy ? .failed("boom") : .measured(FakeExecutor.measurement(configuration), nil)
        }
        let session = Self.session(builds: [.init(role: .baseline, runner: FakeExecutor(name: "baseline", log: log, outcome: failCopy)),
                                            .init(role: .candidate, runner: FakeExecutor(name: "candidate", log: log))])
        let result = try session.run(interruption: Interruption(), progress: BenchProgress(isTerminal: false))
        let copyCalls = log.calls.withLock { $0 }.filter { $0.label.hasPrefix("calibration copy") }
        // Tried once (by whichever build came first in round 1), then never again by either build.
        #expect(copyCalls.count <= 2 && copyCalls.contains { $0.build == "baseline" })
        #expect(result.failures == 1)
        let failed = result.rows.filter { $0.status == .error }
        #expect(failed.count == 1 && failed[0].error == "boom" && failed[0].kind == .calibrationCopy)
        // The other three configurations ran all three rounds under both builds.
        #expect(result.rows.filter { $0.status == .ok && $0.kind != .calibrationCopy }.count == 3 * 3 * 2)
    }

    /// Both loops record through `BenchSession.record`: a timed-out run's error row names the
    /// build's fallback commit under instructions too (it was left empty there), with the limit.
    @Test(arguments: [BenchMeasure.time, .instructions(parallel: 2)])
    func aTimedOutRunIsRecordedAlikeByBothLoops(measure: BenchMeasure) throws {
        let log = FakeExecutor.Log()
        let timeOutDecode: @Sendable (BenchConfiguration, Int) -> RunOutcome = { configuration, _ in
            configuration.kind == .calibrationDecode ? .timedOut : .measured(FakeExecutor.measurement(configuration), nil)
        }
        var session = Self.session(builds: [.init(role: .baseline, runner: FakeExecutor(name: "baseline", log: log), commitFallback: "b1"),
                                            .init(role: .candidate, runner: FakeExecutor(name: "candidate", log: log, outcome: timeOutDecode),
                                                  commitFallback: "c2")], repetitions: 1)
        session.measure = measure
        let result = try session.run(interruption: Interruption(), progress: BenchProgress(isTerminal: false))
        let failed = result.rows.filter { $0.status == .error }
        #expect(result.failures == 1)
        #expect(failed.count == 1 && failed[0].build == .candidate && failed[0].executableCommit == "c2")
        #expect(failed.allSatisfy { $0.error.hasPrefix("exceeded the time limit of ") })
        #expect(try ResultsFileReader.read(RawResultRow.self, from: session.files.raw).filter { $0.status == .error }.map(\.executableCommit) == ["c2"])
    }

    @Test func anInterruptionStopsAtOnceAndKeepsTheRowsSoFar() throws {
        let log = FakeExecutor.Log()
        let interruption = Interruption()
        let stopFifth: @Sendable (BenchConfiguration, Int) -> RunOutcome = { configuration, index in
            index == 4 ? .interrupted : .measured(FakeExecutor.measurement(configuration), nil)
        }
        let session = Self.session(builds: [.init(role: nil, runner: FakeExecutor(name: "one", log: log, outcome: stopFifth))])
        let result = try session.run(interruption: interruption, progress: BenchProgress(isTerminal: false))
        #expect(result.interruptedBy == SIGINT)
        #expect(log.calls.withLock { $0.count } == 5)
        #expect(result.rows.count == 4)
        #expect(result.summary.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: session.files.summary))
        #expect(try ResultsFileReader.read(RawResultRow.self, from: session.files.raw).count == 4)
    }
}
