import FilmstripResults
import Foundation

/// One machine's runs when the files hold three or more of them: the trend analysis over all
/// of them (`filmstrip trend`'s own code) and the gate's comparison of the latest run against
/// the one before it (`compare`'s separate-runs form).
struct ReportHistory: Sendable {
    /// Fewest runs of one machine that make a history section; two runs are the gate's.
    static let minimumRuns = 3

    var machine: String
    /// Oldest first.
    var runs: [TrendRun]
    /// The step search; its `trends` are empty below ``TrendAnalysis/minimumRuns``.
    var trend: MachineHistory?
    var stepSearchRuns: Int
    var latestAgainstPrevious: GateReport

    /// The rows a history is made of: the times of each run's code. A two-build run's baseline
    /// is another build measured in the same run, which its gate judges, not an earlier run; an
    /// instruction run has no times. So the two gate files of one CI run (instructions and
    /// times, both builds each) are one time run here, never four runs of a history.
    static func historyRows(_ rows: [RawResultRow]) -> [RawResultRow] {
        let instructionRuns = Set(rows.filter { $0.instructions != nil }.map(\.run.runID))
        return rows.filter { $0.build != .baseline && !instructionRuns.contains($0.run.runID) }
    }

    /// The histories in `rows`, one per machine name with at least ``minimumRuns`` runs
    /// (of ``historyRows(_:)``).
    static func histories(of allRows: [RawResultRow], gate: RegressionGate) -> [ReportHistory] {
        let analysis = TrendAnalysis()
        let rows = historyRows(allRows)
        return Dictionary(grouping: rows, by: \.run.machine.name).sorted { $0.key < $1.key }.compactMap { machine, machineRows in
            let runs = TrendAnalysis.orderedRuns(of: machineRows)
            guard runs.count >= minimumRuns else { return nil }
            let latest = TrendAnalysis.RunKey(runs[runs.count - 1]), previous = TrendAnalysis.RunKey(runs[runs.count - 2])
            let comparison = gate.compareRuns(baseline: machineRows.filter { TrendAnalysis.RunKey($0) == previous },
                                          candidate: machineRows.filter { TrendAnalysis.RunKey($0) == latest },
                                          baselinePath: HTMLReport.runLabel(runs[runs.count - 2]), candidatePath: HTMLReport.runLabel(runs[runs.count - 1]))
            return ReportHistory(machine: machine, runs: runs, trend: analysis.histories(of: machineRows).first,
                                 stepSearchRuns: analysis.minimumRuns, latestAgainstPrevious: comparison)
        }
    }

    /// One line on the step search: how many configurations were searched and what was found.
    var trendSummary: String {
        guard let trend, !trend.trends.isEmpty else {
            return "\(runs.count) runs are too few for the step search (filmstrip trend needs \(stepSearchRuns))"
        }
        let stepped = trend.trends.filter { !$0.steps.isEmpty }.count, up = trend.gatedEndingOnStepUp.count
        let normalised = trend.trends.contains(where: \.normalised) ? " (times over each repetition's calibration)" : ""
        return "step search over \(runs.count) runs: \(trend.trends.count) configurations searched\(normalised), \(stepped) with steps, \(up) ending on a step up"
    }

    /// The steps of `key`'s history, oldest first.
    func steps(of key: ConfigurationKey) -> [TrendStep] {
        trend?.trends.first { $0.key == key }?.steps ?? []
    }
}

extension HTMLReport {
    /// A run as a reader tells it apart: when it started, its commit, and the build in a two-build run.
    static func runLabel(_ run: TrendRun) -> String {
        let date = ISO8601DateFormatter.string(from: run.started, timeZone: TimeZone(identifier: "UTC")!,
                                               formatOptions: [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime])
        return "\(date.prefix(16)) \(run.commit.prefix(8))" + (run.build.map { " \($0.rawValue)" } ?? "")
    }

    /// Under the verdict: one paragraph per history, linking to its section.
    var historyVerdict: String {
        histories.map { history in
            let first = history.runs.first.map(Self.runLabel) ?? "", last = history.runs.last.map(Self.runLabel) ?? ""
            let machine = machines.count > 1 ? " of \(HTMLText.escape(history.machine))" : ""
            return "<p>History\(machine): \(history.runs.count) runs from \(HTMLText.escape(first)) to \(HTMLText.escape(last)). "
                + "Latest run against the one before: <span class=\"verdict\">\(HTMLText.escape(history.latestAgainstPrevious.outcomeLine))</span>; "
                + "\(HTMLText.escape(history.trendSummary)). <a href=\"#history\">History</a></p>\n"
        }.joined()
    }

