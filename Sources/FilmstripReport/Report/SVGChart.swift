import FilmstripResults
import Foundation

/// Colours for series, told apart past eight: twelve hues that differ in lightness as well
/// as hue, then the same hues dashed.
enum SeriesStyle {
    static let colours = ["#1f77b4", "#e6550d", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                          "#e377c2", "#525252", "#bcbd22", "#17becf", "#fd8d3c", "#08306b"]

    static func colour(_ index: Int) -> String { colours[index % colours.count] }

    /// A chart's legend as HTML: each series' colour (a dot, or a line for a line chart) beside
    /// its label, then the grey `guide` line's label.
    static func legend(_ labels: [String], lines: Bool = false, guide: String? = nil) -> String {
        func item(_ swatch: String, _ label: String) -> String { "<li><svg width=\"28\" height=\"10\">\(swatch)</svg> \(HTMLText.escape(label))</li>" }
        let items = labels.enumerated().map { index, label in
            item(lines ? "<line x1=\"0\" y1=\"5\" x2=\"28\" y2=\"5\" stroke=\"\(colour(index))\" stroke-width=\"3\"\(dash(index))/>" : "<circle cx=\"7\" cy=\"5\" r=\"4\" fill=\"\(colour(index))\"/>", label)
        } + (guide.map { [item("<line x1=\"0\" y1=\"5\" x2=\"28\" y2=\"5\" stroke=\"#888\" stroke-width=\"2\"/>", $0)] } ?? [])
        return "<ul class=\"legend\">\(items.joined())</ul>\n"
    }

    /// A dash pattern for series beyond the twelve colours, so no two series look alike.
    static func dash(_ index: Int) -> String {
        switch index / colours.count {
        case 0: ""
        case 1: " stroke-dasharray=\"6 3\""
        default: " stroke-dasharray=\"2 2\""
        }
    }
}

/// The start of every chart: the `<svg>` element, sized and named for screen readers, and its
/// title in bold; a small chart (a configuration's history) has a smaller font and its title cut to fit.
struct SVGFrame {
    var width: Double
    var height: Double
    var title: String
    var small = false

    var opening: String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\(small ? " small" : "")\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\" font-family=\"sans-serif\" font-size=\"\(small ? 11 : 12)\">\n"
            + "<text x=\"\(small ? 4 : 8)\" y=\"\(small ? 16 : 20)\" class=\"title\" font-weight=\"bold\">\(HTMLText.escape(small ? HTMLText.shortened(title, to: 64) : title))</text>\n"
    }

    /// The whole chart when there is nothing to draw.
    var empty: String { opening + "<text x=\"\(small ? 4 : 8)\" y=\"\(small ? 40 : 44)\">no data</text></svg>\n" }
}

/// A logarithmic axis from `low` to `high` mapped onto `start…end` pixels, with 1-2-5 ticks.
struct LogAxis {
    let low: Double
    let high: Double
    let start: Double
    let end: Double

    /// An axis covering `values` (positive ones) with a little room at both ends, at least
    /// `minimumDecades` wide (0.3: a factor of 2, room for ratios around 1; less fits a few
    /// repetitions of one configuration, whose spread is a few percent).
    init?(covering values: [Double], start: Double, end: Double, minimumDecades: Double = 0.3) {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        guard let smallest = positive.min(), let largest = positive.max() else { return nil }
        let span = max(log10(largest / smallest), minimumDecades)
        low = smallest / pow(10, span * 0.06)
        high = largest * pow(10, span * 0.06)
        // Values from a results file can be anything finite: a denormal or 1e308 would put a
        // decade at ±infinity (a trap converting it to Int), and 600 decades are no chart.
        guard low > 0, high.isFinite, log10(high / low) <= 30 else { return nil }
        self.start = start
        self.end = end
    }

    func position(_ value: Double) -> Double {
        let clamped = min(max(value, low), high)
        return start + (end - start) * log10(clamped / low) / log10(high / low)
    }

    /// Tick values at 1, 2 and 5 per decade, thinned to 1 per decade on wide ranges.
    /// The grid of a chart whose rows run along this axis, between `top` and `bottom`: a
    /// line and a label per tick, the `reference` line, and the axis title under the plot.
    /// `format` writes a tick's value (`tickLabel`, or seconds with their unit).
    func rowChartGrid(top: Double, bottom: Double, reference: Double?, title: String, format: (Double) -> String = tickLabel) -> String {
        var svg = ""
        for tick in ticks {
            let x = position(tick)
            svg += "<line x1=\"\(coordinate(x))\" y1=\"\(coordinate(top))\" x2=\"\(coordinate(x))\" y2=\"\(coordinate(bottom))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(coordinate(x))\" y=\"\(coordinate(bottom + 14))\" text-anchor=\"middle\" class=\"tick\">\(HTMLText.escape(format(tick)))</text>\n"
        }
        if let reference {
            let x = position(reference)
            svg += "<line x1=\"\(coordinate(x))\" y1=\"\(coordinate(top))\" x2=\"\(coordinate(x))\" y2=\"\(coordinate(bottom))\" stroke=\"#444\" stroke-width=\"1.5\"/>\n"
        }
        return svg + "<text x=\"\(coordinate((start + end) / 2))\" y=\"\(coordinate(bottom + 32))\" text-anchor=\"middle\">\(HTMLText.escape(title))</text>\n"
    }

