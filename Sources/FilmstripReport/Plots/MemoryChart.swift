import FilmstripResults
/// Chart 7: peak resident memory against the number of thumbnails, one line per pipeline,
/// for the video run at the most counts (phase `total`: one process per configuration).
enum MemoryChart {
    static func make(_ rows: [RawResultRow], machine: String, stem: String) -> ChartOutcome {
        // A line is a configuration without its count; configurations at one count make no line
        // and are left out before the video is chosen (else a video at two counts with no line
        // at two gave gnuplot an empty `plot` command).
        func lineKey(_ row: RawResultRow) -> ConfigurationKey { CountLines.lineKey(row.configurationKey) }
        let measured = rows.filter { $0.status == .ok && $0.phase == .total && $0.peakRSSBytes != nil }
        let countsPerLine = Dictionary(grouping: measured, by: lineKey).mapValues { Set($0.map(\.thumbnailCount)).count }
        let onLines = measured.filter { countsPerLine[lineKey($0)]! >= 2 }
        guard let video = CountLines.video(runAtMostCounts: onLines.map { ($0.video.id, $0.thumbnailCount) }) else {
            return .skipped(.memory, reason: "no configuration of machine \(machine) has peak RSS of phase total at two or more counts")
        }
        let videoRows = onLines.filter { $0.video.id == video }
        let labeler = ConfigurationLabeler(videoRows.map(lineKey))
        var series: [String: [Int: [Double]]] = [:]
        for row in videoRows {
            series[labeler.label(row.pipeline, for: lineKey(row)), default: [:]][row.thumbnailCount, default: []].append(Double(row.peakRSSBytes!) / 1_048_576)
        }
        let labels = series.keys.sorted()
        let points = series.mapValues { $0.compactMapValues { PlotPoint(samples: $0) } }
        let plots = labels.enumerated().map { index, label in
            "\(index == 0 ? PlotText.scriptString("\(stem).dat") : "''") index \(index) using 1:2:3:4 with yerrorlines lt \(index + 1) lw 2 pt 7 title \(PlotText.scriptString(label))"
        }
        let title = "Peak resident memory against thumbnail count: video \(video), phase total, machine \(machine)"
        return .chart(CountLines.chart(.memory, stem: stem, title: title,
                                       data: CountLines.data(points, labels: labels, columns: "peak RSS median, CI low, CI high in MiB"),
                                       axes: "set logscale x\nset yrange [0:*]\nset grid xtics ytics",
                                       yLabel: "peak RSS of the process (MiB), median and 95 % CI", plots: plots))
    }
}
