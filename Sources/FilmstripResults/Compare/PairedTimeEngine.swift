import Foundation

/// Times of a two-build run, pair by pair: each configuration's evidence per metric, the gated
/// configurations of every metric judged as one family (``RegressionGate/judgeFamilies(_:fixed:)``).
struct PairedTimeEngine: GateEngine {
    var gate: RegressionGate

    func judge(baseline: [RawResultRow], candidate: [RawResultRow], into report: inout GateReport) {
        let metrics = gate.metrics
        var entries = metrics.flatMap { judged -> [ConfigurationComparison] in
            gate.sequentialEntries(RegressionGate.pairs(gate.valuesByRepetition(baseline, metric: judged),
                                                        gate.valuesByRepetition(candidate, metric: judged)), metric: judged)
        }
        // On a loaded machine wall time is mostly other tenants' waiting: where the program's
        // own is judged, wall time is left to the configurations measured on a quiet one.
        if metrics.contains(.cpuAndBlockedSeconds), metrics.contains(.wallSeconds) {
            let loaded = RegressionGate.measuredUnderLoad(baseline + candidate).intersection(entries.filter { $0.metric == .wallSeconds }.map(\.key))
            if !loaded.isEmpty {
                entries.removeAll { $0.metric == .wallSeconds && loaded.contains($0.key) }
                report.warnings.append("wall time not judged for \(loaded.count) configuration(s) measured on a loaded machine (their runs waited for a core longer than \(Int(RegressionGate.loadedRunQueueShare * 100)) % of their CPU time): judged on CPU time and CPU plus blocked time")
            }
        }
        let failed = Set(report.failures.map(\.key))
        let collection = gate.pairCollection ?? PairCollection.of(entries.filter { $0.gated && !failed.contains($0.key) })
        report.pairCollection = collection
        // Each configuration's metrics side by side, in the order of ``RegressionGate/metrics``.
        report.comparisons = gate.judgeFamilies(entries, fixed: collection == .fixed).sorted { lhs, rhs in
            lhs.key != rhs.key ? lhs.key < rhs.key : metrics.firstIndex(of: lhs.metric)! < metrics.firstIndex(of: rhs.metric)!
        }
        report.familySize = report.comparisons.filter(\.gated).count
    }
}

extension RegressionGate {
    /// Pairs in the order they were measured (repetition order): the sequential evidence bets on them in turn.
    static func pairs(_ baseline: [ConfigurationKey: [Int: Double]], _ candidate: [ConfigurationKey: [Int: Double]])
        -> [(ConfigurationKey, [Double], [Double])] {
        Set(baseline.keys).intersection(candidate.keys).sorted().compactMap { key in
            let before = baseline[key]!, after = candidate[key]!
            let repetitions = before.keys.filter { after[$0] != nil }.sorted()
            guard !repetitions.isEmpty else { return nil }
            return (key, repetitions.map { before[$0]! }, repetitions.map { after[$0]! })
        }
    }

    /// One metric's estimates and e-values per configuration, not yet judged.
    func sequentialEntries(_ paired: [(ConfigurationKey, [Double], [Double])], metric: Metric) -> [ConfigurationComparison] {
        let allKeys = Set(paired.map(\.0))
        let up = log(1 + threshold), down = log(max(1e-9, 1 - threshold))
        return paired.map { key, before, after -> ConfigurationComparison in
            let logRatios = zip(before, after).map { log($1 / $0) }
            let interval = ShiftInterval.paired(logRatios, level: level)
            var entry = ConfigurationComparison(
                key: key, baselineMedian: Quantile.median(sorted: before.sorted()),
                candidateMedian: Quantile.median(sorted: after.sorted()), count: interval.count,
                ratio: exp(interval.estimate), ratioLow: exp(interval.low), ratioHigh: exp(interval.high),
                coverage: interval.coverage, verdict: .undecided)
            entry.evidenceGrew = BettingEvidence.eValue(logRatios, shift: 0, direction: 1, floor: up)
            entry.evidenceShrank = BettingEvidence.eValue(logRatios, shift: 0, direction: -1, floor: up)
            entry.evidenceWithin = min(BettingEvidence.eValue(logRatios, shift: up, direction: -1, floor: up),
                                       BettingEvidence.eValue(logRatios, shift: down, direction: 1, floor: up))
            let test = SignedRankTest(logRatios)
            entry.pGrew = test.pValueAbove(0)
            entry.pShrank = test.pValueBelow(0)
            entry.pWithin = max(test.pValueBelow(up), test.pValueAbove(down))
            entry.gated = Self.isGated(key, among: allKeys)
            entry.metric = metric
            return entry
        }
    }

    /// Verdicts for entries of ``sequentialEntries(_:metric:)``, of one metric or of several: each
    /// family judged at once by e-BH (the gated entries of every metric together, the sub-phases
    /// together). One family for both metrics keeps the gate's level for the pair: e-BH holds under
    /// any dependence (CPU and wall time of a pair move together), and with `2m` hypotheses a lone
    /// rejection needs `e ≥ 2m/α`, as a Bonferroni split `α/2` per metric would ask, but several
    /// rejections ask less of each.
    ///
    /// - `slower`: evidence that the ratio is above 1, and the Hodges–Lehmann estimate above `1 + t`;
    /// - `same`: evidence that the ratio is below `1 + t` and evidence that it is above `1 − t`;
    /// - `undecided`: neither yet — never read as `same`.
    /// So a gate of unchanged code fails with probability at most `1 − level` however many
    /// configurations it holds and however the pairs were collected.
    ///
    /// `fixed`: the pairs were all planned (``PairCollection/fixed``), so each family is judged at
    /// this n by the exact signed-rank p-values and Benjamini–Hochberg at `1 − level` instead, the
    /// same three questions with the same threshold rule.
    func judgeFamilies(_ entries: [ConfigurationComparison], fixed: Bool) -> [ConfigurationComparison] {
        var comparisons = entries
        let up = log(1 + threshold), down = log(max(1e-9, 1 - threshold))
        for gated in [true, false] {
            let members = comparisons.indices.filter { comparisons[$0].gated == gated }
            guard !members.isEmpty else { continue }
            let alpha = 1 - level
            let rejected = { (evidence: KeyPath<ConfigurationComparison, Double>, pValue: KeyPath<ConfigurationComparison, Double>) in
                fixed ? SignedRankTest.rejected(pValues: members.map { comparisons[$0][keyPath: pValue] }, alpha: alpha)
                    : BettingEvidence.rejected(eValues: members.map { comparisons[$0][keyPath: evidence] }, alpha: alpha)
            }
            let grew = rejected(\.evidenceGrew, \.pGrew)
            let shrank = rejected(\.evidenceShrank, \.pShrank)
            let within = rejected(\.evidenceWithin, \.pWithin)
            for (position, index) in members.enumerated() {
                let estimate = log(comparisons[index].ratio)
                let verdict: Verdict
                let lowerIsBetter = comparisons[index].metric.lowerIsBetter
                if grew.contains(position) && estimate > up {
                    verdict = lowerIsBetter ? .slower : .faster
                } else if shrank.contains(position) && estimate < down {
                    verdict = lowerIsBetter ? .faster : .slower
                } else if within.contains(position) {
                    verdict = .same
                } else {
                    verdict = .undecided
                }
                comparisons[index].verdict = verdict
            }
        }
        return comparisons
    }

}
