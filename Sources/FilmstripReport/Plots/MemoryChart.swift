import FilmstripResults
/// Chart 7: peak resident memory against the number of thumbnails, one chart per panel of
/// ``MemoryChartData`` (accuracy mode), a line per configuration (phase `total`: one process
/// per configuration).
enum MemoryChart {
    static func make(_ rows: [RawResultRow], machine: String, stem: String) -> [ChartOutcome] {
        guard let data = MemoryChartData(rows), !data.panels.isEmpty else {
            return [.skipped(.memory, reason: "no configuration of machine \(machine) has peak RSS of phase total at two or more counts")]
        }
        return data.panels.map { panel in
            let labels = panel.lines.map(\.label)
            let panelStem = data.panels.count == 1 ? stem : "\(stem)-\(PlotText.fileStem(panel.accuracy.description))"
            let plots = labels.enumerated().map { index, label in
                "\(index == 0 ? PlotText.scriptString("\(panelStem).dat") : "''") index \(index) using 1:2:3:4 with yerrorlines lt \(index + 1) lw 2 pt 7 title \(PlotText.scriptString(label))"
            }
            let points = Dictionary(uniqueKeysWithValues: panel.lines.map { ($0.label, $0.points) })
            return .chart(CountLines.chart(.memory, stem: panelStem, title: "\(data.title(panel)), phase total, machine \(machine)",
                                           data: CountLines.data(points, labels: labels, columns: "peak RSS median, CI low, CI high in MiB"),
                                           axes: "set logscale x\nset yrange [0:*]\nset grid xtics ytics",
                                           yLabel: "peak RSS of the process (MiB), median and 95 % CI", plots: plots))
        }
    }
}
