import FilmstripResults
import Foundation

/// Peak resident memory against the thumbnail count, for the video measured at the most
/// counts: a panel per mode (exact, keyframe) so that each holds a few lines, the y axis
/// fitted to the lines, and a table of the medians, since pipelines often use the same
/// memory and equal lines can only be drawn on top of each other.
extension HTMLReport {
    var memorySection: String {
        var html = ""
        for machine in machines {
            let total = currentRows.filter { $0.run.machine.name == machine && $0.phase == .total && $0.status == .ok && $0.peakRSSBytes != nil }
            guard let video = CountLines.video(runAtMostCounts: total.map { ($0.video.id, $0.thumbnailCount) }) else { continue }
            let videoRows = total.filter { $0.video.id == video }
            for accuracy in Set(videoRows.map(\.accuracy)).sorted() {
                html += memoryPanel(videoRows.filter { $0.accuracy == accuracy }, title: "\(machinePrefix(machine))video \(video), \(accuracy)")
            }
        }
        return html.isEmpty ? "" : "<h2>Memory against N</h2>\n" + html
    }

    /// One mode's lines: a line per configuration (without its count) measured at two counts
    /// or more, and the default pipeline wherever it was measured; where no configuration was
    /// measured at two counts, every configuration as a point.
    private func memoryPanel(_ rows: [RawResultRow], title: String) -> String {
        func lineKey(_ row: RawResultRow) -> ConfigurationKey { CountLines.lineKey(row.configurationKey) }
        let label = Self.labeler(rows.map(lineKey))
        var byLabel: [String: [Int: [Double]]] = [:]
        for row in rows { byLabel[label(lineKey(row)), default: [:]][row.thumbnailCount, default: []].append(Double(row.peakRSSBytes!) / 1_048_576) }
        let defaults = Set(rows.filter { Self.isDefault($0.configurationKey) }.map { label(lineKey($0)) })
        let lines = byLabel.keys.sorted().filter { byLabel[$0]!.count >= 2 || defaults.contains($0) }
        let shown = lines.contains { byLabel[$0]!.count >= 2 } ? lines : byLabel.keys.sorted()
        guard !shown.isEmpty else { return "" }
        let name = { (line: String) in defaults.contains(line) ? "\(line) (default)" : line }
        let series = shown.compactMap { line -> LineChart.Series? in
            let points = byLabel[line]!.sorted { $0.key < $1.key }.compactMap { count, values in PlotPoint(samples: values).map { (Double(count), $0) } }
            return points.isEmpty ? nil : LineChart.Series(label: name(line), points: points)
        }
        // Equal lines are moved sideways a few pixels so that their dots and whiskers lie side by side.
        let chart = LineChart(title: "peak resident memory against thumbnail count, \(title)",
                              xTitle: "thumbnails per strip, N (log scale); lines moved sideways a little to keep equal ones apart",
                              yTitle: "peak RSS (MiB), median and 95 % CI; axis not from 0", series: series, dodge: 4, startsAtZero: false)
        var html = chart.svg + chart.legend
        let counts = Set(shown.flatMap { byLabel[$0]!.keys }).sorted()
        html += "<table><tr><th>peak RSS, median (MiB)</th>" + counts.map { "<th>N = \($0)</th>" }.joined() + "</tr>\n"
        for line in shown {
            html += "<tr><td>\(HTMLText.escape(name(line)))</td>" + counts.map { count in
                byLabel[line]![count].map { "<td class=\"n\">\(String(format: "%.1f", Quantile.median($0)))</td>" } ?? "<td class=\"n\">–</td>"
            }.joined() + "</tr>\n"
        }
        html += "</table>\n"
        if shown.count < byLabel.count {
            html += "<p class=\"note\">\(byLabel.count - shown.count) configuration(s) measured at one N only are left out; their peak RSS is in their sections.</p>\n"
        }
        return html
    }
}
