import Filmstrip
import FilmstripResults
import Foundation

/// One self-contained HTML page about raw results files: the runs (machine, commit, suite),
/// the fastest pipelines per video and count, the peers, the gate's verdicts when two builds
/// (or two runs) are present, and charts drawn as inline SVG, so the page needs neither
/// gnuplot to make nor a network to show. Every string from the files is escaped
/// (`HTMLText.escape`): results files are untrusted input.
package struct HTMLReport: Sendable {
    /// Where each row came from, for the page's list of sources.
    package var sources: [String]
    package var rows: [RawResultRow]
    /// The command line's gate settings (`--threshold`); the rest the judge reads from the files.
    package var settings: JudgeSettings
    /// Rows per file, in the order given.
    var rowsByFile: [[RawResultRow]]
    /// Each machine's history, where the files hold three runs of it or more.
    let histories: [ReportHistory]
    /// The rows of each machine's latest run (the candidate of a two-build run): what the
    /// verdict, the tables and the charts describe; earlier runs are the history.
    let currentRows: [RawResultRow]
    /// What the files answer, judged once by ``Judge`` (as `compare` and `plot` judge them):
    /// read by the verdict, the hardware and A/B sections and every configuration's section.
    let judgements: [Judgement]

    /// The time gate a history's latest run is judged by against the one before (CPU and wall
    /// time, as `compare` judges two runs of one machine).
    var gate: RegressionGate { .elapsedAndCPU(threshold: settings.threshold) }

    /// The judgements that are gates, each with its title.
    var gateReports: [(String, GateReport)] {
        judgements.compactMap { judgement in judgement.gateReport.map { (judgement.title, $0) } }
    }

    /// Reads the raw results files at `paths`, each once; `settings` are the command line's.
    package init(files paths: [String], settings: JudgeSettings = JudgeSettings()) throws(ResultsFileError) {
        var files: [RawResultsFile] = []
        for path in paths {
            let file = RawResultsFile(path: path)
            _ = try file.measurements.get()
            files.append(file)
        }
        self.init(files: files, settings: settings)
    }

    /// The page of rows already read (the tests' files in memory).
    init(sources: [String], rowsByFile: [[RawResultRow]], settings: JudgeSettings = JudgeSettings()) {
        self.init(files: zip(sources, rowsByFile).map { RawResultsFile(path: $0, rows: $1) }, settings: settings)
    }

    init(files: [RawResultsFile], settings: JudgeSettings) {
        self.sources = files.map(\.path)
        self.rowsByFile = files.map { (try? $0.measurements.get()) ?? [] }
        self.rows = rowsByFile.flatMap { $0 }
        self.settings = settings
        histories = ReportHistory.histories(of: rows, gate: .elapsedAndCPU(threshold: settings.threshold))
        // Machines by fingerprint id, runs in ``NewestRun``'s order, as the judge picks them.
        var latest: [String: TrendAnalysis.RunKey] = [:]
        for (machine, machineRows) in Dictionary(grouping: rows, by: \.run.machine.id) {
            latest[machine] = TrendAnalysis.orderedRuns(of: machineRows).last.map(TrendAnalysis.RunKey.init)
        }
        currentRows = rows.filter { latest[$0.run.machine.id] == TrendAnalysis.RunKey($0) }
        judgements = Judge.judgements(of: files, settings: settings)
    }

    /// How many rows per section the tables show before a "more" note.
    static let tableLimit = 6

    /// One part of the page: its anchor and title for the table of contents, and its HTML
    /// (which starts with its own `<h2>`).
    struct PageSection {
        var id: String
        var title: String
        var html: String
    }

    /// The page's sections in order: the answer, then the charts, then what was measured where
    /// (runs, suite), and the per-configuration detail last. A new section is a computed
    /// property in a file of its own (an extension of `HTMLReport`) and one entry here; an
    /// empty string leaves it out (and out of the table of contents).
    var sections: [PageSection] {
        let configurationCount = Set(rows.map(\.configurationKey)).count
        let parts: [(String, String, String)] = [
            ("hardware", "Hardware", hardwareSection), ("verdict", "Verdict", verdictSection), ("warnings", "Warnings", warningsSection), ("gate", "A/B comparison", gateSection),
            ("fastest", "Fastest pipelines", fastestSection), ("history", "History", historySection), ("peers", "Peers", peersSection),
            ("interactive", "Interactive", interactiveSection), ("memory", "Memory", memorySection), ("scaling", "Scaling", scalingSection),
            ("runs", "Runs", runsSection), ("suite", "Suite", suiteSection),
            ("configurations", "Configurations (\(configurationCount), collapsed)", configurationsSection),
        ]
        return parts.filter { !$0.2.isEmpty }.map { PageSection(id: $0.0, title: $0.1, html: $0.2) }
    }

    /// The table of contents: a link to each section, so a long page is read by jumping.
    static func tableOfContents(_ sections: [PageSection]) -> String {
        "<nav class=\"toc\" aria-label=\"Contents\"><strong>Contents:</strong> <ol>"
            + sections.map { "<li><a href=\"#\($0.id)\">\(HTMLText.escape($0.title))</a></li>" }.joined() + "</ol></nav>\n"
    }

    /// The anchor of a configuration's own section, which every table and chart links to.
    static func anchor(_ key: ConfigurationKey) -> String { "config-\(key.configID)" }

    /// `text` (escaped here) as a link to the configuration's section.
    static func link(_ key: ConfigurationKey, _ text: String) -> String {
        "<a href=\"#\(anchor(key))\">\(HTMLText.escape(text))</a>"
    }

    /// The default pipeline as a user gets it: its name with the cost model's workers, one
    /// codec thread and the loop filter kept.
    static func isDefault(_ key: ConfigurationKey) -> Bool {
        key.pipeline == .stripDefault && key.options.areStripDefaults
    }

    package var html: String {
        var body = "<h1>filmstrip benchmark report</h1>\n"
        body += "<p class=\"sources\">From \(sources.map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ")): \(rows.count) rows.</p>\n"
        let parts = sections
        body += Self.tableOfContents(parts)
        body += parts.map { "<section id=\"\($0.id)\">\n\($0.html)</section>\n" }.joined()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>filmstrip benchmark report</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
            table { border-collapse: collapse; margin: 0.5em 0 1.2em; }
            th, td { border-bottom: 1px solid #ddd; padding: 2px 8px; text-align: left; vertical-align: top; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            tr.group th { background: #f2f2f2; }
            svg.chart { max-width: 100%; height: auto; display: block; margin: 0.5em 0; font: 12px sans-serif; }
            svg .title { font-weight: bold; font-size: 13px; }
            svg .tick, svg .note { fill: #555; }
            ul.legend { list-style: none; padding: 0; columns: 2; font-size: 12px; }
            .slower { color: #b00; font-weight: bold; } .faster { color: #070; } .undecided { color: #b60; font-weight: bold; }
            .verdict { font-size: 1.15em; font-weight: bold; }
            p.note { color: #555; font-size: 12px; }
            section.configuration h4 { margin: 0.6em 0 0.2em; }
            section.configuration ul { margin: 0.2em 0; }
            section.configuration:target { background: #fff8dc; }
            div.multiples { display: flex; flex-wrap: wrap; gap: 6px; }
            svg.small { display: inline-block; margin: 0; }
            nav.toc { background: #f6f6f6; border: 1px solid #ddd; padding: 4px 10px; }
            nav.toc ol { display: inline; padding: 0; margin: 0; }
            nav.toc li { display: inline; margin-right: 1.2em; }
            details { margin: 0.3em 0; }
            details > summary { cursor: pointer; }
            details.video > summary { font-size: 1.1em; font-weight: bold; padding: 3px 0; }
            details.video { border-top: 1px solid #ccc; }
            details.configuration { margin-left: 1.2em; }
            details.configuration > summary { padding: 1px 0; }
            details.configuration[open] { border-left: 3px solid #ddd; padding-left: 6px; }
            section.configuration { scroll-margin-top: 2em; }
            p.verdict.passed { color: #070; } p.verdict.regressed, p.verdict.bad { color: #b00; } p.verdict.undecided { color: #b60; }
            </style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    // MARK: Verdict

    /// The answer first: the gate's outcome and the configurations it names (one line each),
    /// or, without two builds or two runs, the fastest pipeline per video and N and the default
    /// pipeline's place among them.
    var verdictSection: String {
        var html = "<h2>Verdict</h2>\n"
        html += gateVerdict
        if gateReports.isEmpty {
            let defaultName = Pipeline.default.name
            html += "<p>Fastest pipeline per video and N (phase <code>total</code>, median wall time), and where the default "
                + "pipeline <code>\(HTMLText.escape(defaultName))</code> stands.</p>\n"
            html += "<table><tr><th>video, N</th><th>fastest</th><th>median</th><th>default</th><th>default / fastest</th></tr>\n"
            var any = false
            for machine in machines {
                let total = currentRows.filter { $0.run.machine.name == machine && $0.phase == .total }
                let groups = Self.ranked(total) { key in "\(key.videoID) ×\(key.thumbnailCount) \(key.accuracy)" }
                for (title, entries) in groups {
                    guard let best = entries.first else { continue }
                    any = true
                    // The default's own settings, and (where both were measured) non-reference frames skipped.
                    let defaults = entries.indices.filter { Self.isDefault(entries[$0].key) }
                    let place = defaults.first { entries[$0].key.options.skipsNonReferenceFrames } ?? defaults.first
                    let defaultText = place.map { "\($0 + 1) of \(entries.count)" } ?? "not measured"
                    let ratio = place.map { best.point.median > 0 ? HTMLText.ratio(entries[$0].point.median / best.point.median) : "–" } ?? "–"
                    html += "<tr><td>\(HTMLText.escape(machinePrefix(machine) + title))</td><td>\(Self.link(best.key, best.label))</td>"
                        + "<td class=\"n\">\(ReadableSeconds.text(best.point.median))</td><td>\(defaultText)</td><td class=\"n\">\(ratio)</td></tr>\n"
                }
            }
            html += any ? "</table>\n" : "</table>\n<p>No pipeline rows in these files.</p>\n"
        }
        html += historyVerdict
        return html
    }

    // MARK: Runs and suite

    var runsSection: String {
        var runs: [String: (context: RunContext, rows: [RawResultRow])] = [:]
        var order: [String] = []
        for row in rows {
            if runs[row.run.runID] == nil { order.append(row.run.runID) }
            runs[row.run.runID, default: (row.run, [])].rows.append(row)
        }
        var html = "<h2>Runs</h2>\n<table><tr><th>run</th><th>machine</th><th>CPU</th><th>cores</th><th>memory</th><th>commit</th><th>build</th><th>Swift</th><th>FFmpeg</th><th>from … to (UTC)</th><th>rows</th></tr>\n"
        let dates = ISO8601DateFormatter()
        for id in order {
            let (context, runRows) = runs[id]!
            let machine = context.machine
            let times = runRows.map(\.timestamp)
            let span = [times.min(), times.max()].compactMap { $0 }.map { dates.string(from: $0) }.joined(separator: " … ")
            let commits = Set(runRows.map(\.executableCommit).filter { !$0.isEmpty && $0 != context.gitCommit })
            let commit = String(context.gitCommit.prefix(12)) + (context.gitDirty ? " (dirty)" : "")
                + (commits.isEmpty ? "" : "; executables \(commits.sorted().map { String($0.prefix(12)) }.joined(separator: ", "))")
            let ffmpeg = machine.ffmpegVersions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let cells = [id, machine.name, machine.cpuModel, "\(machine.logicalCores)", HTMLText.mebibytes(Double(machine.memoryBytes)),
                         commit, machine.buildConfiguration, machine.swiftVersion, ffmpeg, span, "\(runRows.count)"]
            html += "<tr>" + cells.map { "<td>\(HTMLText.escape($0))</td>" }.joined() + "</tr>\n"
        }
        return html + "</table>\n"
    }

    var suiteSection: String {
        var videos: [String: VideoDescription] = [:]
        for row in rows where row.kind.readsVideo && row.video.width > 0 { videos[row.video.id] = row.video }
        var html = "<h2>Suite</h2>\n"
        let counts = Set(rows.map(\.thumbnailCount)).sorted().map(String.init).joined(separator: ", ")
        let phases = Phase.allCases.filter { phase in rows.contains { $0.phase == phase } }.map(\.rawValue).joined(separator: ", ")
        let pipelines = Set(rows.filter { $0.phase == .total }.map(\.pipeline)).count
        html += "<p>\(videos.count) videos; thumbnail counts \(HTMLText.escape(counts)); phases \(HTMLText.escape(phases)); \(pipelines) pipelines timed end to end.</p>\n"
        if !videos.isEmpty {
            html += "<table><tr><th>video</th><th>codec</th><th>size</th><th>duration</th><th>frames</th><th>GOP</th></tr>\n"
            for video in videos.values.sorted(by: { $0.id < $1.id }) {
                let cells = [video.id, video.codec, "\(video.width)×\(video.height)", String(format: "%.1f s", video.durationSeconds), "\(video.frameCount)", "\(video.gop)"]
                html += "<tr>" + cells.map { "<td>\(HTMLText.escape($0))</td>" }.joined() + "</tr>\n"
            }
            html += "</table>\n"
        }
        let failed = rows.filter { $0.status != .ok }
        if !failed.isEmpty {
            let reasons = Dictionary(grouping: failed) { "\($0.status.rawValue): \($0.error)" }.mapValues(\.count)
            html += "<p>\(failed.count) rows did not succeed:</p><ul>"
            for (reason, count) in reasons.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }).prefix(8) {
                html += "<li>\(count) × \(HTMLText.escape(HTMLText.shortened(reason, to: 200)))</li>"
            }
            html += "</ul>\n"
        }
        return html
    }

    // MARK: Fastest pipelines

    /// A configuration's median and interval, with the label that tells it apart in its group.
    struct Ranked {
        var key: ConfigurationKey
        var label: String
        var point: PlotPoint
        /// The repetitions' wall times in seconds.
        var samples: [Double]
        var count: Int { samples.count }
    }

    /// Wall-time samples of `rows` per configuration, ranked by median within groups made by `group`.
    /// Labels tell configurations apart within their group.
    static func ranked(_ rows: [RawResultRow], group: (ConfigurationKey) -> String) -> [(String, [Ranked])] {
        let samples = Dictionary(grouping: rows.filter { $0.status == .ok && $0.wallSeconds != nil }, by: \.configurationKey)
            .mapValues { $0.compactMap(\.wallSeconds) }
        let grouped = Dictionary(grouping: samples.keys, by: group)
        return grouped.keys.sorted().map { title in
            let label = ConfigurationLabeler(grouped[title]!).fullLabel
            let entries = grouped[title]!.compactMap { key in
                PlotPoint(samples: samples[key]!).map { Ranked(key: key, label: label(key), point: $0, samples: samples[key]!) }
            }
            return (title, entries.sorted { ($0.point.median, $0.label) < ($1.point.median, $1.label) })
        }
    }

    var machines: [String] {
        var seen = Set<String>()
        return rows.map(\.run.machine.name).filter { seen.insert($0).inserted }
    }

    func machinePrefix(_ machine: String) -> String { machines.count > 1 ? "\(machine): " : "" }

    var fastestSection: String {
        var html = "<h3>Fastest pipelines per video and count: the table</h3>\n<p>Phase <code>total</code> (extract + compose) in one process, median wall time with its 95 % interval; ratio to the fastest of the group. "
            + "The default pipeline, <strong>\(HTMLText.escape(Pipeline.default.name))</strong>, is listed in every group, wherever it ranks; each name links to its configuration's section.</p>\n"
        var charts = ""
        for machine in machines {
            let total = currentRows.filter { $0.run.machine.name == machine && $0.phase == .total }
            guard !total.isEmpty else { continue }
            let requests = FastestChartData.requests(total)
            html += table(requests, prefix: machinePrefix(machine), listsDefault: true)
            charts += FastestChartData(requests).panels.map { Self.fastestChart($0, title: "\(machinePrefix(machine))\($0.video)") }.joined()
        }
        // The charts before the table: the page shows the answer, then pictures, then numbers.
        let pictures = charts.isEmpty ? "" : "<h3>Distribution of each pipeline's times relative to the fastest, per video and N</h3>\n"
            + "<p class=\"note\">★ and bold: the default pipeline. Each N has its colour; every label links to its configuration's section.</p>\n" + charts
        return "<h2>Fastest pipelines per video and count</h2>\n" + pictures + html
    }

    /// One video's chart (``FastestChartData``, the one `plot` draws too) as box plots of the
    /// repetitions, a colour per count, the default pipeline in bold; a note names the counts at
    /// which the default was not measured.
    static func fastestChart(_ panel: FastestChartData.Panel, title: String) -> String {
        let rows = panel.rows.map { row in
            BoxChart.Row(label: row.label, samples: row.ratios, note: "\(HTMLText.ratio(row.ratio.median))  \(ReadableSeconds.text(row.seconds))",
                         series: row.request, emphasised: row.isDefault, link: "#" + anchor(row.key))
        }
        var html = BoxChart(title: "\(title): each configuration's repetitions relative to the fastest median at its N",
                            axisTitle: "wall time / fastest median at that N (log scale): box quartiles, tick median, whisker range, dots repetitions",
                            rows: rows, reference: 1, width: 1180, labelWidth: 560, noteWidth: 130).svg
        if !panel.defaultMissing.isEmpty {
            html += "<p class=\"note\">The default pipeline \(HTMLText.escape(Pipeline.default.name)) was not measured on this video at \(HTMLText.escape(panel.defaultMissing.joined(separator: ", "))).</p>\n"
        }
        return html
    }

    /// A table of ranked groups: each group's title row, then its first `tableLimit` entries
    /// and, when `listsDefault`, the default pipeline wherever it ranks (or a line saying it
    /// was not measured).
    private func table(_ groups: [(String, [Ranked])], prefix: String, listsDefault: Bool = false) -> String {
        var html = "<table><tr><th>configuration</th><th>median</th><th>95 % CI</th><th>ratio</th><th>n</th></tr>\n"
        for (title, entries) in groups where !entries.isEmpty {
            html += "<tr class=\"group\"><th colspan=\"5\">\(HTMLText.escape(prefix + title))</th></tr>\n"
            let best = entries[0].point.median
            let listed = Array(entries.prefix(Self.tableLimit)) + entries.dropFirst(Self.tableLimit).filter { listsDefault && Self.isDefault($0.key) }
            for entry in listed {
                let name = Self.link(entry.key, entry.label)
                html += "<tr><td>\(listsDefault && Self.isDefault(entry.key) ? "<strong>\(name)</strong> (default)" : name)</td><td class=\"n\">\(ReadableSeconds.text(entry.point.median))</td>"
                    + "<td class=\"n\">\(ReadableSeconds.text(entry.point.low)) … \(ReadableSeconds.text(entry.point.high))</td>"
                    + "<td class=\"n\">\(best > 0 ? HTMLText.ratio(entry.point.median / best) : "–")</td><td class=\"n\">\(entry.count)</td></tr>\n"
            }
            if listsDefault && !entries.contains(where: { Self.isDefault($0.key) }) {
                html += "<tr><td colspan=\"5\"><strong>\(HTMLText.escape(Pipeline.default.name))</strong> (default): not measured here</td></tr>\n"
            }
            if entries.count > listed.count {
                html += "<tr><td colspan=\"5\">… \(entries.count - listed.count) more</td></tr>\n"
            }
        }
        return html + "</table>\n"
    }

    // MARK: Peers

    var peersSection: String {
        let peerRows = currentRows.filter { $0.phase == .peer }
        guard !peerRows.isEmpty else {
            return "<h2>Peers</h2>\n<p>No peer rows (ffmpeg CLI, ffmpegthumbnailer, <code>filmstrip strip</code> as a whole process) in these files; <code>bench --peers</code> adds them.</p>\n"
        }
        var html = "<h2>Peers: filmstrip against the ffmpeg CLI and ffmpegthumbnailer</h2>\n<p>Whole processes, start-up and image writing included; decode floors are ffmpeg decoding to nowhere.</p>\n"
        var charts = ""
        for machine in machines {
            let machineRows = peerRows.filter { $0.run.machine.name == machine }
            guard !machineRows.isEmpty else { continue }
            let groups = Self.ranked(machineRows) { key in "\(key.videoID) ×\(key.thumbnailCount) \(key.accuracy)" }
            html += table(groups, prefix: machinePrefix(machine))
            for panel in PeersChartData.panels(PlotSamples(rows: machineRows)) {
                charts += Self.relativeChart(panel, title: machinePrefix(machine) + panel.title, axisTitle: "wall time / fastest tool on the video (log scale), dot median, line 95 % CI")
            }
        }
        return html + (charts.isEmpty ? "" : "<h3>Peers chart</h3>\n" + charts)
    }

    /// A panel of relative times (the peers, the slider's sessions: the panels `plot` draws too)
    /// as a dot chart: a row per category and series, in the panel's order, a colour per series.
    static func relativeChart(_ panel: RelativeTimes, title: String, axisTitle: String) -> String {
        guard panel.points.count > 1 else { return "" }
        let rows = panel.points.map { point in
            DotChart.Row(label: "\(point.category) · \(point.series)", point: point.ratio,
                         note: "\(HTMLText.ratio(point.ratio.median))  \(ReadableSeconds.text(point.seconds))",
                         series: panel.series.firstIndex(of: point.series) ?? 0)
        }
        // A cold cache's step can take 1000× the reference: past 20× it is marked at the edge, not drawn to scale.
        return DotChart(title: title, axisTitle: axisTitle, rows: rows, reference: 1, visibleRange: 0.05...20).svg + SeriesStyle.legend(panel.series)
    }

    // MARK: Memory and scaling

    var scalingSection: String {
        let html = machines.compactMap { machine in
            ScalingChartData(currentRows.filter { $0.run.machine.name == machine }).map { Self.scalingChart($0, title: "\(machinePrefix(machine))\($0.title)") }
        }.joined()
        return html.isEmpty ? "" : "<h2>Scaling with workers</h2>\n" + html
    }

    /// The scaling chart (``ScalingChartData``, the one `plot` draws too) as SVG: each line with its bound dashed.
    static func scalingChart(_ data: ScalingChartData, title: String) -> String {
        let series = data.lines.map { line in
            LineChart.Series(label: line.label, points: line.points.map { (Double($0.workers), $0.speedup) },
                             bound: line.points.map { (Double($0.workers), $0.bound) })
        }
        let chart = LineChart(title: title, xTitle: "workers (log scale); dashed: \(ScalingChartData.boundLabel)", yTitle: ScalingChartData.speedupAxis,
                              series: series, guide: (data.idealLabel, data.workerCounts.map { (Double($0), Double(ScalingChart.ideal(workers: $0, cores: data.cores))) }))
        return chart.svg + chart.legend
    }

    /// Writes the page to `path` through a temporary file renamed into place.
    package func write(to path: String) throws {
        try StripWriter.writeAtomically(Data(html.utf8), to: path)
    }
}
