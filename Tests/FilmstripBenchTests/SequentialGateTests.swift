import FilmstripFixtures
import Foundation
import Testing
@testable import FilmstripBench

/// The time gate's verdicts: anytime-valid evidence, e-Benjamini–Hochberg, the undecided state
/// and the stopping rule of `bench --until-decided`.
struct SequentialGateTests {
    /// A deterministic source (SplitMix64), so the simulations are the same on every run.
    struct Random {
        var generator: SeededGenerator
        init(state: UInt64) { generator = SeededGenerator(seed: state) }
        mutating func next() -> Double { generator.nextUnit() }

        /// Heavy-tailed noise like the measured pairs: normal core, one pair in ten off by a lot.
        mutating func noise(sd: Double) -> Double {
            let normal = (-2 * log(max(next(), 1e-300))).squareRoot() * cos(2 * .pi * next())
            return next() < 0.1 ? normal * sd * 5 : normal * sd
        }
    }

    /// Under the null, however long the sequence and wherever it stops, the evidence crosses
    /// 1/α in at most about α of sequences (Ville's inequality), where a fixed-n test looked at
    /// after every pair would cross far more often.
    @Test func evidenceKeepsItsLevelUnderOptionalStopping() {
        var random = Random(state: 42)
        var crossed = 0
        let sequences = 400
        for _ in 0..<sequences {
            let pairs = (0..<150).map { _ in random.noise(sd: 0.1) }
            if BettingEvidence.wealthPath(pairs, shift: 0, direction: 1, floor: log(1.05)).contains(where: { $0 >= 20 }) { crossed += 1 }
        }
        #expect(Double(crossed) / Double(sequences) <= 0.05, "crossed in \(crossed) of \(sequences)")
    }

    @Test func evidenceGrowsForARealChange() {
        var random = Random(state: 7)
        let slower = (0..<20).map { _ in log(1.10) + random.noise(sd: 0.03) }
        #expect(BettingEvidence.eValue(slower, shift: 0, direction: 1, floor: log(1.05)) > 1000)
        #expect(BettingEvidence.eValue(slower, shift: 0, direction: -1, floor: log(1.05)) < 2)
        let unchanged = (0..<20).map { _ in random.noise(sd: 0.01) }
        // Within ±5 %: evidence against "slower by 5 %" and against "faster by 5 %".
        #expect(BettingEvidence.eValue(unchanged, shift: log(1.05), direction: -1, floor: log(1.05)) > 1000)
    }

    /// The e-value is the wealth now, not the best it ever was: only the former has a mean of at
    /// most 1 under the null at any stopping time, which e-Benjamini–Hochberg relies on.
    @Test func evidenceIsTheWealthAfterTheLastPair() {
        let upThenDown = Array(repeating: log(1.2), count: 8) + Array(repeating: -log(1.2), count: 8)
        let path = BettingEvidence.wealthPath(upThenDown, shift: 0, direction: 1, floor: log(1.05))
        #expect(path.max()! > 10)
        #expect(BettingEvidence.eValue(upThenDown, shift: 0, direction: 1, floor: log(1.05)) == path.last)
        #expect(path.last! < 1)
    }

    /// The whole gate under unchanged code, looked at after every round of pairs and stopped at
    /// its first rejection (what `bench --until-decided` does): e-BH over the configurations'
    /// wealth at that moment fails wrongly in at most about α of gates, however many rounds.
    @Test func aGateOfUnchangedCodeLookedAtEveryRoundKeepsItsLevel() {
        var random = Random(state: 2026)
        let gates = 200, configurations = 20, rounds = 60
        var failed = 0
        for _ in 0..<gates {
            let paths = (0..<configurations).map { _ in
                BettingEvidence.wealthPath((0..<rounds).map { _ in random.noise(sd: 0.1) }, shift: 0, direction: 1, floor: log(1.05))
            }
            if (0..<rounds).contains(where: { round in !BettingEvidence.rejected(eValues: paths.map { $0[round] }, alpha: 0.05).isEmpty }) {
                failed += 1
            }
        }
        #expect(Double(failed) / Double(gates) <= 0.05, "failed in \(failed) of \(gates)")
    }

    @Test func eBenjaminiHochbergAsksLessWhenMuchChanged() {
        // One strong e-value among 100: must reach 100/0.05 = 2000 alone.
        #expect(BettingEvidence.rejected(eValues: [1500] + Array(repeating: 1, count: 99), alpha: 0.05).isEmpty)
        #expect(BettingEvidence.rejected(eValues: [2500] + Array(repeating: 1, count: 99), alpha: 0.05) == [0])
        // Fifty at 45: each needs only 100/(0.05·50) = 40.
        let many = Array(repeating: 45.0, count: 50) + Array(repeating: 1, count: 50)
        #expect(BettingEvidence.rejected(eValues: many, alpha: 0.05) == Set(0..<50))
    }

