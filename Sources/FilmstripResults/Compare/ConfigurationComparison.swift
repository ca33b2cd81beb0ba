import Foundation

/// The change of one configuration between baseline and candidate.
package struct ConfigurationComparison: Sendable {
    package var key: ConfigurationKey
    /// What was compared: the gate's metric, or one of the others (``RegressionGate/otherMetrics``).
    package var metric: Metric = .cpuSeconds
    /// Median of the baseline samples, in the metric's unit or, normalised, in calibrations.
    package var baselineMedian: Double
    /// Median of the candidate samples, in the same unit as ``baselineMedian``.
    package var candidateMedian: Double
    /// Pairs (paired) or the smaller run's sample count.
    package var count: Int
    /// Estimated candidate / baseline ratio: 1.10 means 10 % larger.
    package var ratio: Double
    /// The ratio's interval at the gate's level, the one the verdict is decided on (instruction
    /// counts: the ratio itself, a measurement).
    package var ratioLow: Double
    package var ratioHigh: Double
    /// Exact coverage of the interval.
    package var coverage: Double
    package var verdict: Verdict
    /// The calibration the samples were divided by; nil when not normalised.
    package var normalisedBy: CalibrationKind?
    /// For parallel pipelines in a normalised comparison: the ratio of raw times with its interval.
    package var unnormalised: (ratio: Double, low: Double, high: Double)?
    /// Paired time metrics: the e-values (``BettingEvidence``) that the ratio is above 1, below
    /// 1, and within the threshold; 1 (no evidence) elsewhere.
    package var evidenceGrew = 1.0
    package var evidenceShrank = 1.0
    package var evidenceWithin = 1.0
    /// Paired time metrics: the exact one-sided signed-rank p-values (``SignedRankTest``) of the
    /// same three questions, which a run with a fixed number of pairs is judged on; 1 elsewhere.
    package var pGrew = 1.0
    package var pShrank = 1.0
    package var pWithin = 1.0
    /// Whether the verdict counts towards the gate's outcome (a time gate judges each
    /// configuration's top-level phase; sub-phases are shown only).
    package var gated = true
    /// Instruction metric: the functions whose own counts moved most, largest first.
    package var attribution: [FunctionChange] = []
}

/// How the pairs of a two-build time run came to be, which decides how they may be judged.
package enum PairCollection: String, Sendable, Hashable {
    /// Every pair was planned (`bench --no-until-decided`, or `--until-decided` stopping at its
    /// first look): judged at that n by exact signed-rank tests (``SignedRankTest``).
    case fixed = "fixed_n"
    /// Pairs were added to the undecided configurations after looking (`bench --until-decided`):
    /// only anytime-valid evidence (``BettingEvidence``) keeps its level under such stopping.
    case addedByLooking = "added_by_looking"

    /// Read from the pairs when nothing records it: `--until-decided` adds pairs only to the
    /// configurations still undecided, so gated configurations with different numbers of pairs
    /// had pairs added by looking; equal numbers are a plan that ran as planned (or a first look
    /// that stopped it, where the fixed-n verdict at that n keeps its level too).
    static func of(_ gatedEntries: [ConfigurationComparison]) -> PairCollection {
        Set(gatedEntries.map(\.count)).count <= 1 ? .fixed : .addedByLooking
    }
}
