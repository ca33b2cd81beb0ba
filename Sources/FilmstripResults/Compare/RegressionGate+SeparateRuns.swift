import Foundation

extension RegressionGate {
    /// Two separate runs judged on every metric of this gate but CPU plus blocked time (CPU and
    /// wall time for the default time gate): each metric by ``compare(baseline:candidate:baselinePath:candidatePath:)``,
    /// merged so that each configuration's metrics sit side by side and a configuration is
    /// slower when either metric is decided slower. A worker waiting on a lock shows in wall
    /// time only, so CPU time alone would pass it.
    ///
    /// Separate runs are decided on whole intervals beyond the threshold, not by betting
    /// evidence, so there is no e-Benjamini–Hochberg family to share: each metric keeps its own
    /// interval at ``level``. Judging two metrics can at most double a configuration's chance of
    /// a false `slower`; the interval must lie wholly beyond `1 + threshold`, not merely above 1,
    /// which keeps that chance far below `1 − level` for unchanged code (docs/gate.md).
    package func compareRuns(baseline: [RawResultRow], candidate: [RawResultRow],
                            baselinePath: String = "baseline", candidatePath: String = "candidate") -> GateReport {
        // CPU plus blocked time belongs to the paired gate (each pair's threads on the same
        // machine state); separate runs, maybe days apart, keep the times a calibration divides.
        let judged = metrics.count > 1 ? metrics.filter { $0 != .cpuAndBlockedSeconds } : metrics
        guard judged.count > 1 else {
            return compare(baseline: baseline, candidate: candidate, baselinePath: baselinePath, candidatePath: candidatePath)
        }
        let reports = judged.map { metric in
            RegressionGate(metric: metric, threshold: threshold, level: level)
                .compare(baseline: baseline, candidate: candidate, baselinePath: baselinePath, candidatePath: candidatePath)
        }
        var merged = reports[0]
        merged.gate = self
        merged.gate.otherMetrics = Array(judged.dropFirst())
        // Bad input is bad input whichever metric found it (the first metric's reason is kept).
        if case .badInput = merged.outcome { return merged }
        for other in reports.dropFirst() {
            if case .badInput = other.outcome { continue }
            merged.comparisons += other.comparisons
            merged.warnings += other.warnings.filter { !merged.warnings.contains($0) }
        }
        merged.comparisons.sort { lhs, rhs in
            lhs.key != rhs.key ? lhs.key < rhs.key : judged.firstIndex(of: lhs.metric) ?? 0 < judged.firstIndex(of: rhs.metric) ?? 0
        }
        merged.outcome = .passed
        merged.decideOutcome(gateOnWork: merged.gatesOnWork)
        return merged
    }
}