    var historySection: String {
        guard !histories.isEmpty else { return "" }
        var html = "<h2>History across runs</h2>\n"
        html += "<p>Each configuration's median per run; steps by E-divisive means as <code>filmstrip trend</code> finds them "
            + "(docs/report.md); the latest run against the one before by the gate's separate-runs comparison.</p>\n"
        for history in histories {
            html += "<h3>\(HTMLText.escape(machinePrefix(history.machine)))\(history.runs.count) runs</h3>\n"
            html += "<table><tr><th>#</th><th>started (UTC), commit, build</th><th>run</th><th>rows</th></tr>\n"
            let rowCounts = Dictionary(grouping: rows.filter { $0.run.machine.name == history.machine }, by: TrendAnalysis.RunKey.init).mapValues(\.count)
            for (index, run) in history.runs.enumerated() {
                html += "<tr><td class=\"n\">\(index + 1)</td><td>\(HTMLText.escape(Self.runLabel(run)))</td><td>\(HTMLText.escape(run.runID))</td>"
                    + "<td class=\"n\">\(rowCounts[TrendAnalysis.RunKey(run)] ?? 0)</td></tr>\n"
            }
            html += "</table>\n<p><strong>Trend:</strong> \(HTMLText.escape(history.trendSummary)).</p>\n"
            let stepped = (history.trend?.trends ?? []).filter { !$0.steps.isEmpty }
            if !stepped.isEmpty {
                html += "<ul>"
                for trend in stepped.prefix(30) {
                    for step in trend.steps {
                        html += "<li>\(Self.link(trend.key, trend.key.description)): \(HTMLText.percent(1 + step.relativeChange)) "
                            + "(\(HTMLText.percent(1 + step.low)) … \(HTMLText.percent(1 + step.high))) from \(HTMLText.escape(Self.runLabel(step.run)))</li>"
                    }
                }
                html += "</ul>\n"
            }
            html += latestChanges(history)
        }
        return html
    }

    /// The gate's comparison of the latest run with the one before: changed configurations
    /// first, then the largest moves, then the default pipeline's; and the medians across all
    /// runs of the configurations it lists, one small chart each.
    private func latestChanges(_ history: ReportHistory) -> String {
        let report = history.latestAgainstPrevious
        var html = "<p><strong>Latest run against the one before:</strong> <span class=\"verdict\">\(HTMLText.escape(report.outcomeLine))</span></p>\n"
        let moved = report.comparisons.sorted { lhs, rhs in
            ((lhs.verdict == .same ? 1 : 0), -abs(log(lhs.ratio))) < ((rhs.verdict == .same ? 1 : 0), -abs(log(rhs.ratio)))
        }
        let listed = Array(moved.prefix(12)) + moved.dropFirst(12).filter { Self.isDefault($0.key) && $0.key.phase == .total }
        guard !listed.isEmpty else { return html }
        let label = ConfigurationLabeler(listed.map(\.key)).fullLabel
        html += "<table><tr><th>configuration</th><th>change</th><th>\(Int(gate.level * 100)) % CI</th><th>n</th><th>verdict</th></tr>\n"
        for comparison in listed {
            let verdict = comparison.verdict.rawValue
            html += "<tr><td title=\"\(HTMLText.escape(comparison.key.description))\">\(Self.link(comparison.key, label(comparison.key)))</td><td class=\"n\">\(HTMLText.percent(comparison.ratio))</td>"
                + "<td class=\"n\">\(HTMLText.percent(comparison.ratioLow)) … \(HTMLText.percent(comparison.ratioHigh))</td><td class=\"n\">\(comparison.count)</td>"
                + "<td class=\"\(verdict)\">\(verdict)</td></tr>\n"
        }
        html += "</table>\n<div class=\"multiples\">\n"
        let machineRows = rows.filter { $0.run.machine.name == history.machine }
        for comparison in listed.prefix(9) {
            html += runMedianChart(comparison.key, title: label(comparison.key), rows: machineRows.filter { $0.configurationKey == comparison.key }, history: history)
        }
        return html + "</div>\n"
    }

    /// The small chart of `key`'s median per run, linked to its section; empty below two runs.
    func runMedianChart(_ key: ConfigurationKey, title: String, rows keyRows: [RawResultRow], history: ReportHistory?) -> String {
        let perRun = Self.samplesPerRun(keyRows, runs: history?.runs ?? TrendAnalysis.orderedRuns(of: keyRows))
        let points = perRun.compactMap { run, samples in
            PlotPoint(samples: samples).map { RunMedianChart.Point(label: String(run.commit.prefix(7)), point: $0) }
        }
        guard points.count >= 2 else { return "" }
        let positions = perRun.map { TrendAnalysis.RunKey($0.run) }
        let steps = (history?.steps(of: key) ?? []).compactMap { step in
            positions.firstIndex(of: TrendAnalysis.RunKey(step.run)).map { (index: $0, slower: step.relativeChange > 0) }
        }
        let chart = RunMedianChart(title: title, points: points, steps: steps).svg
        return "<a href=\"#\(Self.anchor(key))\" title=\"\(HTMLText.escape(key.description))\">\(chart)</a>"
    }

    /// `keyRows`' successful wall times per run, in the order of `runs`; runs without any are left out.
    static func samplesPerRun(_ keyRows: [RawResultRow], runs: [TrendRun]) -> [(run: TrendRun, samples: [Double])] {
        let byRun = Dictionary(grouping: keyRows.filter { $0.status == .ok }, by: TrendAnalysis.RunKey.init)
            .mapValues { $0.compactMap(\.wallSeconds) }
        return runs.compactMap { run in
            byRun[TrendAnalysis.RunKey(run)].flatMap { $0.isEmpty ? nil : (run, $0) }
        }
    }
}