    /// At least three ticks where the range allows: 1, 2 and 5 per decade (1 per decade on
    /// wide ranges), else every digit, else round linear steps (a range of a few percent,
    /// such as one configuration's repetitions, gets 1.30, 1.35, 1.40).
    var ticks: [Double] {
        let firstDecade = Int(floor(log10(low))), lastDecade = Int(ceil(log10(high)))
        func ticks(_ steps: [Double]) -> [Double] {
            (firstDecade...lastDecade).flatMap { decade in steps.map { $0 * pow(10, Double(decade)) } }.filter { $0 >= low && $0 <= high }
        }
        if lastDecade - firstDecade > 3 { return ticks([1]) }
        for steps in [[1.0, 2, 5], Array(stride(from: 1.0, through: 9, by: 1))] {
            let values = ticks(steps)
            if values.count >= 3 { return values }
        }
        let linear = LinearAxis(from: low, upTo: high, start: start, end: end)
        return linear.ticks.filter { $0 >= low && $0 <= high }
    }
}

/// A linear axis from 0 (or `low`) to a round top, mapped onto `start…end` pixels.
struct LinearAxis {
    let low: Double
    let high: Double
    let start: Double
    let end: Double
    let step: Double

    /// From `smallest` (0 unless given, rounded down to a step) up to `largest` rounded up.
    init(from smallest: Double = 0, upTo largest: Double, start: Double, end: Double) {
        let raw = max(largest - smallest, 1e-12) / 5
        let magnitude = pow(10, floor(log10(raw)))
        step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw }!
        low = step * floor(smallest / step)
        high = max(step * ceil(max(largest, 1e-12) / step), low + step)
        self.start = start
        self.end = end
    }

    func position(_ value: Double) -> Double { start + (end - start) * (value - low) / (high - low) }

    var ticks: [Double] { stride(from: low, through: high + step / 2, by: step).map { $0 } }
}

/// Formats a tick value compactly: `0.5`, `2`, `1000`, `0.002`.
func tickLabel(_ value: Double) -> String { String(format: "%g", value) }

/// A dot plot on a log axis: one row per item, a dot at the median and a whisker over the
/// 95 % interval, the label on the left and a note on the right. Reads at any range (a
/// 50 ms bar next to a 6 s bar stays visible), and its width is fixed.
struct DotChart {
    struct Row {
        var label: String
        var point: PlotPoint
        var note: String
        /// Index into `SeriesStyle`; rows of one series share a colour.
        var series: Int = 0
    }

    var title: String
    var axisTitle: String
    var rows: [Row]
    /// A reference value drawn as a line (1 for ratios).
    var reference: Double?
    /// A shaded band, e.g. the gate's threshold 0.95…1.05.
    var band: ClosedRange<Double>?
    /// The axis never extends past this range: one 1000× outlier must not squash the other
    /// rows to a point. Rows outside it sit at the edge with a `›` or `‹` past it, whose
    /// tooltip (and the row's note) gives the value.
    var visibleRange: ClosedRange<Double>?

    private static let plotWidth = 440.0, noteWidth = 210.0, rowHeight = 18.0, top = 34.0, bottom = 40.0

    /// The label column fits the longest label (390 to 560 pixels); the chart grows with it.
    var labelWidth: Double { ChartLabel.columnWidth(rows.map(\.label), minimum: 390, maximum: 560) }
    var width: Double { labelWidth + Self.plotWidth + Self.noteWidth }

