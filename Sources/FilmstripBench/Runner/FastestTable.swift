/// The short table printed after a run: per request (video, count, size, accuracy,
/// options), the pipelines ordered by median wall time with their ratio to the fastest.
public enum FastestTable {
    /// Text for the `wall_s` summary rows of the `total` phase (pipelines), the `peer` phase
    /// (whole processes: peers and `filmstrip strip`) and the `compose` phase on synthetic
    /// thumbnails; at most `limit` pipelines per request.
    public static func text(_ summary: [SummaryRow], limit: Int = 6) -> String {
        let rows = summary.filter { row in
            row.metric == .wallSeconds
                && (row.configurationKey.phase == .total || row.configurationKey.phase == .peer
                    || (row.configurationKey.phase == .compose
                        && [.syntheticComposition, .memcpyFloor].contains(row.configurationKey.kind)))
        }
        let groups = Dictionary(grouping: rows) { row -> String in
            let key = row.configurationKey
            // Whole-process rows (peers and filmstrip's own CLI) share one group per request.
            let options = key.phase == .peer ? "" : KeyValueList.encode(key.options.filter { $0.key == "threads" })
            return ["\(key.videoID) ×\(key.thumbnailCount) \(key.thumbWidth)x\(key.thumbHeight)", key.accuracy, key.phase.rawValue,
                    options.isEmpty ? "" : "[\(options)]"].filter { !$0.isEmpty }.joined(separator: " ")
        }
        var lines = ["fastest pipelines by median wall time (ratio to the fastest):"]
        for title in groups.keys.sorted() {
            let ranked = groups[title]!.sorted { $0.median < $1.median }
            let best = ranked[0].median
            let width = ranked.prefix(limit).map { label($0).count }.max() ?? 0
            lines.append(title)
            for row in ranked.prefix(limit) {
                let name = label(row).padding(toLength: width, withPad: " ", startingAt: 0)
                let ratio = best > 0 ? row.median / best : 1
                lines.append("  \(name)  \(seconds(row.median))  \(String(format: "%.2f", ratio))×  (n=\(row.n))")
            }
            if ranked.count > limit { lines.append("  … \(ranked.count - limit) more in the summary file") }
        }
        return lines.joined(separator: "\n")
    }

    /// The pipeline, plus the options that tell same-named rows apart (workers, skipping).
    static func label(_ row: SummaryRow) -> String {
        let key = row.configurationKey
        let distinguishing = key.options.filter { ["workers", "skip-nonref", "skip-loop-filter"].contains($0.key) && $0.value != "0" && $0.value != "auto" }
        return distinguishing.isEmpty ? key.pipeline : "\(key.pipeline) [\(KeyValueList.encode(distinguishing))]"
    }

    /// Seconds with a unit that keeps three significant digits readable.
    static func seconds(_ value: Double) -> String {
        value < 0.001 ? String(format: "%7.1f µs", value * 1e6)
            : value < 1 ? String(format: "%7.2f ms", value * 1e3) : String(format: "%7.3f s ", value)
    }
}
