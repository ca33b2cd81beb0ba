import Foundation
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

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
        for row in early { positions[row.configurationKey] = Int(row.pipeline.description.dropFirst().prefix { $0.isNumber })! }
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

    // MARK: CPU and wall time together (issue 37)

    /// Rows of a two-build run like ``rows(configurations:pairs:ratio:sd:seed:)``, with CPU time and
    /// wall time apart: the first configuration's candidate waits `wallRatio` longer at the same CPU
    /// time (a lock), and wall time has its own noise `wallSD` beside the CPU time's `sd`.
    static func twoMetricRows(configurations: Int, pairs: Int, wallRatio: Double, sd: Double, wallSD: Double, seed: UInt64 = 3) -> [RawResultRow] {
        var random = Random(state: seed)
        var rows: [RawResultRow] = []
        for repetition in 0..<pairs {
            for index in 0..<configurations {
                let speed = 0.2 * (1 + 0.3 * random.next())
                for build in [BuildRole.baseline, .candidate] {
                    let cpu = build == .baseline ? speed : speed * exp(random.noise(sd: sd))
                    let wait = build == .candidate && index == 0 ? wallRatio : 1
                    var row = Fixtures.row(pipeline: "p\(index)+rowcopy", repetition: repetition, wall: cpu * wait * exp(random.noise(sd: wallSD)))
                    row.cpuUserSeconds = cpu
                    row.cpuSysSeconds = 0
                    row.build = build
                    rows.append(row)
                }
            }
        }
        return rows
    }

    /// The lock of issue 37: 1.31× the wall time at 1.00× the CPU time. The CPU-time gate passes
    /// it; the default time gate calls it slower, naming the wall change and the CPU estimate.
    @Test func aWallOnlySlowdownIsCaught() {
        let rows = Self.twoMetricRows(configurations: 5, pairs: 40, wallRatio: 1.31, sd: 0.02, wallSD: 0.015)
        #expect(RegressionGate(metric: .cpuSeconds).comparePaired(rows).outcome == .passed)
        let report = RegressionGate.elapsedAndCPU().comparePaired(rows)
        #expect(report.outcome == .regressed)
        let locked = report.comparisons.filter { $0.key.pipeline == "p0+rowcopy" }
        #expect(locked.map(\.metric) == [.cpuSeconds, .wallSeconds] && locked.map(\.verdict) == [.same, .slower])
        #expect(report.comparisons.filter { $0.key.pipeline != "p0+rowcopy" }.allSatisfy { $0.verdict == .same }, "\(report.text)")
        #expect(report.familySize == 10 && report.slowerConfigurations.count == 1)
        let headline = WrappedText.joined(report.text).filter { $0.hasPrefix("slower: ") }
        // The decided metric first, each named with its verdict.
        #expect(headline.count == 1 && headline[0].contains("p0+rowcopy") && headline[0].contains(": wall +") && headline[0].contains(") slower, cpu ")
                && headline[0].hasSuffix(") same"), "\(headline)")
        #expect(report.text.contains("regressed: 1 configuration(s) slower"))
        #expect(report.markdown.contains("| metric |") && report.markdown.contains("| wall |"))
        // Every entry names its metric in JSON.
        #expect(report.json.contains("\"metric\" : \"wall_s\"") && report.json.contains("\"metrics\" : ["))
    }

    /// `bench --until-decided` adds pairs until both metrics of a configuration are decided: here
    /// CPU time is (within ±5 %) and the noisier wall time is not yet.
    @Test func untilDecidedWaitsForBothMetrics() {
        let rows = Self.twoMetricRows(configurations: 2, pairs: 12, wallRatio: 1, sd: 0.005, wallSD: 0.25)
        var positions: [ConfigurationKey: Int] = [:]
        for row in rows { positions[row.configurationKey] = Int(row.pipeline.description.dropFirst().prefix { $0.isNumber })! }
        let cpuOnly = UntilDecided(gate: RegressionGate(metric: .cpuSeconds), maxSeconds: 600)
        #expect(cpuOnly.nextRound(rows: rows, positionOfKey: positions, dropped: [], pairsSoFar: 12, elapsed: 1) == .decided)
        let both = UntilDecided(gate: .elapsedAndCPU(), maxSeconds: 600)
        #expect(both.nextRound(rows: rows, positionOfKey: positions, dropped: [], pairsSoFar: 12, elapsed: 1) == .more([0, 1]))
        let report = RegressionGate.elapsedAndCPU().comparePaired(rows)
        #expect(report.outcome == .undecided && report.undecidedConfigurations.count == 2 && report.undecided.allSatisfy { $0.metric == .wallSeconds })
        #expect(report.text.contains("undecided: 2 configuration(s)"))
    }

    /// The error rate with two metrics per configuration under `--until-decided`'s optional
    /// stopping: unchanged code, CPU-time log ratios and wall-time ones that share their noise
    /// and add the machine's own (heavy-tailed, twice as wide), looked at after every round; a
    /// configuration stops getting pairs once both its metrics are decided `same` (its wealth
    /// frozen there), and the gate fails wrongly if the e-BH over all 2m "grew" e-values rejects
    /// at any round. One family of 2m keeps the level (e-BH holds under any dependence): failed in
    /// at most about α of gates. The paths are computed once per series: stopping only truncates.
    @Test func aTwoMetricGateOfUnchangedCodeKeepsItsLevelUnderOptionalStopping() {
        var random = Random(state: 37)
        let gates = 200, configurations = 10, rounds = 60, alpha = 0.05
        let up = log(1.05), down = log(0.95)
        var failed = 0
        for _ in 0..<gates {
            var cpu: [[Double]] = [], wall: [[Double]] = []
            for _ in 0..<configurations {
                let shared = (0..<rounds).map { _ in random.noise(sd: 0.08) }
                cpu.append(shared)
                wall.append(shared.map { $0 + random.noise(sd: 0.15) })
            }
            let series = cpu + wall
            let grew = series.map { BettingEvidence.wealthPath($0, shift: 0, direction: 1, floor: up) }
            let within = series.map { x in
                zip(BettingEvidence.wealthPath(x, shift: up, direction: -1, floor: up),
                    BettingEvidence.wealthPath(x, shift: down, direction: 1, floor: up)).map { min($0, $1) }
            }
            // The round at which each configuration stopped getting pairs (its last pair's index).
            var stoppedAt = [Int?](repeating: nil, count: configurations)
            var wrong = false
            for round in 0..<rounds {
                let at = { (member: Int) in stoppedAt[member % configurations] ?? round }
                if !BettingEvidence.rejected(eValues: grew.indices.map { grew[$0][at($0)] }, alpha: alpha).isEmpty {
                    wrong = true
                    break
                }
                let same = BettingEvidence.rejected(eValues: within.indices.map { within[$0][at($0)] }, alpha: alpha)
                for index in 0..<configurations where stoppedAt[index] == nil && same.contains(index) && same.contains(index + configurations) {
                    stoppedAt[index] = round
                }
            }
            if wrong { failed += 1 }
        }
        #expect(Double(failed) / Double(gates) <= alpha, "failed in \(failed) of \(gates)")
    }
}
