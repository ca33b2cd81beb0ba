import FilmstripResults
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

    /// The point in words with three significant figures, `1.23 (1.2 … 1.26)`: the SVG charts' tooltips.
    var text: String { String(format: "%.3g (%.3g … %.3g)", median, low, high) }

    /// The three numbers as gnuplot data columns.
    var columns: String { "\(PlotText.number(median)) \(PlotText.number(low)) \(PlotText.number(high))" }

    /// What an absent bar looks like in a gnuplot data file: gnuplot skips NaN points.
    static let missingColumns = "NaN NaN NaN"
}
