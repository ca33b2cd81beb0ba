import FilmstripResults
import Foundation

extension HTMLReport {
    /// The judge's hardware answer, when the files are about new hardware (two machines' runs).
    var hardwareComparison: HardwareComparison? {
        judgements.lazy.compactMap { if case .hardware(let comparison) = $0.answer { comparison } else { nil } }.first
    }

    /// Two machines: the hardware answer first (wall-time speed-ups, each machine's ranking, the
    /// task group's scaling), in place of a regression verdict.
    var hardwareSection: String {
        guard let comparison = hardwareComparison else { return "" }
        var html = "<h2>Hardware: \(HTMLText.escape(comparison.candidate.name)) against \(HTMLText.escape(comparison.baseline.name))</h2>\n"
        let lines = comparison.headlineLines
        html += "<p class=\"verdict\">\(HTMLText.escape(lines[0]))</p>\n<ul>"
            + lines.dropFirst().map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>\n"
        html += "<p>Speed-up: baseline / candidate median wall time, Hodges–Lehmann estimate with its exact Mann–Whitney \(Int(comparison.level * 100)) % interval over the repetitions. Machines: baseline \(HTMLText.escape(comparison.baseline.text)), candidate \(HTMLText.escape(comparison.candidate.text)).</p>\n"
        html += "<h3>Ranking per request (fastest first)</h3>\n<table><tr><th>request</th><th>\(HTMLText.escape(comparison.baseline.name))</th><th>\(HTMLText.escape(comparison.candidate.name))</th><th>changed</th></tr>\n"
        for ranking in comparison.rankings {
            let order = { (entries: [(label: String, seconds: Double)]) in
                entries.enumerated().map { "\($0.offset + 1). \(HTMLText.escape($0.element.label)) \(ReadableSeconds.text($0.element.seconds))" }.joined(separator: "<br>")
            }
            html += "<tr><td>\(HTMLText.escape(ranking.request.byHeight))</td><td>\(order(ranking.baseline))</td><td>\(order(ranking.candidate))</td>"
                + "<td>\(ranking.fastestChanged ? "fastest" : ranking.changed ? "order" : "")</td></tr>\n"
        }
        html += "</table>\n"
        if !comparison.scalingLines.isEmpty {
            html += "<h3>Task group scaling</h3>\n<ul>" + comparison.scalingLines.map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>\n"
        }
        let ordered = comparison.speedUps.sorted { $0.estimate > $1.estimate }
        let chartRows = ordered.prefix(60).map { entry in
            DotChart.Row(label: entry.key.shortName, point: PlotPoint(median: entry.estimate, low: entry.low, high: entry.high),
                         note: "\(HardwareComparison.times(entry.estimate)) \(entry.direction)",
                         series: entry.direction == "faster" ? 2 : entry.direction == "slower" ? 3 : 7)
        }
        html += DotChart(title: "Speed-up of \(comparison.candidate.name) over \(comparison.baseline.name), wall time, with \(Int(comparison.level * 100)) % intervals",
                         axisTitle: "baseline / candidate wall time (log scale); green faster, red slower, grey either", rows: Array(chartRows),
                         reference: 1, band: nil, visibleRange: 0.05...50).svg
        if ordered.count > chartRows.count { html += "<p>The chart shows the \(chartRows.count) largest of \(ordered.count) speed-ups.</p>\n" }
        return html
    }
}
