/// Chart 2: wall time against the number of thumbnails, one line per pipeline, log-log,
/// with whiskers at the 95 % CI of the median. Uses the video with the most distinct
/// frame counts (so lines have the most points) and phase `total`, else `extract`.
enum TimeVersusFrameCountChart {
    static func make(_ samples: PlotSamples, machine: String, stem: String) -> ChartOutcome {
        let phases = Set(samples.samples.map(\.key.phase))
        guard let phase = [Phase.total, .extract].first(where: phases.contains) else {
            return .skipped(.timeVersusFrameCount, reason: "no rows with phase total or extract for machine \(machine)")
        }
        let inPhase = samples.filter { $0.key.phase == phase }
        let frameCountsByVideo = Dictionary(grouping: inPhase.samples, by: \.key.videoID).mapValues { Set($0.map(\.key.thumbnailCount)).count }
        // Ties go to the alphabetically first video, so the choice is stable across runs.
        guard let (video, frameCounts) = frameCountsByVideo.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), frameCounts >= 2 else {
            return .skipped(.timeVersusFrameCount, reason: "every video was run at a single frame count (machine \(machine), phase \(phase.rawValue))")
        }
        // Configurations run at a single count make no line; leaving them out keeps the legend to the lines.
        let onVideo = inPhase.filter { $0.key.videoID == video }.secondsByKey
        let countsPerLine = Dictionary(grouping: onVideo.keys, by: Self.lineKey).mapValues(\.count)
        let byKey = onVideo.filter { countsPerLine[Self.lineKey($0.key)]! >= 2 }
        let labeler = ConfigurationLabeler(byKey.keys)

        var series: [String: [Int: [Double]]] = [:]
        for (key, seconds) in byKey {
            series[labeler.label(key.pipeline, for: key), default: [:]][key.thumbnailCount, default: []] += seconds
        }
        let labels = series.keys.sorted()
        let points = series.mapValues { $0.compactMapValues { PlotPoint(samples: $0) } }
        let unit = TimeUnit(forLargest: points.values.flatMap(\.values).map(\.high).max() ?? 0)

        // One data block per pipeline, separated by two blank lines so `index i` selects it.
        var blocks: [String] = []
        for label in labels {
            var block = "# \(label): frame count, median, CI low, CI high in \(unit.rawValue)\n"
            for (thumbnailCount, point) in points[label]!.sorted(by: { $0.key < $1.key }) {
                block += "\(thumbnailCount) \(point.scaled(by: unit.factor).columns)\n"
            }
            blocks.append(block)
        }
        let plots = labels.enumerated().map { index, label in
            "\(index == 0 ? PlotText.scriptString("\(stem).dat") : "\"\"") index \(index) using 1:2:3:4 with yerrorlines lw 2 pt 7 title \(PlotText.scriptString(label))"
        }
        let title = "Wall-clock time against thumbnail count: video \(video), phase \(phase.rawValue), machine \(machine)"
        let body = """
            set logscale xy
            set grid xtics ytics mxtics mytics
            set key below left Left reverse title "pipeline"
            set title \(PlotText.scriptString(title))
            set xlabel "thumbnails per strip, N (log scale)"
            set ylabel "wall-clock time, median and 95 % CI (\(unit.rawValue), log scale)"
            plot \(plots.joined(separator: ", \\\n     "))
            """
        return .chart(Chart(kind: .timeVersusFrameCount, stem: stem, title: title, data: blocks.joined(separator: "\n\n"), body: body,
                            height: 500 + 20 * ((labels.count + 1) / 2)))
    }

    /// A configuration without its count: the points of one line.
    static func lineKey(_ key: ConfigurationKey) -> ConfigurationKey {
        var key = key
        key.thumbnailCount = 0
        return key
    }
}
