import Filmstrip
import Foundation

/// The table printed after a run, read like hyperfine's: per request (video, count, size,
/// accuracy, options), the pipelines ordered by median wall time, each with its spread
/// (min … max, the median's 95 % interval, n) and its speed relative to the fastest with an
/// error ("1.52 ± 0.04× slower"), in µs, ms or s; a warning where n is too small to rank.
package enum FastestTable {
    /// Below this many runs a configuration's median has no 95 % interval (the order
    /// statistics cannot reach it), so a ranking says nothing: the table warns.
    package static let minimumRankableRuns = 6

    /// Text for the `wall_s` summary rows of the `total` phase (pipelines), the `peer` phase
    /// (whole processes: peers and `filmstrip strip`) and the `compose` phase on synthetic
    /// thumbnails; at most `limit` pipelines per request. `raw` (the run's rows) gives each
    /// configuration's maximum, which the summary does not keep; without it the p90 stands in.
    /// The requests on `leadingVideos` (the user's own, in the order given) come first, the
    /// others (reference and synthetic) after them in the order of their titles.
    package static func text(_ summary: [SummaryRow], raw: [RawResultRow] = [], limit: Int = 6, leadingVideos: [String] = []) -> String {
        let rows = rankedRows(summary)
        // Mean user and system CPU time beside the wall time, as hyperfine gives them.
        var cpu: [Metric: [ConfigurationKey: Double]] = [:]
        for row in summary where row.metric == .cpuUserSeconds || row.metric == .cpuSysSeconds {
            cpu[row.metric, default: [:]][row.configurationKey] = row.mean
        }
        // Interactive and sprite runs have no strip to rank: their rows are for `report` and `compare`.
        guard !rows.isEmpty else { return "no strip pipelines or whole processes to rank in this run (see `filmstrip report`)" }
        var maxima: [ConfigurationKey: Double] = [:]
        for row in raw where row.build != .baseline && row.status == .ok {
            guard let wall = row.wallSeconds else { continue }
            maxima[row.configurationKey] = Swift.max(maxima[row.configurationKey] ?? wall, wall)
        }
        let groups = Dictionary(grouping: rows) { row -> String in
            let key = row.configurationKey
            // Whole-process rows (peers and filmstrip's own CLI) share one group per request.
            let options = key.phase == .peer ? "" : key.options.keeping([.threads]).cell
            return ["\(FileSystemName.display(key.videoID)) ×\(key.thumbnailCount) \(key.thumbWidth)x\(key.thumbHeight)", key.accuracy.description, key.phase.rawValue,
                    options.isEmpty ? "" : "[\(options)]"].filter { !$0.isEmpty }.joined(separator: " ")
        }
        var lines = ["fastest pipelines by median wall time: median (min … max, 95 % interval of the median, n), speed against the fastest;",
                     "below each, the wall time's mean ± standard deviation and the mean user and system CPU time"]
        var fewest = Int.max
        let rank = Dictionary(leadingVideos.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func leading(_ title: String) -> Int { rank[groups[title]![0].configurationKey.videoID] ?? rank.count }
        for title in groups.keys.sorted(by: { (leading($0), $0) < (leading($1), $1) }) {
            let ranked = groups[title]!.sorted { $0.median < $1.median }
            let best = ranked[0]
            let width = ranked.map { label($0).count }.max() ?? 0
            lines.append(title)
            // The default pipeline is always listed, wherever it ranks.
            let listed = Array(ranked.prefix(limit)) + ranked.dropFirst(limit).filter { $0.configurationKey.pipeline == .stripDefault }
            for row in listed {
                let name = label(row).padding(toLength: width, withPad: " ", startingAt: 0)
                let high = maxima[row.configurationKey] ?? row.p90
                let interval = row.n >= minimumRankableRuns ? ", CI \(ReadableSeconds.text(row.ciLow))–\(ReadableSeconds.text(row.ciHigh))" : ""
                let spread = "(\(ReadableSeconds.text(row.min)) … \(ReadableSeconds.text(high))\(interval), n=\(row.n))"
                lines.append("  \(name)  \(ReadableSeconds.text(row.median).rightAligned(width: 9))  \(spread)  \(relative(row, to: best, next: ranked.dropFirst().first))")
                let user = cpu[.cpuUserSeconds]?[row.configurationKey], system = cpu[.cpuSysSeconds]?[row.configurationKey]
                lines.append(String(repeating: " ", count: width + 4) + meanLine(row, user: user, system: system))
                fewest = Swift.min(fewest, row.n)
            }
            if ranked.count > listed.count { lines.append("  … \(ranked.count - listed.count) more in the summary file") }
        }
        if fewest < minimumRankableRuns, fewest != .max {
            lines.append("warning: only \(fewest) run(s) per configuration: too few to rank these (the median's 95 % interval needs "
                + "\(minimumRankableRuns)); use --repetitions \(minimumRankableRuns) or more")
        }
        return lines.joined(separator: "\n")
    }

    /// The `wall_s` summary rows the table ranks: the `total` phase (pipelines), the `peer`
    /// phase (whole processes) and the `compose` phase on synthetic thumbnails.
    static func rankedRows(_ summary: [SummaryRow]) -> [SummaryRow] {
        summary.filter { row in
            row.metric == .wallSeconds
                && (row.configurationKey.phase == .total || row.configurationKey.phase == .peer
                    || (row.configurationKey.phase == .compose
                        && [.syntheticComposition, .memcpyFloor].contains(row.configurationKey.kind)))
        }
    }

    /// `mean 13.1 ms ± 0.40 ms  user 10.2 ms  sys 2.10 ms` (σ only from two runs on).
    static func meanLine(_ row: SummaryRow, user: Double?, system: Double?) -> String {
        let deviation = row.n > 1 ? " ± \(ReadableSeconds.text(row.stddev))" : ""
        return "mean \(ReadableSeconds.text(row.mean))\(deviation)"
            + (user.map { "  user \(ReadableSeconds.text($0))" } ?? "") + (system.map { "  sys \(ReadableSeconds.text($0))" } ?? "")
    }

    /// "fastest" only where the best median's 95 % interval lies wholly below the next one's,
    /// else "indistinguishable from the next" (a second run named another winner where the
    /// intervals overlapped, issue 44); for the others the ratio of medians with its error, e.g.
    /// `1.52 ± 0.04× slower`, and "indistinguishable" where its interval overlaps the best's.
    /// The error is the ratio's spread from each median's standard error (1.2533 × the scaled
    /// MAD / √n), combined as relative errors are. Below ``minimumRankableRuns`` a median has no
    /// interval, so nothing is told apart.
    static func relative(_ row: SummaryRow, to best: SummaryRow, next: SummaryRow?) -> String {
        guard row.configurationKey != best.configurationKey else {
            guard let next else { return "fastest" }
            return clearlyBelow(best, next) ? "fastest" : "indistinguishable from the next"
        }
        guard best.median > 0 else { return "" }
        let ratio = row.median / best.median
        func relativeError(_ row: SummaryRow) -> Double {
            row.median > 0 && row.n > 0 ? 1.2533 * row.madScaled / Double(row.n).squareRoot() / row.median : 0
        }
        let error = ratio * (relativeError(row) * relativeError(row) + relativeError(best) * relativeError(best)).squareRoot()
        let errorText = row.n > 1 && best.n > 1 ? String(format: " ± %.2f", error) : ""
        return String(format: "%.2f", ratio) + errorText + "× slower" + (clearlyBelow(best, row) ? "" : ", indistinguishable")
    }

    /// Whether `lower`'s median interval lies wholly below `higher`'s (both with enough runs for one).
    static func clearlyBelow(_ lower: SummaryRow, _ higher: SummaryRow) -> Bool {
        lower.n >= minimumRankableRuns && higher.n >= minimumRankableRuns && lower.ciHigh < higher.ciLow
    }

    /// The pipeline, plus the options that tell same-named rows apart (workers, skipping).
    package static func label(_ row: SummaryRow) -> String {
        let key = row.configurationKey
        let distinguishing = key.options.keeping([.workers, .skipNonReference, .skipLoopFilter]).filter { $0.value != "0" && $0.value != "auto" }
        return distinguishing.isEmpty ? key.pipeline.description : "\(key.pipeline) [\(distinguishing)]"
    }
}

/// Seconds for people: µs, ms or s with three significant digits.
package enum ReadableSeconds {
    /// `value` seconds as e.g. `13.9 ms`, `812 µs`, `1.52 s`.
    package static func text(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let (scaled, unit): (Double, String) = abs(value) < 1e-3 ? (value * 1e6, "µs") : abs(value) < 1 ? (value * 1e3, "ms") : (value, "s")
        let digits = abs(scaled) >= 100 ? 0 : abs(scaled) >= 10 ? 1 : 2
        return String(format: "%.\(digits)f", scaled) + " " + unit
    }
}

extension String {
    /// Right-aligned in `width` characters.
    package func rightAligned(width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
