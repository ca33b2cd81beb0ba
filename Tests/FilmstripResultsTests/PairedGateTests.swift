import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

struct ShiftIntervalTests {
    /// Published critical values: with 10 pairs the two-sided 5 % critical T is 8, so the
    /// 95 % interval starts at the 9th Walsh average (coverage 1 − 2·P(T ≤ 8) = 1 − 2·25/1024).
    @Test func signedRankIntervalMatchesTables() {
        let distribution = ShiftInterval.signedRankDistribution(10)
        #expect(abs(distribution.reduce(0, +) - 1) < 1e-12)
        let (excluded, coverage) = ShiftInterval.excludedRanks(distribution: distribution, level: 0.95)
        #expect(excluded == 8)
        #expect(abs(coverage - (1 - 2 * 25.0 / 1024)) < 1e-12)
        // 6 pairs: min…max of the Walsh averages, 1 − 2/64 = 0.969; 5 pairs cannot reach 95 %.
        let six = ShiftInterval.excludedRanks(distribution: ShiftInterval.signedRankDistribution(6), level: 0.95)
        #expect(six.0 == 0 && abs(six.1 - (1 - 2.0 / 64)) < 1e-12)
        let five = ShiftInterval.excludedRanks(distribution: ShiftInterval.signedRankDistribution(5), level: 0.95)
        #expect(five.0 == 0 && abs(five.1 - (1 - 2.0 / 32)) < 1e-12)
    }

    /// Mann–Whitney with 6 and 6: the two-sided 5 % critical U is 5 (P(U ≤ 5) = 19/924 ≤ 0.025 <
    /// P(U ≤ 6) = 30/924), so the interval starts at the 6th of the 36 differences.
    @Test func mannWhitneyIntervalMatchesTables() {
        let distribution = ShiftInterval.mannWhitneyDistribution(6, 6)
        #expect(abs(distribution[0] * 924 - 1) < 1e-9 && abs(distribution[5] * 924 - 7) < 1e-9)
        let (excluded, coverage) = ShiftInterval.excludedRanks(distribution: distribution, level: 0.95)
        #expect(excluded == 5)
        #expect(abs(coverage - (1 - 2 * 19.0 / 924)) < 1e-9)
        // Sizes past the exact table agree with the normal approximation to a rank.
        let exact = ShiftInterval.excludedRanks(distribution: ShiftInterval.mannWhitneyDistribution(60, 60), level: 0.95).0
        #expect(abs(exact - ShiftInterval.normalExcludedRanks(n: 60, m: 60, level: 0.95).0) <= 2)
    }

    @Test func estimatesTheShift() {
        let baseline = [1.0, 2, 3, 4, 5, 6, 7, 8]
        let interval = ShiftInterval.twoSample(baseline: baseline, candidate: baseline.map { $0 + 10 })
        #expect(interval.estimate == 10 && interval.low < 10 && interval.high > 10)
        let paired = ShiftInterval.paired([0.1, 0.12, 0.09, 0.11, 0.1, 0.13, 0.08, 0.1])
        #expect(abs(paired.estimate - 0.105) < 0.006 && paired.low > 0.08 && paired.high < 0.13)
    }
}

struct PairedGateTests {
    /// Rows of a two-build run: per repetition the baseline takes `baseline[r]` and the
    /// candidate `baseline[r] · ratio`, both drifting with the machine.
    static func twoBuildRows(_ drift: [Double], ratio: Double, candidateFrames: Int = 5868) -> [RawResultRow] {
        drift.enumerated().flatMap { repetition, speed in
            var before = Fixtures.row(repetition: repetition, wall: speed)
            before.build = .baseline
            before.executableCommit = "aaaa"
            var after = Fixtures.row(repetition: repetition, wall: speed * ratio)
            after.build = .candidate
            after.executableCommit = "bbbb-dirty"
            after.framesDecoded = candidateFrames
            return [before, after]
        }
    }

    /// The machine's speed swings ±30 % between repetitions: unpaired, a 10 % slowdown drowns
    /// in it; paired, it is called, and equal builds are not.
    static let drift = [1.0, 1.3, 0.8, 1.1, 0.7, 1.25, 0.9, 1.2, 0.75, 1.05]

    @Test func pairsCancelTheMachinesDrift() throws {
        let slower = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoBuildRows(Self.drift, ratio: 1.10))
        let comparison = try #require(slower.comparisons.first)
        #expect(abs(comparison.ratio - 1.10) < 1e-9)
        #expect(comparison.count == 10)
        #expect(comparison.verdict == .slower)
        #expect(slower.outcome.exitCode == 2)
        #expect(slower.text.contains("built from aaaa, candidate from bbbb-dirty"))

