import FilmstripResults
import Foundation

/// The page's last part: a section per configuration, anchored at `#config-<id>`, which every
/// table and chart above links to. Each holds the repetitions' distribution per run, the
/// latest run's median with its interval and n, CPU time and peak memory, the work counters,
/// whether the strips agree, and the change since the run before.
extension HTMLReport {
    var configurationsSection: String {
        let byKey = Dictionary(grouping: rows, by: \.configurationKey)
        guard !byKey.isEmpty else { return "" }
        let changes = previousChanges
        let allRuns = TrendAnalysis.orderedRuns(of: rows)
        // Per video: totals first, then by count, the default pipeline first among equals.
        let keys = byKey.keys.sorted { lhs, rhs in
            (lhs.videoID, lhs.phase == .total ? 0 : 1, lhs.thumbnailCount, lhs.accuracy, Self.isDefault(lhs) ? 0 : 1, lhs.description)
                < (rhs.videoID, rhs.phase == .total ? 0 : 1, rhs.thumbnailCount, rhs.accuracy, Self.isDefault(rhs) ? 0 : 1, rhs.description)
        }
        var html = "<h2>Configurations</h2>\n<p>\(keys.count) configurations, by video, folded: open a video, then a configuration "
            + "(every link on the page opens the one it names). Each shows every run's "
            + "repetitions (box: quartiles, tick: median, whisker: range, dots: repetitions), the latest run's median with its 95 % interval, "
            + "the work counters, checksum agreement and the change since the run before\(changes.title.isEmpty ? "" : " (\(HTMLText.escape(changes.title)))"), "
            + "each change named by its metric.</p>\n"
        var byVideo: [(video: String, keys: [ConfigurationKey])] = []
        for key in keys {
            if byVideo.last?.video == key.videoID { byVideo[byVideo.count - 1].keys.append(key) } else { byVideo.append((key.videoID, [key])) }
        }
        for (video, videoKeys) in byVideo {
            let label = ConfigurationLabeler(videoKeys).fullLabel
            html += "<details class=\"video\"><summary>Video \(HTMLText.escape(video.isEmpty ? "(none)" : video)): \(videoKeys.count) configuration(s)</summary>\n"
            for key in videoKeys {
                html += configurationSection(key, label: label(key), rows: byKey[key]!, allRuns: allRuns, changes: changes.byKey[key] ?? [])
            }
            html += "</details>\n"
        }
        return html
    }

    /// Each configuration's change against the run before: a history's latest run against the
    /// one before, else the gate's comparison of two builds or two files.
    private var previousChanges: (title: String, byKey: [ConfigurationKey: [ConfigurationComparison]]) {
        let titled: [(String, GateReport)] = histories.isEmpty ? gateReports
            : histories.map { ("\(machinePrefix($0.machine))latest run against the one before", $0.latestAgainstPrevious) }
        var byKey: [ConfigurationKey: [ConfigurationComparison]] = [:]
        for (_, report) in titled {
            // One report's metrics per configuration (the first report that has it).
            for (key, entries) in Dictionary(grouping: report.comparisons, by: \.key) where byKey[key] == nil { byKey[key] = entries }
        }
        return (titled.map(\.0).joined(separator: "; "), byKey)
    }

