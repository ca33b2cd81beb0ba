import FilmstripResults
import Foundation

/// A chart body for ratios: categories along x, one series of points with 95 % whiskers per
/// category offset side by side, on a log y axis with a line at 1. Reads at any range (a
/// 50 ms bar beside a 6 s bar vanishes; a ratio does not), and its width is capped.
struct CategoryPoints {
    var categories: [String]
    var series: [String]
    /// `values[category][series]`: the point, or nil where that pair was not measured.
    var values: [[PlotPoint?]]
    var title: String
    var xLabel: String
    var yLabel: String
    var keyTitle: String
    /// Extra commands before `plot`, e.g. a shaded band.
    var extra = ""

    /// The widest chart drawn: wider charts are shrunk by the README and the browser anyway.
    static let maximumWidth = 1200

    var data: String {
        var text = "# category, then per series (\(series.joined(separator: ", "))): median, CI low, CI high\n"
        for (index, category) in categories.enumerated() {
            let columns = values[index].map { $0?.columns ?? PlotPoint.missingColumns }
            text += ([PlotText.dataString(category)] + columns).joined(separator: " ") + "\n"
        }
        return text
    }

    /// The chart of `kind`, drawn from `STEM.dat`.
    func chart(_ kind: ChartKind, stem: String) -> Chart {
        Chart(kind: kind, stem: stem, title: title, data: data, body: body(stem: stem), width: width, height: height)
    }

    func body(stem: String) -> String {
        let spread = min(0.7, 0.12 * Double(series.count))
        let plots = series.enumerated().map { index, name in
            let offset = series.count == 1 ? 0 : -spread / 2 + spread * Double(index) / Double(series.count - 1)
            let first = 2 + 3 * index
            let tics = index == 0 ? ":xtic(1)" : ""
            let file = index == 0 ? PlotText.scriptString("\(stem).dat") : "''"
            return "\(file) using ($0 + \(PlotText.number(offset))):\(first):\(first + 1):\(first + 2)\(tics) with yerrorbars lt \(index + 1) pt 7 ps 0.9 lw 1.5 title \(PlotText.scriptString(name))"
        }
        return """
            set logscale y
            set autoscale yfix
            set offsets 0, 0, graph 0.05, graph 0.05
            set format y "%.3g"
            set ytics (\(yTicks.map(PlotText.number).joined(separator: ", ")))
            set grid ytics
            set xrange [-0.6:\(PlotText.number(Double(categories.count) - 0.4))]
            set xtics rotate by -35 left nomirror
            set key \(series.count > 1 ? "outside right top" : "off") title \(PlotText.scriptString(keyTitle))
            set title \(PlotText.scriptString(title))
            set xlabel \(PlotText.scriptString(xLabel))
            set ylabel \(PlotText.scriptString(yLabel))
            set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#444444" lw 1.5 back
            \(extra)
            plot \(plots.joined(separator: ", \\\n     "))
            """
    }

    /// Labelled ticks: 1-2-5 per decade over wide ranges, finer steps near 1 over narrow ones
    /// (gnuplot's log axis labels decades only).
    var yTicks: [Double] {
        let points = values.flatMap { $0.compactMap { $0 } }
        let low = min(1, points.map(\.low).filter { $0 > 0 }.min() ?? 1), high = max(1, points.map(\.high).max() ?? 1)
        let steps: [Double] = high / low < 4 ? [1, 1.05, 1.1, 1.2, 1.5, 2, 3] : [1, 2, 5]
        var ticks: [Double] = []
        for decade in -3...4 {
            for step in steps {
                let up = step * pow(10, Double(decade))
                ticks.append(up)
                if high / low < 4 && step > 1 && decade == 0 { ticks.append(1 / step) }
            }
        }
        return Set(ticks.filter { $0 >= low / 1.5 && $0 <= high * 1.5 }).sorted()
    }

    /// Wide enough for the legend beside a plot area that still holds the title (about 650 px
    /// at least), never past `maximumWidth`.
    var width: Int {
        let legend = series.count > 1 ? 8 * (series.map(\.count).max() ?? 0) + 80 : 0
        return min(Self.maximumWidth, max(900, max(650, 60 * categories.count + 150) + legend))
    }

    /// Taller when the rotated category labels are long.
    var height: Int { 520 + min(260, 6 * (categories.map(\.count).max() ?? 0)) }
}
