import Foundation
import ResultsTestSupport
import Testing
@testable import FilmstripReport
@testable import FilmstripResults

/// A two-build run whose pairs were all planned is judged at that n (exact signed-rank tests,
/// Benjamini–Hochberg), the anytime-valid evidence only where pairs were added by looking.
struct FixedPairsGateTests {
    @Test func signedRankPValuesAreExact() {
        // Nine pairs all above 0: only one of the 2⁹ sign patterns is as extreme.
        let up = SignedRankTest([0.1, 0.12, 0.08, 0.11, 0.09, 0.1, 0.13, 0.07, 0.1])
        #expect(abs(up.pValueAbove(0) - 1.0 / 512) < 1e-12)
        #expect(up.pValueBelow(0) == 1)
        // Within ±5 % (log 1.05 ≈ 0.049) cannot be shown by pairs all near +10 %.
        #expect(up.pValueBelow(log(1.05)) == 1)
        // One negative pair of the smallest magnitude: T⁺ = 44 of 45, P(T ≥ 44) = 2/512.
        let mixed = SignedRankTest([-0.01, 0.12, 0.08, 0.11, 0.09, 0.1, 0.13, 0.07, 0.1])
        #expect(abs(mixed.pValueAbove(0) - 2.0 / 512) < 1e-12)
        #expect(SignedRankTest.rejected(pValues: [0.001, 0.02, 0.04, 0.5], alpha: 0.05) == [0, 1])
        #expect(SignedRankTest.rejected(pValues: [0.02, 0.03, 0.04, 0.5], alpha: 0.05).isEmpty)
        #expect(SignedRankTest.rejected(pValues: [0.01, 0.02, 0.03, 0.04], alpha: 0.05) == [0, 1, 2, 3])
    }

    /// One simulated two-build run: `configurations` configurations, `pairs` pairs each, CPU and
    /// wall time of the candidate `ratio(configuration)` times the baseline's, each pair's log
    /// ratio with noise of `noise` (wall time a little noisier, moving with the CPU time), and a
    /// pair in ten off by up to 4× as much (another process took the core).
    static func run(configurations: Int, pairs: Int, noise: Double, ratio: (Int) -> Double,
                    using generator: inout SeededGenerator) -> [RawResultRow] {
        var rows: [RawResultRow] = []
        for configuration in 0..<configurations {
            for repetition in 0..<pairs {
                let speed = Double.random(in: 0.7...1.3, using: &generator)
                let outlier = Double.random(in: 0..<1, using: &generator) < 0.1 ? Double.random(in: -4...4, using: &generator) : 1
                let cpuNoise = Self.gaussian(&generator) * noise * outlier
                let wallNoise = cpuNoise + Self.gaussian(&generator) * noise / 2
                for role in BuildRole.allCases {
                    var row = Fixtures.row(repetition: repetition, wall: 0.1 * speed)
                    row.options = ["threads": "\(configuration)"]
                    row.build = role
                    row.cpuUserSeconds = 0.1 * speed
                    row.cpuSysSeconds = 0.001 * speed
                    if role == .candidate {
                        let factor = ratio(configuration)
                        row.wallSeconds = row.wallSeconds.map { $0 * factor * exp(wallNoise) }
                        row.cpuUserSeconds = row.cpuUserSeconds.map { $0 * factor * exp(cpuNoise) }
                        row.cpuSysSeconds = row.cpuSysSeconds.map { $0 * factor * exp(cpuNoise) }
                    }
                    rows.append(row)
                }
            }
        }
        return rows
    }

