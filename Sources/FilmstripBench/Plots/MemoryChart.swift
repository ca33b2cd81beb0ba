/// Chart 7: peak resident memory against the number of thumbnails, one line per pipeline,
/// for the video run at the most counts (phase `total`: one process per configuration).
enum MemoryChart {
    static func make(_ rows: [RawResultRow], machine: String, stem: String) -> ChartOutcome {
        let measured = rows.filter { $0.status == .ok && $0.phase == .total && $0.peakRSSBytes != nil }
        let countsByVideo = Dictionary(grouping: measured, by: \.video.id).mapValues { Set($0.map(\.thumbnailCount)).count }
        guard let (video, counts) = countsByVideo.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), counts >= 2 else {
            return .skipped(.memory, reason: "no video of machine \(machine) has peak RSS of phase total at two or more counts")
        }
        // A line is a configuration without its count; configurations at one count make no line.
        func lineKey(_ row: RawResultRow) -> ConfigurationKey {
            var key = row.configurationKey
            key.thumbnailCount = 0
            return key
        }
        let onVideo = measured.filter { $0.video.id == video }
        let countsPerLine = Dictionary(grouping: onVideo, by: lineKey).mapValues { Set($0.map(\.thumbnailCount)).count }
        let videoRows = onVideo.filter { countsPerLine[lineKey($0)]! >= 2 }
        let labeler = ConfigurationLabeler(videoRows.map(lineKey))
        var series: [String: [Int: [Double]]] = [:]
        for row in videoRows {
            series[labeler.label(row.pipeline, for: lineKey(row)), default: [:]][row.thumbnailCount, default: []].append(Double(row.peakRSSBytes!) / 1_048_576)
        }
        let labels = series.keys.sorted()
        var blocks: [String] = []
        for label in labels {
            var block = "# \(label): frame count, peak RSS median, CI low, CI high in MiB\n"
            for (count, values) in series[label]!.sorted(by: { $0.key < $1.key }) {
                if let point = PlotPoint(samples: values) { block += "\(count) \(point.columns)\n" }
            }
            blocks.append(block)
        }
        let plots = labels.enumerated().map { index, label in
            "\(index == 0 ? PlotText.scriptString("\(stem).dat") : "''") index \(index) using 1:2:3:4 with yerrorlines lt \(index + 1) lw 2 pt 7 title \(PlotText.scriptString(label))"
        }
        let title = "Peak resident memory against thumbnail count: video \(video), phase total, machine \(machine)"
        let body = """
            set logscale x
            set yrange [0:*]
            set grid xtics ytics
            set key below left Left reverse title "pipeline"
            set title \(PlotText.scriptString(title))
            set xlabel "thumbnails per strip, N (log scale)"
            set ylabel "peak RSS of the process (MiB), median and 95 % CI"
            plot \(plots.joined(separator: ", \\\n     "))
            """
        return .chart(Chart(kind: .memory, stem: stem, title: title, data: blocks.joined(separator: "\n\n"), body: body,
                            height: 500 + 20 * ((labels.count + 1) / 2)))
    }
}
