import FilmstripResults
import Filmstrip

/// The slider's sessions (rows of kind `interactive`): one chart per video and thumbnail count,
/// the session's steps along x and each configuration's step time (wall_s) relative to the
/// standard strategy's with the generator's defaults, log scale. Nothing when there are no
/// interactive rows, so strip runs list no skipped chart for it.
enum InteractiveChart {
    static func make(_ samples: PlotSamples, machine: String, stem: String) -> [ChartOutcome] {
        let steps = Phase.sessionSteps
        let sessions = samples.filter { $0.key.kind == .interactive && steps.contains($0.key.phase) }
        let panels = Dictionary(grouping: sessions.samples) { "\($0.key.videoID) n\($0.key.thumbnailCount)" }
        return panels.keys.sorted().compactMap { panel in
            let byKey = Dictionary(grouping: panels[panel]!, by: \.key).mapValues { $0.map(\.seconds) }
            let first = byKey.keys.min()!
            let labeler = ConfigurationLabeler(byKey.keys)
            guard let reference = byKey.keys.first(where: \.isInteractiveReference) else { return nil }
            let configurations = Dictionary(grouping: byKey.keys) { labeler.label($0.pipeline, for: $0) }
            let series = configurations.keys.sorted()
            let values = steps.map { step -> [PlotPoint?] in
                var referenceKey = reference
                referenceKey.phase = step
                guard let baseline = byKey[referenceKey].flatMap(PlotPoint.init(samples:)), baseline.median > 0 else {
                    return series.map { _ in nil }
                }
                return series.map { name in
                    configurations[name]!.first { $0.phase == step }.flatMap { byKey[$0] }.flatMap(PlotPoint.init(samples:))?
                        .scaled(by: 1 / baseline.median)
                }
            }
            let chart = CategoryPoints(
                categories: steps.map(\.rawValue), series: series, values: values,
                title: "slider sessions, \(first.videoID), N = \(first.thumbnailCount), machine \(machine)",
                xLabel: "session step", yLabel: "step time / \(InteractiveStrategies.standard.name), generator defaults (log; 95 % CI)",
                keyTitle: "configuration")
            let panelStem = "\(stem)-\(PlotText.fileStem(first.videoID))-n\(first.thumbnailCount)"
            return .chart(Chart(kind: .interactive, stem: panelStem, title: chart.title, data: chart.data, body: chart.body(stem: panelStem),
                                width: chart.width, height: chart.height))
        }
    }
}