    static func gaussian(_ generator: inout SeededGenerator) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &generator), v = Double.random(in: 0..<1, using: &generator)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// Issue 44's case: 9 pairs, `--no-until-decided`, +8 … +15 % CPU (and wall) in 40 of 45
    /// configurations. At fixed n: exit 2 naming them, and none of the unchanged five.
    @Test func aRealRegressionAtNineFixedPairsFailsTheGate() throws {
        var generator = SeededGenerator(seed: 44)
        let rows = Self.run(configurations: 45, pairs: 9, noise: 0.03, ratio: { $0 < 40 ? 1.08 + 0.07 * Double($0) / 39 : 1 },
                            using: &generator)
        let report = RegressionGate.elapsedAndCPU().comparePaired(rows)
        #expect(report.pairCollection == .fixed)
        #expect(report.outcome == .regressed, "\(report.outcomeLine)")
        #expect(report.slowerConfigurations.count >= 30, "\(report.slowerConfigurations.count) of 40 called slower")
        #expect(report.slowerConfigurations.allSatisfy { Int($0.options["threads"] ?? "") ?? 99 < 40 }, "an unchanged configuration called slower")
        #expect(report.text.contains("verdict at fixed n"))
    }

    /// The false-alarm rate of the fixed-n gate on A/A runs: 200 simulated two-build runs of
    /// unchanged code, 20 configurations × CPU and wall time, 9 pairs each with outliers. A
    /// gate may fail one with probability at most 5 %; the rejections of "not larger" alone
    /// (before the threshold is asked) stay within that level too.
    @Test func fixedPairsKeepTheirLevelOnUnchangedCode() throws {
        var generator = SeededGenerator(seed: 2026)
        var failed = 0, anyGrew = 0, failedOfFirst20 = 0
        let gates = 200
        for gate in 0..<gates {
            let rows = Self.run(configurations: 20, pairs: 9, noise: 0.08, ratio: { _ in 1 }, using: &generator)
            let report = RegressionGate.elapsedAndCPU().comparePaired(rows)
            #expect(report.pairCollection == .fixed)
            if report.outcome == .regressed {
                failed += 1
                if gate < 20 { failedOfFirst20 += 1 }
            }
            let gated = report.comparisons.filter(\.gated)
            if !SignedRankTest.rejected(pValues: gated.map(\.pGrew), alpha: 0.05).isEmpty { anyGrew += 1 }
        }
        #expect(Double(failed) / Double(gates) <= 0.05, "\(failed) of \(gates) A/A gates failed")
        #expect(Double(anyGrew) / Double(gates) <= 0.05, "\(anyGrew) of \(gates) A/A gates rejected \"not larger\"")
        // The figure: 20 fixed-n A/A time runs, none exit 2.
        #expect(failedOfFirst20 == 0)
    }

    /// Pairs added by looking (different numbers of pairs per configuration, or the record of
    /// `bench --until-decided`) keep the anytime-valid evidence; exit 3 says what was done.
    @Test func pairsAddedByLookingKeepTheAnytimeValidEvidence() throws {
        var generator = SeededGenerator(seed: 7)
        var rows = Self.run(configurations: 3, pairs: 9, noise: 0.08, ratio: { _ in 1 }, using: &generator)
        // `--until-decided` added pairs to the second configuration only.
        rows += Self.run(configurations: 3, pairs: 12, noise: 0.08, ratio: { _ in 1 }, using: &generator).filter { row in
            row.repetition >= 9 && row.options["threads"] == "1"
        }
        let report = RegressionGate.elapsedAndCPU().comparePaired(rows)
        #expect(report.pairCollection == .addedByLooking)
        #expect(report.text.contains("pairs added by looking"))
        if report.outcome == .undecided {
            #expect(report.outcomeLine.contains("a quieter runner") && report.outcomeLine.contains("instruction gate"), "\(report.outcomeLine)")
        }
        // The same at fixed n: what more pairs would do.
        let fixed = RegressionGate.elapsedAndCPU().comparePaired(Self.run(configurations: 3, pairs: 3, noise: 0.08, ratio: { _ in 1 }, using: &generator))
        #expect(fixed.pairCollection == .fixed && fixed.outcome == .undecided)
        #expect(fixed.outcomeLine.contains("judged at the fixed 3 pair(s) measured; more pairs would decide them"), "\(fixed.outcomeLine)")
    }
}
