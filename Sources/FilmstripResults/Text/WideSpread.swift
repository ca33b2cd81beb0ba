import Filmstrip

/// Configurations whose wall times spread so widely that their median and their ranking are
/// uncertain, in the spirit of hyperfine's outlier warning: "wide" is a coefficient of
/// variation (standard deviation over mean) of the wall time above ``threshold``.
package enum WideSpread {
    /// σ / mean of the wall time above which the bench warns. Quiet runs of the quick suite on
    /// a 2-core machine stay near 1–5 % for the pipelines; another process sharing the cores
    /// easily doubles single runs.
    package static let threshold = 0.10
    /// Configurations named in the warning; the rest are counted.
    static let namedAtMost = 5

    /// One warning line naming the configurations (of the ranked rows, as ``FastestTable`` shows
    /// them) whose wall time spreads wider than the threshold, widest first; nil when none does.
    package static func warning(_ summary: [SummaryRow]) -> String? {
        let wide = FastestTable.rankedRows(summary)
            .filter { $0.n >= 3 && $0.mean > 0 && $0.stddev / $0.mean > threshold }
            .sorted { $0.stddev / $0.mean > $1.stddev / $1.mean }
        guard !wide.isEmpty else { return nil }
        let named = wide.prefix(namedAtMost).map { row in
            let key = row.configurationKey
            return "\(FastestTable.label(row)) on \(FileSystemName.display(key.videoID)) ×\(key.thumbnailCount) \(key.phase.rawValue) "
                + "(σ/mean \(Int((row.stddev / row.mean * 100).rounded())) %)"
        }
        let more = wide.count > namedAtMost ? ", and \(wide.count - namedAtMost) more" : ""
        return "bench: warning: wide spread (σ/mean of the wall time over \(Int(threshold * 100)) %) in \(wide.count) configuration(s): "
            + named.joined(separator: ", ") + more
            + "; their medians are uncertain: a quieter machine or more --repetitions helps, and CPU time spreads less"
    }
}