    /// Rows of a two-build run of `configurations` pipelines, `pairs` repetitions, candidate
    /// CPU times multiplied by `ratio` for the first configuration, noise `sd` on the log ratio.
    static func rows(configurations: Int, pairs: Int, ratio: Double, sd: Double, seed: UInt64 = 1) -> [RawResultRow] {
        var random = Random(state: seed)
        var rows: [RawResultRow] = []
        for repetition in 0..<pairs {
            for index in 0..<configurations {
                let speed = 0.2 * (1 + 0.3 * random.next())
                for (build, factor) in [(BuildRole.baseline, 1.0), (.candidate, (index == 0 ? ratio : 1) * exp(random.noise(sd: sd)))] {
                    var row = Fixtures.row(pipeline: "p\(index)+rowcopy", repetition: repetition, wall: speed * factor)
                    row.cpuUserSeconds = speed * factor
                    row.cpuSysSeconds = 0
                    row.build = build
                    rows.append(row)
                }
            }
        }
        return rows
    }

    @Test func tooFewPairsAreUndecidedNeverSame() {
        let report = RegressionGate().comparePaired(Self.rows(configurations: 3, pairs: 2, ratio: 1, sd: 0.02))
        #expect(report.outcome == .undecided && report.outcome.exitCode == 3)
        #expect(report.comparisons.allSatisfy { $0.verdict == .undecided })
        #expect(report.text.contains("undecided: 3 configuration(s)"))
        #expect(report.text.split(separator: "\n").filter { $0.hasPrefix("undecided: p") }.count == 3)
    }

    @Test func enoughPairsDecideBothWays() {
        let slower = RegressionGate().comparePaired(Self.rows(configurations: 5, pairs: 25, ratio: 1.10, sd: 0.02))
        #expect(slower.outcome == .regressed)
        #expect(slower.comparisons.filter { $0.verdict == .slower }.map(\.key.pipeline) == ["p0+rowcopy"])
        #expect(slower.comparisons.filter { $0.key.pipeline != "p0+rowcopy" }.allSatisfy { $0.verdict == .same })
        let unchanged = RegressionGate().comparePaired(Self.rows(configurations: 5, pairs: 25, ratio: 1, sd: 0.02))
        #expect(unchanged.outcome == .passed)
    }

    /// Sub-phases are judged and shown but do not hold the gate: a pipeline is gated on its total.
    @Test func onlyTheTopLevelPhaseIsGated() {
        var copy = Fixtures.row(phase: .calibration).configurationKey
        copy.kind = .calibrationCopy
        #expect(!RegressionGate.isGated(copy, among: [copy]), "the copy calibration is the machine's memcpy, not code")
        let key = Fixtures.row(phase: .total).configurationKey
        var extract = key
        extract.phase = .extract
        #expect(RegressionGate.isGated(key, among: [key, extract]))
        #expect(!RegressionGate.isGated(extract, among: [key, extract]))
        #expect(RegressionGate.isGated(extract, among: [extract]))
    }

    /// `bench --until-decided` adds pairs only to undecided configurations and stops when all
    /// are decided, at its pair limit or at its time budget.
    @Test func untilDecidedAsksForTheUndecidedOnly() {
        let rule = UntilDecided(gate: RegressionGate(), maxSeconds: 600, maxPairs: 50)
        let early = Self.rows(configurations: 4, pairs: 3, ratio: 1.10, sd: 0.02)
        var positions: [ConfigurationKey: Int] = [:]
        for row in early { positions[row.configurationKey] = Int(row.pipeline.dropFirst().prefix { $0.isNumber })! }
        #expect(rule.nextRound(rows: early, positionOfKey: positions, dropped: [], pairsSoFar: 3, elapsed: 1) == .more([0, 1, 2, 3]))
        #expect(rule.nextRound(rows: early, positionOfKey: positions, dropped: [2], pairsSoFar: 3, elapsed: 1) == .more([0, 1, 3]))
        let late = Self.rows(configurations: 4, pairs: 30, ratio: 1.0, sd: 0.02)
        #expect(rule.nextRound(rows: late, positionOfKey: positions, dropped: [], pairsSoFar: 30, elapsed: 1) == .decided)
        // Once one configuration is decided slower the gate fails whatever the rest show: stop.
        let slower = Self.rows(configurations: 4, pairs: 30, ratio: 1.10, sd: 0.02)
        guard case .stopped(let reason) = rule.nextRound(rows: slower, positionOfKey: positions, dropped: [], pairsSoFar: 30, elapsed: 1) else {
            Issue.record("a decided slowdown must stop the run")
            return
        }
        #expect(reason.contains("decided slower"))
        guard case .stopped = rule.nextRound(rows: early, positionOfKey: positions, dropped: [], pairsSoFar: 3, elapsed: 601) else {
            Issue.record("the time budget must stop the run")
            return
        }
        guard case .stopped = rule.nextRound(rows: early, positionOfKey: positions, dropped: [], pairsSoFar: 50, elapsed: 1) else {
            Issue.record("the pair limit must stop the run")
            return
        }
    }
}
