import FilmstripResults
import Foundation

/// A configuration's median per run, oldest run on the left, each with its 95 % interval: the
/// small history chart in a configuration's section. The y axis is logarithmic and fitted to
/// the points, so a 5 % step is visible; the latest median is written beside its point, and
/// steps found by the trend analysis are marked where they begin.
struct RunMedianChart {
    struct Point {
        /// Under the point: the run's short commit.
        var label: String
        var point: PlotPoint
    }

    var title: String
    var points: [Point]
    /// Indexes into `points` of the first run after each step, and whether it got slower.
    var steps: [(index: Int, slower: Bool)] = []

    static let width = 440.0, height = 170.0
    private static let left = 74.0, right = 70.0, top = 26.0, bottom = 40.0

    var svg: String {
        let frame = SVGFrame(width: Self.width, height: Self.height, title: title, small: true)
        var svg = frame.opening
        let values = points.flatMap { [$0.point.low, $0.point.median, $0.point.high] }
        let plotBottom = Self.height - Self.bottom
        guard !points.isEmpty, let axis = LogAxis(covering: values, start: plotBottom, end: Self.top) else {
            return frame.empty
        }
        let spacing = (Self.width - Self.left - Self.right) / Double(max(points.count - 1, 1))
        func x(_ index: Int) -> Double { Self.left + spacing * Double(index) }
        for tick in axis.ticks {
            let y = axis.position(tick)
            svg += "<line x1=\"\(coordinate(Self.left))\" y1=\"\(coordinate(y))\" x2=\"\(coordinate(Self.width - Self.right))\" y2=\"\(coordinate(y))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(coordinate(Self.left - 4))\" y=\"\(coordinate(y + 4))\" text-anchor=\"end\" class=\"tick\">\(ReadableSeconds.text(tick))</text>\n"
        }
        for step in steps where points.indices.contains(step.index) && step.index > 0 {
            let between = (x(step.index - 1) + x(step.index)) / 2
            svg += "<line x1=\"\(coordinate(between))\" y1=\"\(coordinate(Self.top))\" x2=\"\(coordinate(between))\" y2=\"\(coordinate(plotBottom))\" stroke=\"\(step.slower ? "#b00" : "#070")\" stroke-dasharray=\"4 3\"/>\n"
        }
        let every = max(1, (points.count + 7) / 8)
        for (index, item) in points.enumerated() where index % every == 0 || index == points.count - 1 {
            svg += "<text x=\"\(coordinate(x(index)))\" y=\"\(coordinate(plotBottom + 14))\" text-anchor=\"middle\" class=\"tick\">\(HTMLText.escape(HTMLText.shortened(item.label, to: 10)))</text>"
        }
        svg += "<text x=\"\(coordinate((Self.left + Self.width - Self.right) / 2))\" y=\"\(coordinate(Self.height - 6))\" text-anchor=\"middle\">run (oldest left): median wall time and 95 % CI</text>\n"
        let path = points.indices.map { "\(coordinate(x($0))),\(coordinate(axis.position(points[$0].point.median)))" }.joined(separator: " ")
        svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(SeriesStyle.colour(0))\" stroke-width=\"2\"/>"
        for (index, item) in points.enumerated() {
            svg += "<line x1=\"\(coordinate(x(index)))\" y1=\"\(coordinate(axis.position(item.point.low)))\" x2=\"\(coordinate(x(index)))\" y2=\"\(coordinate(axis.position(item.point.high)))\" stroke=\"\(SeriesStyle.colour(0))\"/>"
            svg += "<circle cx=\"\(coordinate(x(index)))\" cy=\"\(coordinate(axis.position(item.point.median)))\" r=\"3\" fill=\"\(SeriesStyle.colour(0))\"/>"
        }
        if let last = points.last {
            svg += "<text x=\"\(coordinate(x(points.count - 1) + 6))\" y=\"\(coordinate(axis.position(last.point.median) + 4))\" class=\"note\">\(ReadableSeconds.text(last.point.median))</text>"
        }
        return svg + "\n</svg>\n"
    }
}
