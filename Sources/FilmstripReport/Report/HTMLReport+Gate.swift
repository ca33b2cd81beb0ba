import FilmstripResults
import Foundation

/// The gate on the page: which comparisons are made, the one verdict that leads the page, and
/// the A/B section (a table in readable units, the rest of the rows folded away, a forest plot).
extension HTMLReport {
    /// A metric in words: `wall time`, `CPU time`, `instructions`; over a calibration when normalised.
    static func metricName(_ metric: Metric, normalisedBy calibration: CalibrationKind? = nil) -> String {
        let name = Judge.metricName(metric)
        return calibration.map { "\(name) / \($0.rawValue) calibration" } ?? name
    }

    /// A measured value in its unit with three significant figures: `95.0 µs`, `12.3 ms`,
    /// `45.6 M` instructions, `1.23×` a calibration; never `9.5e-05`.
    static func measurement(_ value: Double, metric: Metric, normalised: Bool) -> String {
        guard value.isFinite else { return "–" }
        if normalised { return String(format: "%.3g×", value) }
        if metric.isTime { return ReadableSeconds.text(value) }
        for (scale, unit) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] where abs(value) >= scale {
            return String(format: "%.3g %@", value / scale, unit)
        }
        return String(format: "%.3g", value)
    }

    /// The verdict once, then one line per gate (its outcome without the verdict's word) and
    /// the configurations it names.
    var gateVerdict: String {
        let reports = gateReports
        guard !reports.isEmpty else { return "" }
        let outcome = Judgement.overallOutcome(judgements.filter { $0.gateReport != nil })
        let word = Judgement.word(outcome)
        var html: String
        if reports.count == 1 {
            html = "<p class=\"verdict \(word)\">\(HTMLText.escape(reports[0].1.outcomeLine))</p>\n<p class=\"sources\">Judged on \(HTMLText.escape(reports[0].0)).</p>\n"
        } else {
            html = "<p class=\"verdict \(word)\">\(word) (exit \(outcome.exitCode)) over \(reports.count) gates:</p>\n<ul>"
            for (title, report) in reports {
                let line = report.outcomeLine
                let detail = line.firstIndex(of: ":").map { String(line[line.index(after: $0)...]).trimmingCharacters(in: .whitespaces) } ?? line
                let tag = line.prefix { $0 != ":" }
                html += "<li><strong>\(HTMLText.escape(title))</strong>: <span class=\"\(tag == "passed" ? "same" : "slower")\">\(tag == "passed" ? "✓" : HTMLText.escape(String(tag)))</span> \(HTMLText.escape(detail))</li>"
            }
            html += "</ul>\n"
        }
        for (_, report) in reports {
            let lines = report.headlineLines.dropFirst()
            if !lines.isEmpty {
                html += "<ul>" + lines.prefix(20).map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>\n"
            }
        }
        return html
    }

    /// Rows of the A/B table shown before the rest is folded away.
    static let abTableLimit = 12

    var gateSection: String {
        let reports = gateReports
        guard !reports.isEmpty else { return "" }
        var html = "<h2>A/B comparison</h2>\n<p>Each gate's comparisons, changed configurations first, then the largest moves; the verdict is at the top of the page. "
            + "Medians in their unit (wall and CPU time in µs, ms or s; instructions in k, M, G; separate runs in multiples of their repetition's calibration); "
            + "change: candidate / baseline with its interval. Sub-phases (extract, compose of a pipeline with a total) are shown, not gated.</p>\n"
        for (title, report) in reports {
            html += "<h3>\(HTMLText.escape(title))</h3>\n"
            if !report.warnings.isEmpty {
                html += "<ul>" + report.warnings.prefix(10).map { "<li>⚠ \(HTMLText.escape($0))</li>" }.joined() + "</ul>\n"
            }
            guard !report.comparisons.isEmpty else { continue }
            html += abTables(report)
            for change in report.workChanges.prefix(20) {
                html += "<p>work changed: \(HTMLText.escape(change.key.description)): \(HTMLText.escape(change.counter.rawValue)) \(change.baseline) → \(change.candidate)</p>\n"
            }
            html += forestPlot(report)
        }
        return html
    }

    /// The first ``abTableLimit`` rows in a table, the rest in a second one folded under a summary.
    private func abTables(_ report: GateReport) -> String {
        let ordered = GateChartData.ordered(report.comparisons)
        let label = ConfigurationLabeler(ordered.map(\.key)).fullLabel
        let severalMetrics = Set(ordered.map(\.metric)).count > 1
        let level = "\(Int(report.gate.level * 100)) % CI"
        let header = "<table class=\"ab\"><tr><th>configuration</th>" + (severalMetrics ? "<th>metric</th>" : "")
            + "<th>baseline</th><th>candidate</th><th>change</th><th>\(level)</th><th>n</th><th>verdict</th></tr>\n"
        let columns = severalMetrics ? 8 : 7
        func row(_ comparison: ConfigurationComparison) -> String {
            let verdict = comparison.verdict.rawValue
            let note = comparison.gated ? "" : comparison.key.kind.isReference ? " (reference)" : " (sub-phase)"
            let normalised = comparison.normalisedBy != nil
            var cells = ["<td><span title=\"\(HTMLText.escape(comparison.key.description))\">\(Self.link(comparison.key, label(comparison.key)))</span> <code>#\(comparison.key.configID)</code></td>"]
            if severalMetrics { cells.append("<td>\(HTMLText.escape(Self.metricName(comparison.metric)))</td>") }
            cells += [Self.measurement(comparison.baselineMedian, metric: comparison.metric, normalised: normalised),
                      Self.measurement(comparison.candidateMedian, metric: comparison.metric, normalised: normalised),
                      HTMLText.percent(comparison.ratio),
                      "\(HTMLText.percent(comparison.ratioLow)) … \(HTMLText.percent(comparison.ratioHigh))",
                      "\(comparison.count)"].map { "<td class=\"n\">\($0)</td>" }
            cells.append("<td class=\"\(verdict)\">\(verdict)\(note)</td>")
            var html = "<tr>" + cells.joined() + "</tr>\n"
            if !comparison.attribution.isEmpty {
                html += "<tr><td colspan=\"\(columns)\">functions: \(HTMLText.escape(comparison.attribution.map(\.text).joined(separator: ", ")))</td></tr>\n"
            }
            return html
        }
        var html = header + ordered.prefix(Self.abTableLimit).map(row).joined() + "</table>\n"
        if ordered.count > Self.abTableLimit {
            html += "<details><summary>The other \(ordered.count - Self.abTableLimit) comparisons</summary>\n" + header
                + ordered.dropFirst(Self.abTableLimit).map(row).joined() + "</table>\n</details>\n"
        }
        return html
    }

    /// The gate's chart (``GateChartData``, the one `plot` draws too) as SVG.
    private func forestPlot(_ report: GateReport) -> String {
        let data = GateChartData(report, limit: 60)
        let chartRows = data.rows.map { row in
            DotChart.Row(label: row.label, point: row.point,
                         note: "\(HTMLText.percent(row.point.median)) \(row.verdict.rawValue)\(row.gated ? "" : " (sub-phase)")",
                         series: [3, 2, 5, 7][GateChartData.verdicts.firstIndex(of: row.verdict) ?? 3])
        }
        var html = DotChart(title: data.title, axisTitle: "ratio candidate / baseline (log scale); red slower, green faster, orange undecided, grey same",
                            rows: chartRows, reference: 1, band: data.band, visibleRange: 0.25...4).svg
        if let note = data.truncationNote { html += "<p>The chart shows \(note).</p>\n" }
        return html
    }
}
