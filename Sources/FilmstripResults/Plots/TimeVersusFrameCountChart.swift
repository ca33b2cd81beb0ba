/// Chart 2: wall time against the number of thumbnails, one line per pipeline, log-log,
/// with whiskers at the 95 % CI of the median. Uses the video with the most distinct
/// frame counts (so lines have the most points) and phase `total`, else `extract`.
enum TimeVersusFrameCountChart {
    static func make(_ samples: PlotSamples, machine: String, stem: String) -> ChartOutcome {
        guard let (phase, inPhase) = samples.inWholeStripPhase() else {
            return .skipped(.timeVersusFrameCount, reason: "no rows with phase total or extract for machine \(machine)")
        }
        // Configurations run at a single count make no line: left out before the video is chosen,
        // so that two runs at other counts of other pipelines (a video at two counts, no line
        // at two) are a skipped chart, not an empty `plot` command gnuplot refuses.
        let countsPerLine = Dictionary(grouping: inPhase.samples, by: { CountLines.lineKey($0.key) }).mapValues { Set($0.map(\.key.thumbnailCount)).count }
        let onLines = inPhase.filter { countsPerLine[CountLines.lineKey($0.key)]! >= 2 }
        guard let video = CountLines.video(runAtMostCounts: onLines.samples.map { ($0.key.videoID, $0.key.thumbnailCount) }) else {
            return .skipped(.timeVersusFrameCount, reason: "no configuration was run at two or more frame counts (machine \(machine), phase \(phase.rawValue))")
        }
        let byKey = onLines.filter { $0.key.videoID == video }.secondsByKey
        let labeler = ConfigurationLabeler(byKey.keys)

        var series: [String: [Int: [Double]]] = [:]
        for (key, seconds) in byKey {
            series[labeler.label(key.pipeline, for: key), default: [:]][key.thumbnailCount, default: []] += seconds
        }
        let labels = series.keys.sorted()
        let points = series.mapValues { $0.compactMapValues { PlotPoint(samples: $0) } }
        let unit = TimeUnit(forLargest: points.values.flatMap(\.values).map(\.high).max() ?? 0)
        let plots = labels.enumerated().map { index, label in
            "\(index == 0 ? PlotText.scriptString("\(stem).dat") : "\"\"") index \(index) using 1:2:3:4 with yerrorlines lw 2 pt 7 title \(PlotText.scriptString(label))"
        }
        let title = "Wall-clock time against thumbnail count: video \(video), phase \(phase.rawValue), machine \(machine)"
        return .chart(CountLines.chart(.timeVersusFrameCount, stem: stem, title: title,
                                       data: CountLines.data(points.mapValues { $0.mapValues { $0.scaled(by: unit.factor) } }, labels: labels,
                                                             columns: "median, CI low, CI high in \(unit.rawValue)"),
                                       axes: "set logscale xy\nset grid xtics ytics mxtics mytics",
                                       yLabel: "wall-clock time, median and 95 % CI (\(unit.rawValue), log scale)", plots: plots))
    }
}
