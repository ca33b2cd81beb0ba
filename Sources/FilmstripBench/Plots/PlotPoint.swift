/// One bar or line point of a chart: the median of a configuration's samples and the
/// 95 % confidence interval of that median, all in the chart's display unit.
struct PlotPoint: Sendable, Hashable {
    var median: Double
    var low: Double
    var high: Double

    /// The median and its interval from `SampleStatistics`, so charts show the same
    /// numbers as the summary CSV; nil for no samples.
    init?(samples: [Double]) {
        guard let statistics = SampleStatistics(samples) else { return nil }
        median = statistics.median
        low = statistics.medianCI.low
        high = statistics.medianCI.high
    }

    init(median: Double, low: Double, high: Double) {
        self.median = median
        self.low = low
        self.high = high
    }

    /// Every value multiplied by `factor` (a unit change or a normalisation).
    func scaled(by factor: Double) -> PlotPoint {
        PlotPoint(median: median * factor, low: low * factor, high: high * factor)
    }

    /// The three numbers as gnuplot data columns.
    var columns: String { "\(PlotText.number(median)) \(PlotText.number(low)) \(PlotText.number(high))" }

    /// What an absent bar looks like in a gnuplot data file: gnuplot skips NaN points.
    static let missingColumns = "NaN NaN NaN"
}

/// Seconds shown in the unit that keeps a chart's numbers readable.
enum TimeUnit: String, Sendable {
    case seconds = "s"
    case milliseconds = "ms"

    /// Milliseconds when every value is below one second, so axes read 12.5 rather than 0.0125.
    init(forLargest seconds: Double) {
        self = seconds < 1 ? .milliseconds : .seconds
    }

    /// Multiply seconds by this to get the unit.
    var factor: Double { self == .seconds ? 1 : 1000 }
}
