/// Compares a candidate run with a baseline run, configuration by
/// configuration, and decides whether anything got slower.
///
/// Method, per configuration key present in both runs (status `ok` rows only):
/// - The change is the ratio of medians `r = median(candidate) / median(baseline)`.
/// - Its confidence interval is a percentile bootstrap: both sample sets are
///   resampled with replacement ``bootstrapResamples`` times with a fixed
///   ``seed`` (so the same files always give the same answer), and the
///   interval is the `(1 ± level) / 2` type-7 quantiles of the resampled ratios.
///   A bootstrap, because a ratio of medians has no simple closed-form interval
///   and timing samples are not normal.
/// - With threshold `t`, the noise band is `[1 − t, 1 + t]`. `slower` needs
///   `r > 1 + t` and the whole interval above `1 + t`; `faster` needs `r < 1 − t`
///   and the whole interval below `1 − t` (mirrored for throughput); anything
///   else is `same`. So a change is only called when it is both large and
///   clearly not noise.
///
/// Different machines: when the two runs' machine ids differ, absolute times
/// say more about the machines than about the code. Each run's samples are
/// then divided by the median of that run's `calibration` rows (the
/// calibration configurations present in both runs, pooled), and the ratio
/// compares those normalized values; the calibration samples are resampled in
/// the bootstrap too. Without shared calibration rows the runs cannot be
/// compared and the outcome is bad input.
public struct RegressionGate: Sendable {
    /// The metric compared.
    public var metric: Metric
    /// Relative change treated as noise, e.g. 0.05 for 5 %.
    public var threshold: Double
    /// Confidence level of the interval of the ratio, in `0..<1`.
    public var level: Double
    public var bootstrapResamples: Int
    public var seed: UInt64

    public init(
        metric: Metric = .wallSeconds, threshold: Double = 0.05, level: Double = 0.95,
        bootstrapResamples: Int = 2000, seed: UInt64 = 0x5eed
    ) {
        self.metric = metric
        self.threshold = threshold
        self.level = level
        self.bootstrapResamples = bootstrapResamples
        self.seed = seed
    }

    /// Compares the raw results files at two paths; unreadable files and schema
    /// mismatches become ``GateOutcome/badInput(_:)``.
    public func compareFiles(baselinePath: String, candidatePath: String) -> GateReport {
        do {
            let baseline = try ResultsFileReader.read(RawResultRow.self, from: baselinePath)
            let candidate = try ResultsFileReader.read(RawResultRow.self, from: candidatePath)
            return compare(baseline: baseline, candidate: candidate)
        } catch {
            return GateReport(gate: self, outcome: .badInput(error.description))
        }
    }

    /// Compares two runs' raw rows.
    public func compare(baseline: [RawResultRow], candidate: [RawResultRow]) -> GateReport {
        var report = GateReport(gate: self, outcome: .passed)
        let baselineSamples = samplesByConfiguration(baseline)
        let candidateSamples = samplesByConfiguration(candidate)

        let baselineBuilds = Set(baseline.map(\.run.machine.buildConfiguration))
        let candidateBuilds = Set(candidate.map(\.run.machine.buildConfiguration))
        if baselineBuilds != candidateBuilds {
            report.warnings.append("build configurations differ: baseline \(baselineBuilds.sorted().joined(separator: ",")), candidate \(candidateBuilds.sorted().joined(separator: ","))")
        }

        let baselineMachines = Set(baseline.map(\.run.machine.id))
        let candidateMachines = Set(candidate.map(\.run.machine.id))
        var calibration: (baseline: [Double], candidate: [Double])?
        if baselineMachines != candidateMachines {
            let sharedCalibration = Set(baselineSamples.keys).intersection(candidateSamples.keys).filter { $0.phase == .calibration }
            guard !sharedCalibration.isEmpty else {
                report.outcome = .badInput("runs come from different machines (baseline \(baselineMachines.sorted().joined(separator: ",")), candidate \(candidateMachines.sorted().joined(separator: ","))) and share no calibration rows")
                return report
            }
            report.warnings.append("runs come from different machines (baseline \(baselineMachines.sorted().joined(separator: ",")), candidate \(candidateMachines.sorted().joined(separator: ","))): comparing ratios to the calibration phase, not absolute values")
            report.normalizedToCalibration = true
            calibration = (
                sharedCalibration.sorted().flatMap { baselineSamples[$0]! },
                sharedCalibration.sorted().flatMap { candidateSamples[$0]! }
            )
        }

        let shared = Set(baselineSamples.keys).intersection(candidateSamples.keys)
            .filter { calibration == nil || $0.phase != .calibration }
        report.onlyInBaseline = Set(baselineSamples.keys).subtracting(candidateSamples.keys).sorted()
        report.onlyInCandidate = Set(candidateSamples.keys).subtracting(baselineSamples.keys).sorted()
        guard !shared.isEmpty else {
            report.outcome = .badInput("the runs have no configuration with \(metric.rawValue) samples in common")
            return report
        }

        var generator = SeededGenerator(seed: seed)
        for key in shared.sorted() {
            let comparison = compareConfiguration(
                key: key, baseline: baselineSamples[key]!, candidate: candidateSamples[key]!,
                calibration: calibration, generator: &generator
            )
            if min(comparison.baselineCount, comparison.candidateCount) < 6 {
                report.warnings.append("\(key): fewer than 6 samples in a run; its interval is unreliable")
            }
            report.comparisons.append(comparison)
        }
        if report.comparisons.contains(where: { $0.verdict == .slower }) {
            report.outcome = .regressed
        }
        return report
    }

