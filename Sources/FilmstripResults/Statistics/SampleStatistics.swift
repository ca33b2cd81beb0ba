/// Summary statistics of one configuration's repeated measurements.
///
/// All values are in the unit of the samples (seconds for `wall_s`, bytes for
/// `peak_rss_bytes`, …). Robust statistics (median, MAD, order-statistic CI)
/// are the primary ones because timing samples are skewed and have outliers;
/// mean and standard deviation are kept for readers who expect them.
package struct SampleStatistics: Sendable, Hashable, Codable {
    /// Number of samples.
    package var count: Int
    package var min: Double
    package var max: Double
    package var median: Double
    /// Median absolute deviation from the median, unscaled.
    package var mad: Double
    /// `mad × 1.4826`: estimates the standard deviation for normal data, which
    /// makes it comparable with ``standardDeviation`` and is what modified
    /// z-scores divide by.
    package var scaledMAD: Double
    /// 90th percentile by the type-7 rule of ``Quantile``.
    package var p90: Double
    package var mean: Double
    /// Sample standard deviation (divisor `n − 1`); 0 for a single sample.
    package var standardDeviation: Double
    /// Confidence interval of the median; see ``MedianConfidenceInterval``.
    package var medianCI: MedianConfidenceInterval
    /// Number of samples whose modified z-score exceeds ``SampleWarning/outlierZScore``.
    package var outlierCount: Int
    /// Modified z-score of the first sample in run order; high when the first
    /// run paid for cold caches or page faults.
    package var firstSampleZScore: Double

    /// Consistency constant that turns a MAD into a normal standard deviation.
    package static let madScale = 1.4826

    /// Statistics of `samples` in run order, or `nil` when `samples` is empty.
    /// - Parameter level: confidence level of ``medianCI``, in `0..<1`.
    package init?(_ samples: [Double], level: Double = 0.95) {
        guard let first = samples.first else { return nil }
        let sorted = samples.sorted()
        let n = sorted.count
        count = n
        min = sorted[0]
        max = sorted[n - 1]
        median = Quantile.median(sorted: sorted)
        let center = median
        mad = Quantile.median(sorted: samples.map { abs($0 - center) }.sorted())
        scaledMAD = mad * Self.madScale
        p90 = Quantile.type7(sorted: sorted, p: 0.9)
        mean = samples.reduce(0, +) / Double(n)
        let meanValue = mean
        standardDeviation = n < 2
            ? 0
            : (samples.reduce(0) { $0 + ($1 - meanValue) * ($1 - meanValue) } / Double(n - 1)).squareRoot()
        medianCI = MedianConfidenceInterval(sorted: sorted, level: level)
        let spread = Self.zScoreScale(median: median, scaledMAD: scaledMAD)
        outlierCount = samples.filter { abs($0 - center) / spread > SampleWarning.outlierZScore }.count
        firstSampleZScore = (first - median) / spread
    }

    /// The divisor of modified z-scores: the scaled MAD, floored at 0.1 % of the
    /// median. Without the floor, a sample where most runs took the identical
    /// time (MAD = 0) would call every other run an infinite outlier.
    static func zScoreScale(median: Double, scaledMAD: Double) -> Double {
        let floor = 0.001 * abs(median)
        let scale = Swift.max(scaledMAD, floor)
        return scale > 0 ? scale : .leastNonzeroMagnitude
    }

    /// The hyperfine-style warnings for these statistics.
    /// - Parameter shortRunThreshold: a median below this (in the samples' unit)
    ///   is flagged as too short to time well; `nil` for metrics that are not times.
    package func warnings(shortRunThreshold: Double?) -> [SampleWarning] {
        var result: [SampleWarning] = []
        if count >= SampleWarning.minimumSamplesForFirstRunCheck && firstSampleZScore > SampleWarning.outlierZScore {
            result.append(.slowFirstRun)
        }
        if outlierCount > 0 {
            result.append(.outliers(count: outlierCount))
        }
        if let shortRunThreshold, median < shortRunThreshold {
            result.append(.tooShort)
        }
        if medianCI.isBelowNominalLevel {
            result.append(.fewSamples)
        }
        return result
    }
}
