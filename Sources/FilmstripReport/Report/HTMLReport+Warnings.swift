import FilmstripResults
import Foundation

extension HTMLReport {
    /// What `bench` warned of, computed again from the rows so that the page keeps it: the wide
    /// spread of wall times (the same line bench prints, ``WideSpread``) and each sample warning
    /// of the summary (few samples, a slow first run, outliers, runs too short to time),
    /// machine by machine over the runs the page describes. A ranking or a verdict read
    /// without these claims more certainty than the data has.
    var warningsSection: String {
        var items: [String] = []
        for machine in machines {
            let summary = SummaryRow.summarize(currentRows.filter { $0.run.machine.name == machine }, metrics: [.wallSeconds])
            let prefix = machinePrefix(machine)
            if let wide = WideSpread.warning(summary) {
                items.append(prefix + wide.replacingOccurrences(of: "bench: warning: ", with: ""))
            }
            for (token, keys) in Self.sampleWarnings(summary) {
                let label = ConfigurationLabeler(keys).fullLabel
                let named = keys.prefix(5).map(label).joined(separator: ", ") + (keys.count > 5 ? ", and \(keys.count - 5) more" : "")
                items.append("\(prefix)\(token) in \(keys.count) configuration(s): \(named) — \(Self.sampleWarningMeaning[token] ?? "")")
            }
        }
        guard !items.isEmpty else { return "" }
        return "<h2>Warnings</h2>\n<p>As <code>bench</code> warned of them, from the rows (wall time):</p>\n<ul>"
            + items.map { "<li>⚠ \(HTMLText.escape($0))</li>" }.joined() + "</ul>\n"
    }

    /// What each summary warning means for the reader, in the order they are listed.
    static let sampleWarningMeaning: [String: String] = [
        "few_samples": "fewer repetitions than a median interval needs: these are not ranked",
        "slow_first_run": "the first repetition was much slower (a cold cache or a warm-up): it is kept in the medians",
        "outliers": "samples far from the others (modified z-score above 3.5): a busy machine or a stall",
        "too_short": "medians under 5 ms: timer and process start-up noise are a large share",
    ]

    /// The configurations of each kind of sample warning, kinds in a fixed order.
    static func sampleWarnings(_ summary: [SummaryRow]) -> [(String, [ConfigurationKey])] {
        var byToken: [String: [ConfigurationKey]] = [:]
        for row in summary {
            for warning in row.warnings {
                let token = if case .outliers = warning { "outliers" } else { warning.description }
                byToken[token, default: []].append(row.configurationKey)
            }
        }
        return ["few_samples", "slow_first_run", "outliers", "too_short"].compactMap { token in byToken[token].map { (token, $0) } }
    }
}
