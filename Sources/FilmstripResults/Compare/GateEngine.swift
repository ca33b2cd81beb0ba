import Foundation

/// One statistical engine of the gate: how the configurations both sides measured become
/// comparisons with verdicts. ``RegressionGate`` checks its input, records what is not compared
/// (one side only, failures, work counters) and picks the engine by the data's form and metric;
/// an engine decides nothing else. Three engines:
/// - ``PairedTimeEngine``: times of a two-build run, pair by pair (anytime-valid evidence, or
///   the exact signed-rank test at a fixed n);
/// - ``InstructionCountEngine``: instruction counts, exactly, naming the functions behind a change;
/// - ``SeparateRunsEngine``: two runs' samples, each over its repetition's calibration, on whole intervals.
protocol GateEngine: Sendable {
    /// Judges the configurations `baseline` and `candidate` share into `report`'s comparisons,
    /// with the engine's own facts (pair collection, family size, span changes, calibration).
    func judge(baseline: [RawResultRow], candidate: [RawResultRow], into report: inout GateReport)
}
