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
        let gate = report.gate
        guard !report.comparisons.isEmpty else {
            return .skipped(.gate, reason: "the gate found nothing to compare: \(report.outcomeLine)")
        }
        let ordered = report.comparisons.sorted { lhs, rhs in
            ((lhs.verdict == .same ? 1 : 0), -abs(log(lhs.ratio)), lhs.key) < ((rhs.verdict == .same ? 1 : 0), -abs(log(rhs.ratio)), rhs.key)
        }.prefix(limit)
        let labeler = ConfigurationLabeler(ordered.map(\.key))
        let videosVary = Set(ordered.map(\.key.videoID)).count > 1, countsVary = Set(ordered.map(\.key.thumbnailCount)).count > 1
        let phasesVary = Set(ordered.map(\.key.phase)).count > 1, metricsVary = Set(ordered.map(\.metric)).count > 1
        let labels = ordered.map { comparison in
            let key = comparison.key
            var name = key.pipeline.description
            if videosVary { name += " \(key.videoID)" }
            if countsVary { name += " ×\(key.thumbnailCount)" }
            if phasesVary { name += " \(key.phase.rawValue)" }
            return labeler.label(name, for: key) + (metricsVary ? " · \(GateReport.metricName(comparison.metric))" : "")
        }
        let verdicts: [Verdict] = [.slower, .faster, .undecided, .same]
        let threshold = gate.threshold
        let band = "set object 1 rect from graph 0, first \(PlotText.number(1 / (1 + threshold))) to graph 1, first \(PlotText.number(1 + threshold)) fc rgb \"#fde7b0\" fs solid 1.0 noborder behind"
        let chart = CategoryPoints(
            categories: labels, series: verdicts.map(\.rawValue),
            values: ordered.map { comparison in
                verdicts.map { $0 == comparison.verdict ? PlotPoint(median: comparison.ratio, low: comparison.ratioLow, high: comparison.ratioHigh) : nil }
            },
            title: "Regression gate: candidate / baseline\(report.form == .paired ? ", paired" : ""), \(Int(gate.level * 100)) % intervals; shaded ±\(PlotText.number(threshold * 100)) % is noise. \(report.outcomeLine)",
            xLabel: "configuration (changed first\(report.comparisons.count > limit ? "; \(limit) of \(report.comparisons.count)" : ""))",
            yLabel: "candidate / baseline (log scale)", keyTitle: "verdict", extra: band)
        return .chart(Chart(kind: .gate, stem: stem, title: chart.title, data: chart.data, body: chart.body(stem: stem),
                            width: chart.width, height: chart.height))
    }
}
