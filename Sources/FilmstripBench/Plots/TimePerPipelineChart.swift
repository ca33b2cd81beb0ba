/// Chart 1: wall time per pipeline, one bar per reference video, whiskers at the 95 % CI
/// of the median. Uses phase `total` (extract + compose) when present, else `extract`,
/// and the most common frame count, so every bar times the same amount of work.
enum TimePerPipelineChart {
    static func make(_ samples: PlotSamples, machine: String, stem: String) -> ChartOutcome {
        let phases = Set(samples.samples.map(\.key.phase))
        guard let phase = [Phase.total, .extract].first(where: phases.contains) else {
            return .skipped(.timePerPipeline, reason: "no rows with phase total or extract for machine \(machine)")
        }
        let inPhase = samples.filter { $0.key.phase == phase }
        let frameCount = inPhase.mostCommon { $0.key.frameCount }!
        let byKey = inPhase.filter { $0.key.frameCount == frameCount }.secondsByKey
        let labeler = ConfigurationLabeler(byKey.keys)
        let videos = Set(byKey.keys.map(\.videoID)).sorted()

        var cells: [String: [String: [Double]]] = [:]
        for (key, seconds) in byKey {
            cells[labeler.label(key.pipeline, for: key), default: [:]][key.videoID, default: []] += seconds
        }
        let labels = cells.keys.sorted()
        let points = cells.mapValues { $0.compactMapValues { PlotPoint(samples: $0) } }
        let unit = TimeUnit(forLargest: points.values.flatMap(\.values).map(\.high).max() ?? 0)

        var data = "# pipeline, then per video (\(videos.joined(separator: ", "))): median, CI low, CI high in \(unit.rawValue)\n"
        for label in labels {
            let columns = videos.map { points[label]?[$0]?.scaled(by: unit.factor).columns ?? PlotPoint.missingColumns }
            data += ([PlotText.dataString(label)] + columns).joined(separator: " ") + "\n"
        }

        let plots = videos.enumerated().map { index, video in
            let first = 2 + 3 * index
            let tics = index == 0 ? ":xtic(1)" : ""
            return "\(index == 0 ? PlotText.scriptString("\(stem).dat") : "''") using \(first):\(first + 1):\(first + 2)\(tics) title \(PlotText.scriptString(video))"
        }
        let title = "Wall-clock time per pipeline: phase \(phase.rawValue), N = \(frameCount) thumbnails, machine \(machine)"
        let body = """
            \(BarStyle.commands)
            set title \(PlotText.scriptString(title))
            set xlabel "pipeline (extractor+composer)"
            set ylabel "wall-clock time, median and 95 % CI (\(unit.rawValue))"
            set key title "video"
            plot \(plots.joined(separator: ", \\\n     "))
            """
        return .chart(Chart(kind: .timePerPipeline, stem: stem, title: title, data: data, body: body,
                            width: max(1100, 60 * labels.count * max(1, videos.count) + 300)))
    }
}
