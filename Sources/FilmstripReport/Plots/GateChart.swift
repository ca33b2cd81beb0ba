import FilmstripResults
import Foundation

/// Chart 8: the regression gate's verdicts on a two-build run (`bench --baseline-rev`):
/// candidate / baseline per configuration with its interval, the threshold band shaded. The
/// numbers are the judge's (``Judge``), the same as `compare` prints and `report` shows. Changed
/// configurations first, then the largest changes, at most `limit`. One chart per gate (a CI
/// run's instruction and time files: `gate`, `gate-2`).
enum GateChart {
    static let limit = 40

    static func make(_ judgements: [Judgement], stem: String) -> [ChartOutcome] {
        let gates = judgements.compactMap(\.gateReport)
        guard !gates.isEmpty else {
            return [.skipped(.gate, reason: "no two-build rows (bench --baseline-rev or --baseline-binary makes them) and no two runs of one machine")]
        }
        return gates.enumerated().map { index, report in make(report, stem: index == 0 ? stem : "\(stem)-\(index + 1)") }
    }

    static func make(_ report: GateReport, stem: String) -> ChartOutcome {
        guard !report.comparisons.isEmpty else {
            return .skipped(.gate, reason: "the gate found nothing to compare: \(report.outcomeLine)")
        }
        let data = GateChartData(report, limit: limit)
        let band = "set object 1 rect from graph 0, first \(PlotText.number(data.band.lowerBound)) to graph 1, first \(PlotText.number(data.band.upperBound)) fc rgb \"#fde7b0\" fs solid 1.0 noborder behind"
        let chart = CategoryPoints(
            categories: data.rows.map(\.label), series: GateChartData.verdicts.map(\.rawValue),
            values: data.rows.map { row in GateChartData.verdicts.map { $0 == row.verdict ? row.point : nil } },
            title: "Regression gate: \(data.title). \(data.outcomeLine)",
            xLabel: "configuration (changed first\(data.truncationNote.map { "; \($0)" } ?? ""))",
            yLabel: "candidate / baseline (log scale)", keyTitle: "verdict", extra: band)
        return .chart(chart.chart(.gate, stem: stem))
    }
}
