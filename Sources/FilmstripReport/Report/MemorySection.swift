import FilmstripResults
import Foundation

/// Peak resident memory against the thumbnail count (``MemoryChartData``, the chart `plot`
/// draws too): a panel per mode with the y axis fitted to the lines, and a table of the medians,
/// since pipelines often use the same memory and equal lines can only be drawn on top of each other.
extension HTMLReport {
    var memorySection: String {
        var html = ""
        for machine in machines {
            guard let data = MemoryChartData(currentRows.filter { $0.run.machine.name == machine }) else { continue }
            html += data.panels.map { Self.memoryPanel($0, title: machinePrefix(machine) + data.title($0)) }.joined()
        }
        return html.isEmpty ? "" : "<h2>Memory against N</h2>\n" + html
    }

    /// One mode's lines as SVG, moved sideways a few pixels so that equal lines lie side by
    /// side, then their medians as a table.
    static func memoryPanel(_ panel: MemoryChartData.Panel, title: String) -> String {
        let series = panel.lines.map { line in
            LineChart.Series(label: line.label, points: line.points.sorted { $0.key < $1.key }.map { (Double($0.key), $0.value) })
        }
        let chart = LineChart(title: title, xTitle: "thumbnails per strip, N (log scale); lines moved sideways a little to keep equal ones apart",
                              yTitle: "peak RSS (MiB), median and 95 % CI; axis not from 0", series: series, dodge: 4, startsAtZero: false)
        var html = chart.svg + chart.legend
        let counts = Set(panel.lines.flatMap(\.points.keys)).sorted()
        html += "<table><tr><th>peak RSS, median (MiB)</th>" + counts.map { "<th>N = \($0)</th>" }.joined() + "</tr>\n"
        for line in panel.lines {
            html += "<tr><td>\(HTMLText.escape(line.label))</td>" + counts.map { count in
                "<td class=\"n\">\(line.points[count].map { String(format: "%.1f", $0.median) } ?? "–")</td>"
            }.joined() + "</tr>\n"
        }
        html += "</table>\n"
        if panel.leftOut > 0 {
            html += "<p class=\"note\">\(panel.leftOut) configuration(s) measured at one N only are left out; their peak RSS is in their sections.</p>\n"
        }
        return html
    }
}
