import Filmstrip
import Foundation
import Synchronization
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// What `bench` shows on a terminal (issue 46): an estimate of the time left learnt from the
/// run's own runs, notes wrapped at spaces to the terminal (and left whole in a log), and the
/// user's own videos first in the table. Times come from a synthetic clock: nothing here
/// waits or reads the wall clock.
struct BenchTerminalTests {
    typealias Fake = BenchSessionFakeTests.FakeExecutor
    typealias Run = RemainingTime.Run

    /// A clock that moves only when told.
    final class SyntheticClock: Sendable {
        let seconds = Mutex(1000.0)
        func now() -> Double { seconds.withLock { $0 } }
        func advance(by step: Double) { seconds.withLock { $0 += step } }
    }

    @Test func theEstimateIsEachRunsOwnMeanTimeIncludingTheGapBeforeIt() {
        var estimate = RemainingTime(start: 10)
        #expect(estimate.seconds(of: [Run(configuration: 0, build: 0)]) == nil, "nothing learnt yet")
        // Configuration 0 runs for 2 s after a 0.5 s gap; configuration 1 for 6 s right after it.
        estimate.finished(Run(configuration: 0, build: 0), at: 12.5)
        // Before configuration 1 has run once, it costs the mean of what has run.
        #expect(estimate.seconds(of: Run(configuration: 1, build: 0)) == 2.5)
        estimate.finished(Run(configuration: 1, build: 0), at: 18.5)
        #expect(estimate.seconds(of: Run(configuration: 0, build: 0)) == 2.5)
        #expect(estimate.seconds(of: Run(configuration: 1, build: 0)) == 6)
        // A second round where configuration 0 took 3.5 s: the mean of its own two.
        estimate.finished(Run(configuration: 0, build: 0), at: 22)
        #expect(estimate.seconds(of: Run(configuration: 0, build: 0)) == 3)
        // The other build of a configuration not yet seen costs what this build's took.
        #expect(estimate.seconds(of: Run(configuration: 1, build: 1)) == 6)
        let round = [Run(configuration: 0, build: 0), Run(configuration: 1, build: 0)]
        // Configuration 1 still to run in this round, then two more rounds of both.
        let left: Double? = 6 + 2 * 9
        #expect(estimate.seconds(thisRound: round.dropFirst(), laterRounds: 2, everyRound: round) == left)
        #expect(estimate.seconds(thisRound: [Run](), laterRounds: 0, everyRound: round) == 0)
    }

    /// A session of the four fake configurations, each costing 1, 2, 3 or 4 s (in the order
    /// they first run) and the parent 0.25 s between runs, on `clock`.
    static func timedSession(clock: SyntheticClock, repetitions: Int) -> BenchSession {
        let costs = Mutex<[String: Double]>([:])
        let runner = Fake(name: "one", log: .init()) { configuration, _ in
            let cost = costs.withLock { table -> Double in
                if let known = table[configuration.label] { return known }
                table[configuration.label] = Double(table.count + 1)
                return Double(table.count)
            }
            clock.advance(by: cost + 0.25)
            return .measured(Fake.measurement(configuration), nil)
        }
        var session = BenchSessionFakeTests.session(builds: [.init(role: nil, runner: runner)], repetitions: repetitions)
        session.load = BenchOutputTests.calm()
        session.clock = { clock.now() }
        return session
    }