    var svg: String {
        let plotStart = labelWidth, plotEnd = width - Self.noteWidth
        let height = Self.top + Self.rowHeight * Double(rows.count) + Self.bottom
        var values = rows.flatMap { [$0.point.low, $0.point.high, $0.point.median] }
        if let reference { values.append(reference) }
        if let band { values += [band.lowerBound, band.upperBound] }
        if let visibleRange { values = values.map { min(max($0, visibleRange.lowerBound), visibleRange.upperBound) } }
        let frame = SVGFrame(width: width, height: height, title: title)
        var svg = frame.opening
        guard let axis = LogAxis(covering: values, start: plotStart, end: plotEnd) else {
            return frame.empty
        }
        let plotBottom = Self.top + Self.rowHeight * Double(rows.count)
        if let band {
            let x0 = axis.position(band.lowerBound), x1 = axis.position(band.upperBound)
            svg += "<rect x=\"\(coordinate(x0))\" y=\"\(coordinate(Self.top))\" width=\"\(coordinate(x1 - x0))\" height=\"\(coordinate(plotBottom - Self.top))\" fill=\"#fde7b0\"/>\n"
        }
        svg += axis.rowChartGrid(top: Self.top, bottom: plotBottom, reference: reference, title: axisTitle)
        for (index, row) in rows.enumerated() {
            let y = Self.top + Self.rowHeight * (Double(index) + 0.5)
            let colour = SeriesStyle.colour(row.series)
            if index % 2 == 1 {
                svg += "<rect x=\"0\" y=\"\(coordinate(y - Self.rowHeight / 2))\" width=\"\(Int(width))\" height=\"\(coordinate(Self.rowHeight))\" fill=\"#000\" fill-opacity=\"0.035\"/>"
            }
            // Labels and notes keep 16 pixels from the plot: room for the off-scale marks beside a dot at the edge.
            svg += "<text x=\"\(coordinate(plotStart - 16))\" y=\"\(coordinate(y + 4))\" text-anchor=\"end\"><title>\(HTMLText.escape(row.label))</title>\(HTMLText.escape(ChartLabel.fitted(row.label, width: labelWidth)))</text>"
            svg += "<line x1=\"\(coordinate(axis.position(row.point.low)))\" y1=\"\(coordinate(y))\" x2=\"\(coordinate(axis.position(row.point.high)))\" y2=\"\(coordinate(y))\" stroke=\"\(colour)\" stroke-width=\"2\"\(SeriesStyle.dash(row.series))/>"
            svg += "<circle cx=\"\(coordinate(axis.position(row.point.median)))\" cy=\"\(coordinate(y))\" r=\"4\" fill=\"\(colour)\"><title>\(HTMLText.escape(row.label)): \(row.point.text)</title></circle>"
            for (beyond, x, anchor, mark) in [(row.point.high > axis.high, plotEnd + 6, "start", "›"), (row.point.low < axis.low, plotStart - 6, "end", "‹")] where beyond {
                svg += "<text x=\"\(coordinate(x))\" y=\"\(coordinate(y + 5))\" text-anchor=\"\(anchor)\" font-weight=\"bold\" fill=\"\(colour)\" class=\"offscale\"><title>beyond the axis: \(row.point.text)</title>\(mark)</text>"
            }
            svg += "<text x=\"\(coordinate(plotEnd + 16))\" y=\"\(coordinate(y + 4))\" class=\"note\">\(HTMLText.escape(row.note))</text>\n"
        }
        return svg + "</svg>\n"
    }
}

/// Lines over a log x axis (thumbnail count, workers), one per series, with whiskers at the
/// 95 % interval; the legend is HTML below the chart, so long labels never squeeze the plot.
struct LineChart {
    struct Series {
        var label: String
        /// x, then the point at x.
        var points: [(Double, PlotPoint)]
        /// A dashed line in the series' colour: the bound the series is measured against (x, y).
        var bound: [(Double, Double)] = []
    }

    var title: String
    var xTitle: String
    var yTitle: String
    var series: [Series]
    /// Extra unlabelled-in-plot lines (the ideal line): x, y pairs.
    var guide: (label: String, points: [(Double, Double)])?
    /// Pixels between neighbouring series along x, centred on the true x: lines that lie on
    /// top of each other (equal values) are then seen side by side. 0 draws them exactly.
    var dodge = 0.0
    /// The y axis starts at 0; false fits it to the data, so that lines a few percent apart
    /// are seen apart (the axis title should say so).
    var startsAtZero = true

    static let width = 1000.0, height = 420.0
    private static let left = 80.0, right = 30.0, top = 34.0, bottom = 50.0

