import FilmstripResults
import Foundation

/// The gate's chart, once: candidate / baseline of each comparison with its interval, changed
/// configurations first, then the largest moves, coloured by verdict, on a log axis around the
/// band the gate calls noise. The report draws it as SVG (``DotChart``) and `plot` as a gnuplot
/// script (``GateChart``), from this one data set, so the two pictures cannot disagree.
struct GateChartData {
    struct Row {
        var label: String
        var point: PlotPoint
        var verdict: Verdict
        /// Shown, not gated (a sub-phase or a reference).
        var gated: Bool
    }

    /// The verdicts in the order the charts list their series.
    static let verdicts: [Verdict] = [.slower, .faster, .undecided, .same]

    var rows: [Row]
    /// Comparisons in the report; ``rows`` holds the first `limit` of them.
    var total: Int
    var threshold: Double
    var level: Double
    var outcomeLine: String
    var paired: Bool

    init(_ report: GateReport, limit: Int) {
        let ordered = Self.ordered(report.comparisons)
        let label = ConfigurationLabeler(ordered.map(\.key)).fullLabel
        let severalMetrics = Set(ordered.map(\.metric)).count > 1
        rows = ordered.prefix(limit).map { comparison in
            Row(label: label(comparison.key) + (severalMetrics ? " · \(GateReport.metricName(comparison.metric))" : ""),
                point: PlotPoint(median: comparison.ratio, low: comparison.ratioLow, high: comparison.ratioHigh),
                verdict: comparison.verdict, gated: comparison.gated)
        }
        total = ordered.count
        threshold = report.gate.threshold
        level = report.gate.level
        outcomeLine = report.outcomeLine
        paired = report.form == .paired
    }

    /// Changed comparisons first, then by the size of the change, then by key (a stable order).
    static func ordered(_ comparisons: [ConfigurationComparison]) -> [ConfigurationComparison] {
        comparisons.sorted { lhs, rhs in
            ((lhs.verdict == .same ? 1 : 0), -abs(log(lhs.ratio)), lhs.key) < ((rhs.verdict == .same ? 1 : 0), -abs(log(rhs.ratio)), rhs.key)
        }
    }

    /// The noise band: ratios the gate calls the same.
    var band: ClosedRange<Double> { (1 / (1 + threshold))...(1 + threshold) }

    var title: String {
        "Candidate / baseline\(paired ? ", paired" : ""), \(Int(level * 100)) % intervals; shaded: the ±\(PlotText.number(threshold * 100)) % band called noise"
    }

    /// How many of the comparisons are drawn, when not all are.
    var truncationNote: String? {
        total > rows.count ? "the first \(rows.count) of \(total) comparisons (changed ones first)" : nil
    }
}