    /// `allRuns`: every run in the files, so that a run is labelled alike in every section.
    /// `label`: the configuration told apart from the others of its video, for the folded line.
    private func configurationSection(_ key: ConfigurationKey, label: String, rows keyRows: [RawResultRow], allRuns: [TrendRun],
                                      changes: [ConfigurationComparison]) -> String {
        let present = Set(keyRows.map(TrendAnalysis.RunKey.init))
        let runs = allRuns.filter { present.contains(TrendAnalysis.RunKey($0)) }
        let perRun = Self.samplesPerRun(keyRows, runs: runs)
        let manyMachines = Set(keyRows.map(\.run.machine.name)).count > 1
        var html = "<section id=\"\(Self.anchor(key))\" class=\"configuration\">\n<h4>\(HTMLText.escape(key.description))"
            + (Self.isDefault(key) ? " <small>(the default pipeline)</small>" : "") + "</h4>\n"
        var summary = HTMLText.escape(label) + (Self.isDefault(key) ? " <small>(default)</small>" : "")
        if !perRun.isEmpty {
            let boxRows = perRun.map { run, samples in
                let machine = manyMachines ? keyRows.first { TrendAnalysis.RunKey($0) == TrendAnalysis.RunKey(run) }.map { "\($0.run.machine.name): " } ?? "" : ""
                return BoxChart.Row(label: machine + Self.runLabel(run), samples: samples,
                                    note: "median \(ReadableSeconds.text(Quantile.median(samples))), n \(samples.count)")
            }
            html += BoxChart(title: "Wall time of each repetition, per run", axisTitle: "wall time (log scale)", rows: boxRows,
                             width: 760, labelWidth: 230, noteWidth: 170, tickFormat: ReadableSeconds.text, minimumDecades: 0.05).svg
        }
        var facts: [String] = []
        let latestRun = runs.last.map(TrendAnalysis.RunKey.init)
        let latest = keyRows.filter { TrendAnalysis.RunKey($0) == latestRun }
        let succeeded = latest.filter { $0.status == .ok }
        let runText = runs.count > 1 ? "latest run (\(HTMLText.escape(runs.last.map(Self.runLabel) ?? "")))" : "run"
        if let point = PlotPoint(samples: succeeded.compactMap(\.wallSeconds)) {
            facts.append("\(runText): median \(ReadableSeconds.text(point.median)), 95 % CI \(ReadableSeconds.text(point.low)) … \(ReadableSeconds.text(point.high)), n = \(succeeded.count)")
            summary += " · median \(ReadableSeconds.text(point.median)), n \(succeeded.count)"
        } else {
            facts.append("\(runText): no successful repetition")
        }
        let failed = latest.filter { $0.status != .ok }
        if let first = failed.first {
            facts.append("\(failed.count) repetition(s) \(HTMLText.escape(first.status.rawValue)): \(HTMLText.escape(HTMLText.shortened(first.error, to: 200)))")
        }
        let cpu = succeeded.compactMap { row in row.cpuUserSeconds.map { $0 + (row.cpuSysSeconds ?? 0) } }
        let memory = succeeded.compactMap(\.peakRSSBytes).map(Double.init)
        if !cpu.isEmpty || !memory.isEmpty {
            facts.append([cpu.isEmpty ? nil : "CPU time (user + system) median \(ReadableSeconds.text(Quantile.median(cpu)))",
                          memory.isEmpty ? nil : "peak RSS median \(HTMLText.mebibytes(Quantile.median(memory)))"].compactMap { $0 }.joined(separator: "; "))
        }
        if let counters = Self.counterText(succeeded) { facts.append("work counters: \(counters)") }
        facts.append(Self.checksumText(succeeded))
        if !changes.isEmpty {
            let level = Int(gate.level * 100)
            facts.append("change since the run before: " + changes.map { change in
                "\(Self.metricName(change.metric, normalisedBy: change.normalisedBy)) \(HTMLText.percent(change.ratio)) "
                    + "(\(level) % CI \(HTMLText.percent(change.ratioLow)) … \(HTMLText.percent(change.ratioHigh)), n \(change.count)), "
                    + "<span class=\"\(change.verdict.rawValue)\">\(change.verdict.rawValue)\(change.gated ? "" : " (sub-phase)")</span>"
            }.joined(separator: "; "))
            let verdict = GateReport.verdict(of: changes)
            summary += " · <span class=\"\(verdict.rawValue)\">\(verdict.rawValue)</span>"
        } else if perRun.count >= 2, let last = perRun.last, let before = perRun.dropLast().last {
            facts.append("change since the run before: wall time \(HTMLText.percent(Quantile.median(last.samples) / Quantile.median(before.samples))) (medians)")
        }
        html += "<ul>" + facts.map { "<li>\($0)</li>" }.joined() + "</ul>\n"
        if perRun.count >= ReportHistory.minimumRuns {
            let history = histories.first { history in keyRows.contains { $0.run.machine.name == history.machine } }
            html += runMedianChart(key, title: "Median per run", rows: keyRows, history: history)
        }
        return "<details class=\"configuration\"><summary>\(summary)</summary>\n" + html + "</section>\n</details>\n"
    }

    /// The work counters of `rows`: one value where every repetition gave the same (they
    /// should: the counts depend on the request, not the machine), else the range.
    static func counterText(_ rows: [RawResultRow]) -> String? {
        let counters: [(String, (RawResultRow) -> Int?)] = [
            ("frames decoded", \.framesDecoded), ("packets read", \.packetsRead), ("bytes read", \.bytesRead),
            ("seeks", \.seeks), ("heap allocations", \.heapAllocations), ("instructions", \.instructions),
        ]
        let parts = counters.compactMap { name, value -> String? in
            let values = rows.compactMap(value)
            guard let low = values.min(), let high = values.max() else { return nil }
            return low == high ? "\(name) \(low)" : "\(name) \(low) … \(high) (differ between repetitions)"
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Whether the strips agree: one checksum across the repetitions, and the same pixels as
    /// the first strip of the same request (`disagreement`), with the largest frame error.
    static func checksumText(_ rows: [RawResultRow]) -> String {
        let checksums = Set(rows.map(\.checksum).filter { !$0.isEmpty })
        guard let checksum = checksums.first else { return "checksum: none recorded (this phase makes no strip)" }
        let disagreeing = rows.filter(\.disagreement).count
        let frameError = rows.compactMap(\.maxFrameError).max()
        var text = checksums.count == 1 ? "checksum \(HTMLText.escape(String(checksum.prefix(16)))) in all \(rows.count) repetitions"
            : "<span class=\"slower\">\(checksums.count) different checksums</span> among \(rows.count) repetitions"
        text += disagreeing == 0 ? "; agrees with the first strip of the same request"
            : "; <span class=\"slower\">\(disagreeing) repetition(s) disagree</span> with the first strip of the same request"
        if let frameError { text += "; largest frame error \(frameError)" }
        return text
    }
}
