import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

struct RegressionGateTests {
    /// Fixed ±1 % jitter, so every sample set is noisy in the same way.
    static let jitter = [-0.01, 0.005, 0, 0.008, -0.004, 0.002, -0.007, 0.01, -0.002, 0.004]

    static func samples(_ center: Double) -> [Double] {
        jitter.map { center * (1 + $0) }
    }

    @Test(arguments: [(Double, Verdict, Int32)]([
        (1.20, .slower, 2),
        (0.80, .faster, 0),
        (1.02, .same, 0),
        (1.00, .same, 0),
    ]))
    func verdicts(candidateCenter: Double, verdict: Verdict, exitCode: Int32) throws {
        let report = RegressionGate(metric: .wallSeconds).compare(
            baseline: Fixtures.rows(Self.samples(1.0)),
            candidate: Fixtures.rows(Self.samples(candidateCenter))
        )
        let comparison = try #require(report.comparisons.first)
        #expect(report.comparisons.count == 1)
        #expect(comparison.verdict == verdict)
        #expect(abs(comparison.ratio - candidateCenter) < 0.01)
        #expect(comparison.ratioLow <= comparison.ratio && comparison.ratio <= comparison.ratioHigh)
        #expect(report.outcome.exitCode == exitCode)
        #expect(!report.normalizedToCalibration)
        #expect(report.warnings.contains { $0.contains("without calibration rows") })
    }

    @Test func throughputIsBetterWhenHigher() throws {
        let report = RegressionGate(metric: .thumbnailsPerSecond).compare(
            baseline: Fixtures.rows(Self.samples(1.0)),
            candidate: Fixtures.rows(Self.samples(1.25))
        )
        // Slower wall time → fewer thumbnails per second → still "slower".
        #expect(report.comparisons.first?.verdict == .slower)
        #expect(report.outcome == .regressed)
    }

    @Test func intervalIsDeterministic() {
        let baseline = Fixtures.rows(Self.samples(1.0))
        let candidate = Fixtures.rows(Self.samples(1.03))
        let first = RegressionGate().compare(baseline: baseline, candidate: candidate).comparisons
        let second = RegressionGate().compare(baseline: baseline, candidate: candidate).comparisons
        #expect(first.map(\.ratioLow) == second.map(\.ratioLow) && first.map(\.ratioHigh) == second.map(\.ratioHigh))
    }

    @Test func noisyChangeBeyondThresholdIsUndecided() throws {
        // Median +8 %, but the samples spread ±30 %: the interval reaches into the noise band,
        // so the gate can say neither "slower" nor "same" (exit 3, not a pass).
        let noisy = [0.7, 1.3, 1.08, 0.75, 1.25, 1.1, 0.8, 1.2]
        let report = RegressionGate(metric: .wallSeconds).compare(
            baseline: Fixtures.rows(noisy.map { $0 / 1.08 }),
            candidate: Fixtures.rows(noisy)
        )
        let comparison = try #require(report.comparisons.first)
        #expect(comparison.ratio > 1.05)
        #expect(comparison.ratioLow < 1.05)
        #expect(comparison.verdict == .undecided)
        #expect(report.outcome == .undecided && report.outcome.exitCode == 3)
    }