    /// The metric's samples of each configuration, `ok` rows only, in repetition order.
    private func samplesByConfiguration(_ rows: [RawResultRow]) -> [ConfigurationKey: [Double]] {
        Dictionary(grouping: rows.filter { $0.status == .ok }, by: \.configurationKey)
            .mapValues { $0.sorted { $0.repetition < $1.repetition }.compactMap(metric.value(in:)) }
            .filter { !$0.value.isEmpty }
    }

    private func compareConfiguration(
        key: ConfigurationKey, baseline: [Double], candidate: [Double],
        calibration: (baseline: [Double], candidate: [Double])?, generator: inout SeededGenerator
    ) -> ConfigurationComparison {
        let baselineCalibration = calibration.map { median($0.baseline) } ?? 1
        let candidateCalibration = calibration.map { median($0.candidate) } ?? 1
        let baselineValue = median(baseline) / baselineCalibration
        let candidateValue = median(candidate) / candidateCalibration
        let ratio = candidateValue / baselineValue

        var ratios: [Double] = []
        ratios.reserveCapacity(bootstrapResamples)
        for _ in 0..<bootstrapResamples {
            var resampled = median(resample(candidate, &generator)) / median(resample(baseline, &generator))
            if let calibration {
                resampled *= median(resample(calibration.baseline, &generator)) / median(resample(calibration.candidate, &generator))
            }
            ratios.append(resampled)
        }
        ratios.sort()
        let tail = (1 - level) / 2
        let low = ratios.isEmpty ? ratio : Quantile.type7(sorted: ratios, p: tail)
        let high = ratios.isEmpty ? ratio : Quantile.type7(sorted: ratios, p: 1 - tail)

        return ConfigurationComparison(
            key: key, baselineMedian: baselineValue, candidateMedian: candidateValue,
            baselineCount: baseline.count, candidateCount: candidate.count,
            ratio: ratio, ratioLow: low, ratioHigh: high,
            verdict: verdict(ratio: ratio, low: low, high: high)
        )
    }

    private func verdict(ratio: Double, low: Double, high: Double) -> Verdict {
        let grew = ratio > 1 + threshold && low > 1 + threshold
        let shrank = ratio < 1 - threshold && high < 1 - threshold
        switch (grew, shrank) {
        case (true, _): return metric.lowerIsBetter ? .slower : .faster
        case (_, true): return metric.lowerIsBetter ? .faster : .slower
        default: return .same
        }
    }

    private func median(_ samples: [Double]) -> Double {
        Quantile.median(sorted: samples.sorted())
    }

    private func resample(_ samples: [Double], _ generator: inout SeededGenerator) -> [Double] {
        (0..<samples.count).map { _ in samples[Int.random(in: 0..<samples.count, using: &generator)] }
    }
}

/// The change of one configuration between baseline and candidate.
public struct ConfigurationComparison: Sendable, Hashable {
    public var key: ConfigurationKey
    /// Median of the baseline, in the metric's unit, or as a multiple of the
    /// baseline's calibration median when the report is normalized.
    public var baselineMedian: Double
    /// Median of the candidate, in the same unit as ``baselineMedian``.
    public var candidateMedian: Double
    public var baselineCount: Int
    public var candidateCount: Int
    /// `candidateMedian / baselineMedian`: 1.10 means 10 % larger.
    public var ratio: Double
    /// Lower bound of the bootstrap interval of ``ratio``.
    public var ratioLow: Double
    /// Upper bound of the bootstrap interval of ``ratio``.
    public var ratioHigh: Double
    public var verdict: Verdict
}
