import FilmstripResults

/// The peers chart, once: per accuracy mode and thumbnail count (a panel), each tool's wall time
/// on each video relative to the fastest tool on that video, tools labelled by
/// ``ConfigurationLabeler``. `plot` draws it with gnuplot (``PeersChart``), the report as SVG
/// (``HTMLReport/peersSection``), from this one data set.
enum PeersChartData {
    /// The panels of the peer rows (phase `peer`) among `samples`, one machine's, by mode, then thumbnail count.
    static func panels(_ samples: PlotSamples) -> [RelativeTimes] {
        let peers = samples.samples.filter { $0.key.phase == .peer }
        let byPanel = Dictionary(grouping: peers) { "\($0.key.accuracy)\u{0}\($0.key.thumbnailCount)" }.values
            .sorted { ($0[0].key.accuracy, $0[0].key.thumbnailCount) < ($1[0].key.accuracy, $1[0].key.thumbnailCount) }
        return byPanel.map { panelSamples in
            let labeler = ConfigurationLabeler(Set(panelSamples.map(\.key)))
            var seconds: [String: [String: [Double]]] = [:]
            for sample in panelSamples { seconds[sample.key.videoID, default: [:]][labeler.label(sample.key.pipeline, for: sample.key), default: []].append(sample.seconds) }
            let first = panelSamples[0].key
            return RelativeTimes(title: "filmstrip against its peers, whole processes: \(first.accuracy) mode, N = \(first.thumbnailCount)",
                                 stemSuffix: "-\(PlotText.fileStem(first.accuracy.description))-n\(first.thumbnailCount)",
                                 categories: seconds.keys.sorted(), times: seconds) { _, medians in medians.values.min() }
        }
    }
}