    @Test func unreadableOrMismatchedFilesAreBadInput() throws {
        let good = Fixtures.temporaryPath("good.csv")
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: good, durable: false)
            for row in Fixtures.rows(Self.samples(1.0)) { try writer.append(row) }
        }
        let bad = Fixtures.temporaryPath("bad.csv")
        try "run_id,wall_s\nx,1\n".write(toFile: bad, atomically: true, encoding: .utf8)

        let mismatch = RegressionGate().compareFiles(baselinePath: good, candidatePath: bad)
        guard case .badInput(let reason) = mismatch.outcome else {
            Issue.record("expected bad input, got \(mismatch.outcome)")
            return
        }
        #expect(reason.contains("missing columns") && reason.contains("git_commit"))
        #expect(mismatch.outcome.exitCode == 1)
        #expect(RegressionGate().compareFiles(baselinePath: good, candidatePath: good + ".missing").outcome.exitCode == 1)
        #expect(RegressionGate().compareFiles(baselinePath: good, candidatePath: good).outcome == .passed)
    }

    @Test func nothingInCommonIsBadInput() {
        let report = RegressionGate().compare(
            baseline: Fixtures.rows(Self.samples(1.0)),
            candidate: Fixtures.rows(Self.samples(1.0), pipeline: "forward+simd")
        )
        #expect(report.outcome.exitCode == 1)
        #expect(report.onlyInBaseline.count == 1 && report.onlyInCandidate.count == 1)
    }

    @Test func differentMachinesCompareRatiosToCalibration() throws {
        let fast = Fixtures.machine()
        let slow = Fixtures.machine(cpuModel: "AMD EPYC 7763 64-Core Processor")
        let baseline = Fixtures.rows(Self.samples(1.0), machine: fast, pipeline: "calibration", phase: .calibration)
            + Fixtures.rows(Self.samples(2.0), machine: fast)
        // The candidate machine is twice as slow: absolute times double, the code did not change.
        let unchanged = Fixtures.rows(Self.samples(2.0), machine: slow, pipeline: "calibration", phase: .calibration)
            + Fixtures.rows(Self.samples(4.0), machine: slow)
        let report = RegressionGate().compare(baseline: baseline, candidate: unchanged)
        #expect(report.normalizedToCalibration)
        #expect(report.warnings.contains { $0.contains("different machines") })
        #expect(report.comparisons.first?.normalisedBy == .decode)
        #expect(report.comparisons.map(\.key.phase) == [.total])
        let comparison = try #require(report.comparisons.first)
        #expect(abs(comparison.ratio - 1) < 0.01)
        #expect(comparison.verdict == .same)
        #expect(report.outcome == .passed)

        // Relative to its calibration the candidate is 25 % slower: a regression.
        let regressed = Fixtures.rows(Self.samples(2.0), machine: slow, pipeline: "calibration", phase: .calibration)
            + Fixtures.rows(Self.samples(5.0), machine: slow)
        let regressedReport = RegressionGate().compare(baseline: baseline, candidate: regressed)
        #expect(regressedReport.comparisons.first?.verdict == .slower)
        #expect(regressedReport.outcome.exitCode == 2)

        // Without calibration rows, different machines cannot be compared.
        let uncalibrated = RegressionGate().compare(
            baseline: Fixtures.rows(Self.samples(2.0), machine: fast),
            candidate: Fixtures.rows(Self.samples(4.0), machine: slow)
        )
        #expect(uncalibrated.outcome.exitCode == 1)
    }

    @Test func renderings() {
        let report = RegressionGate(metric: .wallSeconds).compare(
            baseline: Fixtures.rows(Self.samples(1.0)),
            candidate: Fixtures.rows(Self.samples(1.2))
        )
        let text = report.text
        // The pipeline's label and the request; the options once, in the legend.
        #expect(text.contains("slower: sequential+memcpy clip-1080p ×500 160x90 exact total: wall +20.0 %"))
        #expect(text.contains("options of every configuration: threads=2"))
        #expect(text.contains("+20.0 %"))
        #expect(text.contains("slower"))
        #expect(text.hasSuffix("regressed: 1 configuration(s) slower by more than 5 % (exit 2)"))
        #expect(!text.contains("warning"))
        let markdown = report.markdown.split(separator: "\n")
        #expect(markdown.contains { $0.hasPrefix("| configuration | baseline (wall_s)") })
        #expect(markdown.contains("|---|---|---|---|---|---|---|"))
        // The verdict leads (issue 14), then the changed configuration.
        #expect(markdown.first == "**regressed: 1 configuration(s) slower by more than 5 % (exit 2)**")
        #expect(markdown[1].hasPrefix("- slower: sequential+memcpy"))
    }
}
