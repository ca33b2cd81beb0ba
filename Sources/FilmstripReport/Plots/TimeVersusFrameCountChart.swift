import FilmstripResults
/// Chart 2: wall time against the number of thumbnails, log-log, with whiskers at the 95 % CI
/// of the median: one line per video and pipeline, a colour per video and a dash and point
/// per pipeline, so that a run over several videos shows each of them. Phase `total`, else `extract`.
enum TimeVersusFrameCountChart {
    /// Point types told apart in print as on screen: filled circle, square, diamond, triangles.
    static let pointTypes = [7, 5, 13, 9, 11]

    static func make(_ samples: PlotSamples, machine: String, stem: String) -> ChartOutcome {
        guard let (phase, inPhase) = samples.inWholeStripPhase() else {
            return .skipped(.timeVersusFrameCount, reason: "no rows with phase total or extract for machine \(machine)")
        }
        // Configurations run at a single count make no line: left out, so that runs at other
        // counts of other pipelines (a video at two counts, no line at two) are a skipped chart,
        // not an empty `plot` command gnuplot refuses.
        let countsPerLine = Dictionary(grouping: inPhase.samples, by: { CountLines.lineKey($0.key) }).mapValues { Set($0.map(\.key.thumbnailCount)).count }
        let byKey = inPhase.filter { countsPerLine[CountLines.lineKey($0.key)]! >= 2 }.secondsByKey
        guard !byKey.isEmpty else {
            return .skipped(.timeVersusFrameCount, reason: "no configuration was run at two or more frame counts (machine \(machine), phase \(phase.rawValue))")
        }
        // Labelled among the lines of all videos, so that an option is named when it varies anywhere.
        let labeler = ConfigurationLabeler(byKey.keys)
        let videos = Set(byKey.keys.map(\.videoID)).sorted()
        let pipelines = Set(byKey.keys.map { labeler.label($0.pipeline, for: $0) }).sorted()
        // A line's label: the video when every line is one pipeline, the pipeline for one video, else both.
        func label(video: String, pipeline: String) -> String {
            pipelines.count == 1 ? video : videos.count == 1 ? pipeline : "\(video): \(pipeline)"
        }
        var series: [String: [Int: [Double]]] = [:]
        var style: [String: (video: Int, pipeline: Int)] = [:]
        for (key, seconds) in byKey {
            let pipeline = labeler.label(key.pipeline, for: key)
            let line = label(video: key.videoID, pipeline: pipeline)
            series[line, default: [:]][key.thumbnailCount, default: []] += seconds
            style[line] = (videos.firstIndex(of: key.videoID)!, pipelines.firstIndex(of: pipeline)!)
        }
        let labels = series.keys.sorted { (style[$0]!.video, style[$0]!.pipeline) < (style[$1]!.video, style[$1]!.pipeline) }
        let points = series.mapValues { $0.compactMapValues { PlotPoint(samples: $0) } }
        let unit = TimeUnit(forLargest: points.values.flatMap(\.values).map(\.high).max() ?? 0)
        let plots = labels.enumerated().map { index, label in
            let (video, pipeline) = style[label]!
            let source = index == 0 ? PlotText.scriptString("\(stem).dat") : "\"\""
            return "\(source) index \(index) using 1:2:3:4 with yerrorlines lt \(video + 1) dt \(pipeline % 5 + 1) lw 2 pt \(pointTypes[pipeline % pointTypes.count]) title \(PlotText.scriptString(label))"
        }
        let shown = videos.count == 1 ? "video \(videos[0])" : "\(videos.count) videos"
        let title = "Wall-clock time against thumbnail count: \(shown), phase \(phase.rawValue), machine \(machine)"
        return .chart(CountLines.chart(.timeVersusFrameCount, stem: stem, title: title,
                                       data: CountLines.data(points.mapValues { $0.mapValues { $0.scaled(by: unit.factor) } }, labels: labels,
                                                             columns: "median, CI low, CI high in \(unit.rawValue)"),
                                       axes: "set logscale xy\nset grid xtics ytics mxtics mytics",
                                       yLabel: "wall-clock time, median and 95 % CI (\(unit.rawValue), log scale)", plots: plots,
                                       keyTitle: videos.count == 1 ? "pipeline" : pipelines.count == 1 ? "video" : "video: pipeline"))
    }
}