    var svg: String {
        let frame = SVGFrame(width: Self.width, height: Self.height, title: title)
        var svg = frame.opening
        let xs = series.flatMap { $0.points.map(\.0) } + (guide?.points.map(\.0) ?? [])
        let highest = (series.flatMap { $0.points.map(\.1.high) + $0.bound.map(\.1) } + (guide?.points.map(\.1) ?? [])).max() ?? 0
        guard let xAxis = LogAxis(covering: xs, start: Self.left, end: Self.width - Self.right), highest > 0 else {
            return frame.empty
        }
        let lowest = startsAtZero ? 0 : max(0, (series.flatMap { $0.points.map(\.1.low) } + (guide?.points.map(\.1) ?? [])).min() ?? 0)
        let yAxis = LinearAxis(from: lowest * (startsAtZero ? 1 : 0.97), upTo: highest * (startsAtZero ? 1.05 : 1.03), start: Self.height - Self.bottom, end: Self.top)
        for tick in Set(xs).sorted() {
            let x = xAxis.position(tick)
            svg += "<line x1=\"\(coordinate(x))\" y1=\"\(coordinate(Self.top))\" x2=\"\(coordinate(x))\" y2=\"\(coordinate(Self.height - Self.bottom))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(coordinate(x))\" y=\"\(coordinate(Self.height - Self.bottom + 14))\" text-anchor=\"middle\" class=\"tick\">\(tickLabel(tick))</text>\n"
        }
        for tick in yAxis.ticks {
            let y = yAxis.position(tick)
            svg += "<line x1=\"\(coordinate(Self.left))\" y1=\"\(coordinate(y))\" x2=\"\(coordinate(Self.width - Self.right))\" y2=\"\(coordinate(y))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(coordinate(Self.left - 6))\" y=\"\(coordinate(y + 4))\" text-anchor=\"end\" class=\"tick\">\(tickLabel(tick))</text>\n"
        }
        svg += "<text x=\"\(coordinate((Self.left + Self.width - Self.right) / 2))\" y=\"\(coordinate(Self.height - 12))\" text-anchor=\"middle\">\(HTMLText.escape(xTitle))</text>\n"
        svg += "<text transform=\"translate(16 \(coordinate((Self.top + Self.height - Self.bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(HTMLText.escape(yTitle))</text>\n"
        if let guide {
            let path = guide.points.map { "\(coordinate(xAxis.position($0.0))),\(coordinate(yAxis.position($0.1)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"#888\" stroke-width=\"1.5\"/>\n"
        }
        for (index, line) in series.enumerated() {
            let colour = SeriesStyle.colour(index)
            let dash = SeriesStyle.dash(index)
            let shift = dodge * (Double(index) - Double(series.count - 1) / 2)
            if !line.bound.isEmpty {
                let bound = line.bound.map { "\(coordinate(xAxis.position($0.0) + shift)),\(coordinate(yAxis.position($0.1)))" }.joined(separator: " ")
                svg += "<polyline points=\"\(bound)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1\" stroke-dasharray=\"5 3\"/>"
            }
            let path = line.points.map { "\(coordinate(xAxis.position($0.0) + shift)),\(coordinate(yAxis.position($0.1.median)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash)><title>\(HTMLText.escape(line.label))</title></polyline>"
            for (x, point) in line.points {
                let px = xAxis.position(x) + shift
                svg += "<line x1=\"\(coordinate(px))\" y1=\"\(coordinate(yAxis.position(point.low)))\" x2=\"\(coordinate(px))\" y2=\"\(coordinate(yAxis.position(point.high)))\" stroke=\"\(colour)\"/>"
                svg += "<circle cx=\"\(coordinate(px))\" cy=\"\(coordinate(yAxis.position(point.median)))\" r=\"3\" fill=\"\(colour)\"><title>\(HTMLText.escape(line.label)), \(tickLabel(x)): \(point.text)</title></circle>"
            }
            svg += "\n"
        }
        return svg + "</svg>\n"
    }

    /// The legend as HTML: a swatch per series, then the guide.
    var legend: String { SeriesStyle.legend(series.map(\.label), lines: true, guide: guide?.label) }
}

/// Labels of row charts: a column as wide as the labels need, within limits, and a label too
/// long for it cut in the middle, so that its start (the pipeline) and its end (count, mode,
/// phase: what tells neighbouring rows apart) both stay.
enum ChartLabel {
    /// About 6.4 pixels a character at 12 px sans-serif, and 16 pixels of margin.
    static let characterWidth = 6.4, margin = 16.0

    static func columnWidth(_ labels: [String], minimum: Double, maximum: Double) -> Double {
        let longest = Double(labels.map(\.count).max() ?? 0)
        return min(maximum, max(minimum, (longest * characterWidth + margin).rounded(.up)))
    }

    static func fitted(_ label: String, width: Double) -> String {
        let limit = max(8, Int((width - margin) / characterWidth))
        guard label.count > limit else { return label }
        let head = (limit - 1) * 2 / 5, tail = limit - 1 - head
        return String(label.prefix(head)) + "…" + String(label.suffix(tail))
    }
}

/// A coordinate with one decimal: enough for a pixel, short in the page.
func coordinate(_ value: Double) -> String { String(format: "%.1f", value) }
