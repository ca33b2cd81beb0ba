import Filmstrip
import FilmstripResults

/// The slider's session chart, once: per video and thumbnail count (a panel), each session
/// step's time (wall_s) of every configuration relative to the standard strategy's with the
/// generator's defaults, configurations labelled by ``ConfigurationLabeler``. `plot` draws it
/// with gnuplot (``InteractiveChart``), the report as SVG (``HTMLReport/interactiveSection``),
/// from this one data set.
enum InteractiveChartData {
    static let referenceName = "\(InteractiveStrategies.standard.name) with the generator's defaults"

    /// The panels of the rows of kind `interactive` among `samples`, one machine's, by video, then
    /// thumbnail count; a panel without the reference is left out, and so is a step it has no time for.
    static func panels(_ samples: PlotSamples) -> [RelativeTimes] {
        let sessions = samples.samples.filter { $0.key.kind == .interactive && Phase.sessionSteps.contains($0.key.phase) }
        let byPanel = Dictionary(grouping: sessions) { "\($0.key.videoID)\u{0}\($0.key.thumbnailCount)" }.values
            .sorted { ($0[0].key.videoID, $0[0].key.thumbnailCount) < ($1[0].key.videoID, $1[0].key.thumbnailCount) }
        return byPanel.compactMap { panelSamples in
            let labeler = ConfigurationLabeler(Set(panelSamples.map(\.key)))
            guard let reference = panelSamples.first(where: { $0.key.isInteractiveReference }) else { return nil }
            let referenceName = labeler.label(reference.key.pipeline, for: reference.key)
            var seconds: [String: [String: [Double]]] = [:]
            for sample in panelSamples { seconds[sample.key.phase.rawValue, default: [:]][labeler.label(sample.key.pipeline, for: sample.key), default: []].append(sample.seconds) }
            let first = panelSamples[0].key
            return RelativeTimes(title: "slider sessions, \(first.videoID), N = \(first.thumbnailCount): each step's time relative to \(Self.referenceName)",
                                 stemSuffix: "-\(PlotText.fileStem(first.videoID))-n\(first.thumbnailCount)",
                                 categories: Phase.sessionSteps.map(\.rawValue), times: seconds) { _, medians in medians[referenceName] }
        }
    }
}
