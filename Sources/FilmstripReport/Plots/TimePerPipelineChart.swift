import FilmstripResults
import Foundation

/// Chart 1: wall time per pipeline relative to the fastest pipeline on each video, one point
/// series per reference video, whiskers at the 95 % CI of the median, log scale. Relative
/// times put a 50 ms video and a 6 s video on one axis. Uses phase `total` (extract +
/// compose) when present, else `extract`, and the most common frame count, so every point
/// times the same amount of work.
enum TimePerPipelineChart {
    static func make(_ samples: PlotSamples, machine: String, stem: String) -> ChartOutcome {
        guard let (phase, inPhase) = samples.inWholeStripPhase() else {
            return .skipped(.timePerPipeline, reason: "no rows with phase total or extract for machine \(machine)")
        }
        let thumbnailCount = inPhase.mostCommon { $0.key.thumbnailCount }!
        let byKey = inPhase.filter { $0.key.thumbnailCount == thumbnailCount }.secondsByKey
        let labeler = ConfigurationLabeler(byKey.keys)
        let videos = Set(byKey.keys.map(\.videoID)).sorted()

        var cells: [String: [String: [Double]]] = [:]
        for (key, seconds) in byKey {
            cells[labeler.label(key.pipeline, for: key), default: [:]][key.videoID, default: []] += seconds
        }
        let points = cells.mapValues { $0.compactMapValues { PlotPoint(samples: $0) } }
        // Each video's fastest median is its 1.
        var fastest: [String: Double] = [:]
        for perVideo in points.values {
            for (video, point) in perVideo { fastest[video] = min(fastest[video] ?? .infinity, point.median) }
        }
        // Pipelines ordered by their geometric-mean ratio, fastest first.
        func meanLogRatio(_ label: String) -> Double {
            let ratios = points[label]!.map { log($0.value.median / fastest[$0.key]!) }
            return ratios.reduce(0, +) / Double(max(1, ratios.count))
        }
        let labels = points.keys.sorted { (meanLogRatio($0), $0) < (meanLogRatio($1), $1) }
        let chart = CategoryPoints(
            categories: labels, series: videos,
            values: labels.map { label in videos.map { video in points[label]?[video].map { $0.scaled(by: 1 / fastest[video]!) } } },
            title: "Time per pipeline relative to the fastest on each video: phase \(phase.rawValue), N = \(thumbnailCount), machine \(machine)",
            xLabel: "pipeline (extractor+composer), fastest on average first",
            yLabel: "wall time / fastest median on the video (log scale; 95 % CI)", keyTitle: "video")
        return .chart(chart.chart(.timePerPipeline, stem: stem))
    }
}
