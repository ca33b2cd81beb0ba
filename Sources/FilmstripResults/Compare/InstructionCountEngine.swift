import Foundation

/// Instruction counts of a two-build run: decided exactly per configuration and phase, a
/// change naming the functions whose own counts moved most, and the busiest thread's span beside.
struct InstructionCountEngine: GateEngine {
    var gate: RegressionGate
    /// The folder the rows' `profile` paths are relative to (the results file's).
    var profileRoot: String?

    func judge(baseline: [RawResultRow], candidate: [RawResultRow], into report: inout GateReport) {
        let paired = RegressionGate.pairs(gate.valuesByRepetition(baseline, metric: .instructions),
                                          gate.valuesByRepetition(candidate, metric: .instructions))
        report.comparisons = gate.instructionComparisons(paired, baselineRows: baseline, candidateRows: candidate, profileRoot: profileRoot)
        report.spanChanges = gate.spanChanges(baseline: baseline, candidate: candidate)
    }
}

extension RegressionGate {
    /// Instruction counts: one run per build is a measurement, not a sample, so each
    /// configuration and phase is decided at once (the threshold is set above the counts' A/A
    /// spread, docs/gate.md), and a change names the functions whose own counts moved most.
    func instructionComparisons(_ paired: [(ConfigurationKey, [Double], [Double])], baselineRows: [RawResultRow],
                                candidateRows: [RawResultRow], profileRoot: String?) -> [ConfigurationComparison] {
        let profiles = InstructionAttribution.ProfileIndex(baseline: baselineRows, candidate: candidateRows, root: profileRoot)
        return paired.map { key, before, after in
            let baselineMedian = Quantile.median(sorted: before.sorted()), candidateMedian = Quantile.median(sorted: after.sorted())
            let ratio = candidateMedian / baselineMedian
            let large = abs(candidateMedian - baselineMedian) >= Self.instructionFloor
            var entry = ConfigurationComparison(
                key: key, baselineMedian: baselineMedian, candidateMedian: candidateMedian, count: before.count,
                ratio: ratio, ratioLow: ratio, ratioHigh: ratio, coverage: 1,
                verdict: !large ? .same : ratio > 1 + threshold ? .slower : ratio < 1 - threshold ? .faster : .same)
            entry.gated = !key.kind.isReference
            entry.metric = metric
            if entry.verdict != .same {
                entry.attribution = profiles.attribution(for: key, baselineTotal: baselineMedian, grew: entry.verdict == .slower)
            }
            return entry
        }
    }

}
