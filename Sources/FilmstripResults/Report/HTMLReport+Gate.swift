import Foundation

/// The gate on the page: which comparisons are made, the one verdict that leads the page, and
/// the A/B section (a table in readable units, the rest of the rows folded away, a forest plot).
extension HTMLReport {
    /// The gate's reports: the paired comparison of each file holding both builds; otherwise,
    /// for exactly two files of one machine, the second run against the first. A file measured
    /// under callgrind is judged on its instruction counts; a file with `bench --until-decided`'s
    /// recorded settings (`NAME-gate.json`) on those, as `compare` does; else on `gate`'s metrics.
    static func gateReports(sources: [String], rowsByFile: [[RawResultRow]], gate: RegressionGate, threshold: Double?) -> [(String, GateReport)] {
        var reports: [(String, GateReport)] = []
        for (path, fileRows) in zip(sources, rowsByFile) where fileRows.contains(where: { $0.build == .baseline }) && fileRows.contains(where: { $0.build == .candidate }) {
            var fileGate = gate
            if RegressionGate.automaticMetric(for: fileRows) == .instructions {
                fileGate = RegressionGate(metric: .instructions, threshold: threshold, level: gate.level)
            } else if let settings = try? GateSettings.read(besideRaw: path), fileRows.contains(where: { $0.run.runID == settings.runID }) {
                fileGate = settings.gate
                if let threshold { fileGate.threshold = threshold }
            }
            let report = fileGate.comparePaired(fileRows, path: path, profileRoot: URL(fileURLWithPath: path).deletingLastPathComponent().path)
            reports.append(("\(metricsTitle(fileGate)), two builds in \(path)", report))
        }
        // Two machines' runs answer the hardware question instead (`hardwareSection`), unless they are one machine's.
        if reports.isEmpty && rowsByFile.count == 2 && !HardwareComparison.differentMachines(rowsByFile[0], rowsByFile[1]) {
            let report = gate.compareRuns(baseline: rowsByFile[0], candidate: rowsByFile[1], baselinePath: sources[0], candidatePath: sources[1])
            reports.append(("\(metricsTitle(report.gate)), \(sources[1]) against \(sources[0])", report))
        }
        return reports
    }

    /// `wall and CPU time`, `instruction counts`: what a gate judges, in words.
    static func metricsTitle(_ gate: RegressionGate) -> String {
        gate.metric == .instructions ? "instruction counts" : gate.metrics.map { metricName($0) }.joined(separator: " and ")
    }

    /// A metric in words: `wall time`, `CPU time`, `instructions`; over a calibration when normalised.
    static func metricName(_ metric: Metric, normalisedBy calibration: CalibrationKind? = nil) -> String {
        let name = switch metric {
        case .wallSeconds: "wall time"
        case .cpuSeconds: "CPU time"
        case .cpuAndBlockedSeconds: "CPU plus blocked time"
        case .cpuUserSeconds: "user CPU time"
        case .cpuSysSeconds: "system CPU time"
        case .instructions: "instructions"
        default: metric.rawValue
        }
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

    /// The most severe of the gates' outcomes: a slower configuration, then input that could
    /// not be judged, then undecided; passed only when every gate passed.
    static func overallOutcome(_ outcomes: [GateOutcome]) -> GateOutcome {
        if outcomes.contains(.regressed) { return .regressed }
        if let bad = outcomes.first(where: { if case .badInput = $0 { true } else { false } }) { return bad }
        return outcomes.contains(.undecided) ? .undecided : .passed
    }

    /// The verdict once, then one line per gate (its outcome without the verdict's word) and
    /// the configurations it names.
    var gateVerdict: String {
        let reports = gateReports
        guard !reports.isEmpty else { return "" }
        let outcome = Self.overallOutcome(reports.map(\.1.outcome))
        let word = switch outcome {
        case .passed: "passed"
        case .regressed: "regressed"
        case .undecided: "undecided"
        case .badInput: "bad input"
        }
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

    /// `comparisons` with changed ones first, then by the size of the change.
    static func ordered(_ comparisons: [ConfigurationComparison]) -> [ConfigurationComparison] {
        comparisons.sorted { lhs, rhs in
            ((lhs.verdict == .same ? 1 : 0), -abs(log(lhs.ratio))) < ((rhs.verdict == .same ? 1 : 0), -abs(log(rhs.ratio)))
        }
    }

    /// The first ``abTableLimit`` rows in a table, the rest in a second one folded under a summary.
    private func abTables(_ report: GateReport) -> String {
        let ordered = Self.ordered(report.comparisons)
        let label = Self.labeler(ordered.map(\.key))
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

    /// Candidate / baseline of each comparison (changed first) with its interval, on a log axis
    /// around the band the gate calls noise.
    private func forestPlot(_ report: GateReport) -> String {
        let ordered = Self.ordered(report.comparisons)
        let label = Self.labeler(ordered.map(\.key))
        let severalMetrics = Set(ordered.map(\.metric)).count > 1
        let verdicts: [Verdict] = [.slower, .faster, .undecided, .same]
        let chartRows = ordered.prefix(60).map { comparison in
            DotChart.Row(label: label(comparison.key) + (severalMetrics ? " · \(GateReport.metricName(comparison.metric))" : ""),
                         point: PlotPoint(median: comparison.ratio, low: comparison.ratioLow, high: comparison.ratioHigh),
                         note: "\(HTMLText.percent(comparison.ratio)) \(comparison.verdict.rawValue)\(comparison.gated ? "" : " (sub-phase)")",
                         series: [3, 2, 5, 7][verdicts.firstIndex(of: comparison.verdict) ?? 3])
        }
        let threshold = report.gate.threshold
        var html = DotChart(title: "Candidate / baseline with \(Int(report.gate.level * 100)) % intervals; shaded: the ±\(String(format: "%g", threshold * 100)) % band called noise",
                            axisTitle: "ratio candidate / baseline (log scale); red slower, green faster, orange undecided, grey same", rows: Array(chartRows),
                            reference: 1, band: (1 / (1 + threshold))...(1 + threshold), visibleRange: 0.25...4).svg
        if ordered.count > chartRows.count { html += "<p>The chart shows the first \(chartRows.count) of \(ordered.count) comparisons (changed ones first).</p>\n" }
        return html
    }
}