    /// After the first round the estimate is the time the rest of the run takes, to the millisecond.
    @Test func afterTheFirstRoundTheSessionsEstimateIsTheTimeLeft() throws {
        let clock = SyntheticClock()
        let session = Self.timedSession(clock: clock, repetitions: 3)
        let seen = Mutex<[(done: Int, eta: Double?, at: Double)]>([])
        let transcript = BenchOutputTests.Transcript()
        let progress = BenchProgress(isTerminal: false, onRunning: { running in seen.withLock { $0.append((running.done, running.eta, clock.now())) } },
                                     write: { piece in transcript.text.withLock { $0 += piece } })
        _ = try session.run(interruption: Interruption(), progress: progress)
        let end = clock.now()
        let runs = seen.withLock { $0 }
        #expect(runs.count == 12)
        // The first run has nothing to learn from.
        #expect(runs[0].eta == nil)
        for run in runs where run.done >= 4 {
            let eta = try #require(run.eta)
            #expect(abs(eta - (end - run.at)) < 1e-6, "at run \(run.done): \(eta) s estimated, \(end - run.at) s left")
        }
        // The round's milestone says the same: two rounds of 1 + 2 + 3 + 4 s and 4 gaps of 0.25 s.
        #expect(transcript.lines.contains { $0.contains("rep 1/3 done after 0:11, about 0:22 left (estimate)") }, "\(transcript.lines)")
    }

    /// On a terminal the ETA comes before the label, so a narrow terminal cuts the label and
    /// keeps the ETA, marked `~` while some configuration has not run yet.
    @Test func theProgressLineKeepsItsETAAndMarksTheFirstRoundsGuess() throws {
        let clock = SyntheticClock()
        let session = Self.timedSession(clock: clock, repetitions: 2)
        let transcript = BenchOutputTests.Transcript()
        let progress = BenchProgress(isTerminal: true, columns: 40, write: { piece in transcript.text.withLock { $0 += piece } })
        _ = try session.run(interruption: Interruption(), progress: progress)
        let shown = transcript.text.withLock { $0 }.components(separatedBy: "\r\u{1B}[K").filter { $0.hasPrefix("[") }
        #expect(shown.count == 8, "\(shown)")
        #expect(shown.allSatisfy { $0.count <= 39 }, "\(shown)")
        #expect(shown[0].hasPrefix("[0/8] rep 1/2: "), "no estimate before a run has ended: \(shown[0])")
        #expect(shown[1...3].allSatisfy { $0.contains(", ETA ~") }, "\(shown)")
        #expect(shown[4...].allSatisfy { $0.contains(", ETA ") && !$0.contains("~") }, "\(shown)")
        #expect(shown[4].hasPrefix("[4/8] rep 2/2, ETA 0:11: "), "\(shown[4])")
    }

    @Test func aTerminalsNotesWrapAtSpacesAndALogKeepsThemWhole() {
        let long = "bench: clip.mp4: 10 exact thumbnails match the ffmpeg CLI's decode of the same frames (worst mean difference 0.00 of 255)"
        let terminal = BenchOutputTests.Transcript()
        BenchProgress(isTerminal: true, columns: 50, write: { piece in terminal.text.withLock { $0 += piece } }).note(long)
        let lines = terminal.lines
        #expect(lines.count > 2 && lines.allSatisfy { $0.count <= 50 }, "\(lines)")
        // Continuation lines are indented, and joined back they are the note, word for word.
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    ") }, "\(lines)")
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == long)
        let log = BenchOutputTests.Transcript()
        BenchProgress(isTerminal: false, columns: 50, write: { piece in log.text.withLock { $0 += piece } }).note(long)
        #expect(log.lines == [long])
    }

    @Test func theUsersOwnVideosLeadTheTable() {
        func rows(video: String, pipeline: String) -> [RawResultRow] {
            Fixtures.rows([0.10, 0.11, 0.12], pipeline: pipeline).map { row in
                var row = row
                row.video.id = video
                return row
            }
        }
        let all = rows(video: "clip-1080p", pipeline: "forward+rowcopy") + rows(video: "zoo.mp4", pipeline: "forward+rowcopy")
        func titles(_ leading: [String]) -> [String] {
            FastestTable.text(SummaryRow.summarize(all), raw: all, leadingVideos: leading)
                .split(separator: "\n").filter { $0.hasPrefix("clip-1080p") || $0.hasPrefix("zoo.mp4") }.map { String($0.prefix(4)) }
        }
        #expect(titles([]) == ["clip", "zoo."])
        #expect(titles(["zoo.mp4"]) == ["zoo.", "clip"])
    }
}
