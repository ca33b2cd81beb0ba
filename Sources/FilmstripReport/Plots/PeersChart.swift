import FilmstripResults
/// Chart 6: filmstrip against the peers (the ffmpeg CLI, ffmpegthumbnailer, the decode
/// floors), whole processes: one chart per accuracy mode and thumbnail count, the videos
/// along x and each tool's time relative to the fastest tool on that video, log scale.
enum PeersChart {
    static func make(_ samples: PlotSamples, machine: String, stem: String) -> [ChartOutcome] {
        let peers = samples.filter { $0.key.phase == .peer }
        guard !peers.samples.isEmpty else {
            return [.skipped(.peers, reason: "no peer rows for machine \(machine) (bench --peers adds them)")]
        }
        let panels = Dictionary(grouping: peers.samples) { "\($0.key.accuracy) n\($0.key.thumbnailCount)" }
        return panels.keys.sorted().map { panel in
            let panelSamples = panels[panel]!
            let first = panelSamples[0].key
            let byKey = Dictionary(grouping: panelSamples, by: \.key).mapValues { $0.map(\.seconds) }
            let labeler = ConfigurationLabeler(byKey.keys)
            var cells: [String: [String: [Double]]] = [:]
            for (key, seconds) in byKey { cells[labeler.label(key.pipeline, for: key), default: [:]][key.videoID, default: []] += seconds }
            let points = cells.mapValues { $0.compactMapValues { PlotPoint(samples: $0) } }
            let tools = points.keys.sorted()
            let videos = Set(byKey.keys.map(\.videoID)).sorted()
            var fastest: [String: Double] = [:]
            for perVideo in points.values {
                for (video, point) in perVideo { fastest[video] = min(fastest[video] ?? .infinity, point.median) }
            }
            let chart = CategoryPoints(
                categories: videos, series: tools,
                values: videos.map { video in tools.map { tool in points[tool]?[video].map { $0.scaled(by: 1 / fastest[video]!) } } },
                title: "filmstrip against its peers, whole processes: \(first.accuracy) mode, N = \(first.thumbnailCount), machine \(machine)",
                xLabel: "video", yLabel: "wall time / fastest tool on the video (log scale; 95 % CI)", keyTitle: "tool")
            let panelStem = "\(stem)-\(PlotText.fileStem(first.accuracy.description))-n\(first.thumbnailCount)"
            return .chart(Chart(kind: .peers, stem: panelStem, title: chart.title, data: chart.data, body: chart.body(stem: panelStem),
                                width: chart.width, height: chart.height))
        }
    }
}
