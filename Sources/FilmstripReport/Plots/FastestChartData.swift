import FilmstripResults

/// The fastest-pipelines chart, once: per video, every request it was measured at (count, size
/// and mode; a colour each, by count), each configuration's wall time relative to the fastest
/// median of its request, fastest first, the default pipeline starred. The report draws the
/// repetitions as box plots (``HTMLReport/fastestSection``), `plot` the medians with their
/// intervals (``TimePerPipelineChart``), from this one data set.
struct FastestChartData {
    struct Row {
        var key: ConfigurationKey
        /// `★ ×20 exact: taskgroup+fused`: the request, then the configuration told apart from
        /// the others of its request (``ConfigurationLabeler``).
        var label: String
        /// Index into the panel's ``Panel/requests``.
        var request: Int
        /// The repetitions, and their median with its interval, over the fastest median of the request.
        var ratios: [Double], ratio: PlotPoint
        /// The median wall time, in seconds.
        var seconds: Double
        var isDefault: Bool
    }

    struct Panel {
        var video: String
        /// `×20 exact` per request, by count.
        var requests: [String]
        /// Requests in order, each request's configurations fastest first.
        var rows: [Row]

        /// The requests at which the default pipeline was not measured.
        var defaultMissing: [String] {
            requests.indices.filter { index in !rows.contains { $0.request == index && $0.isDefault } }.map { requests[$0] }
        }
    }

    /// Panels by video.
    var panels: [Panel]

    /// One machine's rows of one phase, ranked per request (video, count, size, mode), fastest
    /// first: the fastest table's groups, which ``init(_:)`` draws.
    static func requests(_ rows: [RawResultRow]) -> [(String, [HTMLReport.Ranked])] {
        HTMLReport.ranked(rows) { key in "\(key.videoID) ×\(key.thumbnailCount) \(key.thumbWidth)x\(key.thumbHeight) \(key.accuracy)" }
    }

    init(_ requests: [(String, [HTMLReport.Ranked])]) {
        let byVideo = Dictionary(grouping: requests.map(\.1).filter { !$0.isEmpty }) { $0[0].key.videoID }
        panels = byVideo.keys.sorted().map { video in
            let ordered = byVideo[video]!.sorted { ($0[0].key.thumbnailCount, $0[0].key.description) < ($1[0].key.thumbnailCount, $1[0].key.description) }
            let names = ordered.map { "×\($0[0].key.thumbnailCount) \($0[0].key.accuracy)" }
            var rows: [Row] = []
            for (index, entries) in ordered.enumerated() {
                let fastest = entries[0].point.median
                rows += entries.map { entry in
                    let isDefault = HTMLReport.isDefault(entry.key)
                    return Row(key: entry.key, label: "\(isDefault ? "★ " : "")\(names[index]): \(entry.label)", request: index,
                               ratios: entry.samples.map { $0 / fastest }, ratio: entry.point.scaled(by: 1 / fastest), seconds: entry.point.median, isDefault: isDefault)
                }
            }
            return Panel(video: video, requests: names, rows: rows)
        }
    }
}