        let equal = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoBuildRows(Self.drift, ratio: 1.0))
        #expect(equal.comparisons.first?.verdict == .same)
        #expect(equal.outcome == .passed)

        // The same samples as two separate runs: the drift hides the slowdown, and the gate says it cannot tell.
        let rows = Self.twoBuildRows(Self.drift, ratio: 1.10)
        let unpaired = RegressionGate(metric: .wallSeconds).compare(baseline: rows.filter { $0.build == .baseline }.map { var row = $0; row.build = nil; return row },
                                                                    candidate: rows.filter { $0.build == .candidate }.map { var row = $0; row.build = nil; return row })
        #expect(unpaired.comparisons.first?.verdict == .undecided)
        #expect(unpaired.outcome == .undecided)
    }

    @Test func oneFileWithoutBuildsIsBadInput() {
        let report = RegressionGate().comparePaired(Fixtures.rows([1, 1, 1]))
        #expect(report.outcome.exitCode == 1)
    }

    @Test func changedWorkIsReportedWhateverTheNoise() {
        let report = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoBuildRows(Self.drift, ratio: 1.0, candidateFrames: 5869))
        #expect(report.comparisons.first?.verdict == .same)
        #expect(report.workChanges.map(\.counter) == [.framesDecoded])
        #expect(report.outcome.exitCode == 2)
        #expect(report.text.contains("work changed: ") && WrappedText.joined(report.text).contains { $0.contains(": frames_decoded 5868 → 5869") })
        // Less work is reported but passes.
        let less = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoBuildRows(Self.drift, ratio: 1.0, candidateFrames: 100))
        #expect(less.workChanges.count == 1 && less.outcome == .passed)
        // What cannot fail the gate never leads: listed after the table, not among the verdict's lines.
        #expect(less.headlineLines == [less.outcomeLine] && less.extrasLines.contains { $0.hasPrefix("work changed: ") }, "\(less.headlineLines)")
    }

    @Test(arguments: [Double.nan, .infinity, -1, 0])
    func impossibleTimesAreBadInput(value: Double) {
        var rows = Self.twoBuildRows(Self.drift, ratio: 1.0)
        rows[3].wallSeconds = value
        let paired = RegressionGate().comparePaired(rows, path: "x.csv")
        guard case .badInput(let reason) = paired.outcome else {
            Issue.record("expected bad input for \(value), got \(paired.outcome)")
            return
        }
        #expect(reason.hasPrefix("x.csv: ") && reason.contains("wall_s"))
        let separate = RegressionGate().compare(baseline: Fixtures.rows([1, 1, 1]), candidate: [rows[3]])
        #expect(separate.outcome.exitCode == 1)
    }

    @Test func nanInAFileIsExitOne() throws {
        let path = Fixtures.temporaryPath("nan-raw.csv")
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
            for row in Fixtures.rows([1, 1, 1, 1, 1, 1]) { try writer.append(row) }
        }
        let nanPath = Fixtures.temporaryPath("nan-candidate-raw.csv")
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: nanPath, durable: false)
            for row in Fixtures.rows([.nan, .nan, .nan, .nan, .nan, .nan]) { try writer.append(row) }
        }
        #expect(RegressionGate().compareFiles(baselinePath: path, candidatePath: nanPath).outcome.exitCode == 1)
    }
}

/// Every committed results file, and those measured elsewhere, still load, and the two
/// cases of issue 10 get their verdicts.
struct CommittedResultsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shared = URL(fileURLWithPath: "/work/shared/results")

    static func rawFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix("-raw.csv") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    @Test func everyCommittedFileLoads() throws {
        let files = Self.rawFiles(in: Self.repository.appendingPathComponent("results")) + Self.rawFiles(in: Self.shared)
        #expect(files.count >= 4)
        for path in files {
            let rows = try ResultsFileReader.read(RawResultRow.self, from: path)
            #expect(!rows.isEmpty, "\(path)")
            #expect(rows.allSatisfy { $0.build == nil }, "\(path)")
            #expect(RegressionGate().badValue(in: rows, path: path) == nil)
        }
        for path in ((try? FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("results").path)) ?? [])
            .filter({ $0.hasSuffix("-summary.csv") }) {
            _ = try ResultsFileReader.read(SummaryRow.self, from: Self.repository.appendingPathComponent("results/\(path)").path)
        }
    }

    @Test func anotherDayIsNotARegression() throws {
        let day2 = Self.shared.appendingPathComponent("standard-epyc-2c-day2-raw.csv").path
        try #require(FileManager.default.fileExists(atPath: day2), "needs /work/shared/results")
        let report = RegressionGate(metric: .wallSeconds, threshold: 0.10).compareFiles(
            baselinePath: Self.repository.appendingPathComponent("results/standard-epyc-2c-r2-raw.csv").path, candidatePath: day2)
        #expect(report.normalizedToCalibration)
        #expect(report.comparisons.filter { $0.verdict == .slower }.count <= 5)
    }

    @Test func sixteenCoresAreCalledFaster() throws {
        let day2 = Self.shared.appendingPathComponent("standard-epyc-2c-day2-raw.csv").path
        let xeon = Self.shared.appendingPathComponent("standard-xeon-16c-raw.csv").path
        try #require(FileManager.default.fileExists(atPath: xeon), "needs /work/shared/results")
        let report = RegressionGate(metric: .wallSeconds).compareFiles(baselinePath: day2, candidatePath: xeon)
        let taskgroup = try #require(report.comparisons.first {
            $0.key.pipeline == "taskgroup+rowcopy" && $0.key.videoID == "h264-720p-60s" && $0.key.thumbnailCount == 100 && $0.key.phase == .total
        })
        #expect(taskgroup.verdict == .faster)
        #expect(taskgroup.ratioHigh < 1)
        let raw = try #require(taskgroup.unnormalised)
        #expect(raw.high < 1)
    }
}
