import FilmstripResults
import Foundation

/// Box plots on a log axis, one row per configuration (or per run of one configuration):
/// the box spans the quartiles, the thick tick is the median, the whisker runs from the
/// fastest to the slowest repetition, and every repetition is a dot. A bench run has few
/// repetitions (often 3), so the dots matter more than the box: they show the spread a
/// median and interval hide, such as one slow repetition among fast ones.
struct BoxChart {
    struct Row {
        var label: String
        /// The repetitions, in the chart's unit (seconds, or a ratio to the group's fastest).
        var samples: [Double]
        var note: String
        /// Index into `SeriesStyle`; rows of one series share a colour.
        var series: Int = 0
        /// Drawn with a bold label: the default pipeline, so it is found in every chart.
        var emphasised = false
        /// The target of the label's link (`#config-…`), or nil for no link.
        var link: String?
    }

    var title: String
    var axisTitle: String
    var rows: [Row]
    /// A reference value drawn as a line (1 for ratios to the fastest).
    var reference: Double?
    var width = 1000.0
    /// The widest label column; narrower when the labels are shorter (``ChartLabel``).
    var labelWidth = 390.0
    var noteWidth = 170.0
    /// Writes the axis' tick values (`tickLabel` for ratios, `ReadableSeconds.text` for times).
    var tickFormat: (Double) -> String = tickLabel
    /// The axis' least span in decades (``LogAxis``).
    var minimumDecades = 0.3

    private static let rowHeight = 18.0, top = 34.0, bottom = 40.0

    /// The five numbers drawn for a row: lowest, quartiles, median, highest.
    struct Summary {
        var lowest, lowerQuartile, median, upperQuartile, highest: Double

        init?(_ samples: [Double]) {
            let sorted = samples.filter(\.isFinite).sorted()
            guard let first = sorted.first, let last = sorted.last else { return nil }
            lowest = first
            highest = last
            lowerQuartile = Quantile.type7(sorted: sorted, p: 0.25)
            median = Quantile.median(sorted: sorted)
            upperQuartile = Quantile.type7(sorted: sorted, p: 0.75)
        }
    }

    var svg: String {
        // The label column shrinks to the labels (at least a third of the widest) and the plot takes the rest.
        let labelColumn = ChartLabel.columnWidth(rows.map(\.label), minimum: min(labelWidth, 200), maximum: labelWidth)
        let plotStart = labelColumn, plotEnd = width - noteWidth
        let height = Self.top + Self.rowHeight * Double(rows.count) + Self.bottom
        let plotBottom = Self.top + Self.rowHeight * Double(rows.count)
        let frame = SVGFrame(width: width, height: height, title: title)
        var svg = frame.opening
        let values = rows.flatMap(\.samples) + (reference.map { [$0] } ?? [])
        guard let axis = LogAxis(covering: values, start: plotStart, end: plotEnd, minimumDecades: minimumDecades) else {
            return frame.empty
        }
        svg += axis.rowChartGrid(top: Self.top, bottom: plotBottom, reference: reference, title: axisTitle, format: tickFormat)
        for (index, row) in rows.enumerated() {
            let y = Self.top + Self.rowHeight * (Double(index) + 0.5)
            let colour = SeriesStyle.colour(row.series)
            if index % 2 == 1 {
                svg += "<rect x=\"0\" y=\"\(coordinate(y - Self.rowHeight / 2))\" width=\"\(Int(width))\" height=\"\(coordinate(Self.rowHeight))\" fill=\"#000\" fill-opacity=\"0.035\"/>"
            }
            let weight = row.emphasised ? " font-weight=\"bold\"" : ""
            let label = "<text x=\"\(coordinate(plotStart - 8))\" y=\"\(coordinate(y + 4))\" text-anchor=\"end\"\(weight)><title>\(HTMLText.escape(row.label))</title>\(HTMLText.escape(ChartLabel.fitted(row.label, width: labelColumn)))</text>"
            svg += row.link.map { "<a href=\"\(HTMLText.escape($0))\">\(label)</a>" } ?? label
            if let summary = Summary(row.samples) {
                let low = axis.position(summary.lowerQuartile), high = axis.position(summary.upperQuartile), middle = axis.position(summary.median)
                svg += "<line x1=\"\(coordinate(axis.position(summary.lowest)))\" y1=\"\(coordinate(y))\" x2=\"\(coordinate(axis.position(summary.highest)))\" y2=\"\(coordinate(y))\" stroke=\"\(colour)\"\(SeriesStyle.dash(row.series))/>"
                svg += "<rect x=\"\(coordinate(low))\" y=\"\(coordinate(y - 5))\" width=\"\(coordinate(max(high - low, 1)))\" height=\"10\" fill=\"\(colour)\" fill-opacity=\"0.25\" stroke=\"\(colour)\"/>"
                svg += "<line x1=\"\(coordinate(middle))\" y1=\"\(coordinate(y - 7))\" x2=\"\(coordinate(middle))\" y2=\"\(coordinate(y + 7))\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
                for sample in row.samples where sample.isFinite {
                    svg += "<circle cx=\"\(coordinate(axis.position(sample)))\" cy=\"\(coordinate(y))\" r=\"2\" fill=\"#222\"/>"
                }
            }
            svg += "<text x=\"\(coordinate(plotEnd + 8))\" y=\"\(coordinate(y + 4))\" class=\"note\">\(HTMLText.escape(row.note))</text>\n"
        }
        return svg + "</svg>\n"
    }
}
