import CLITestSupport
import Filmstrip
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// The report's parts past the verdict, on committed results: a section per configuration,
/// the default pipeline in every comparison, every N in the per-video charts, the memory
/// panels, and the history of several runs.
extension ReportTests {
    static func committed(_ name: String) -> String {
        CLISupport.packageRoot.appendingPathComponent("results/\(name)").path
    }

    /// The page's HTML between `<section id="config-…"` for `key` and its end.
    static func configurationSection(_ key: ConfigurationKey, in html: String) -> Substring? {
        guard let start = html.range(of: "<section id=\"\(HTMLReport.anchor(key))\"") else { return nil }
        guard let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex) else { return nil }
        return html[start.lowerBound..<end.upperBound]
    }

    @Test("every configuration has its anchored section with a distribution chart, median, n, counters and checksum")
    func sectionPerConfiguration() throws {
        let input = Self.committed("full-peers-epyc-2c-r4-raw.csv")
        let report = try HTMLReport(files: [input])
        let html = report.html
        let path = Fixtures.temporaryPath("sections.html")
        try report.write(to: path)
        let page = try Self.parse(path)
        Self.checkSelfContained(page, "sections")
        let keys = Set(report.rows.map(\.configurationKey))
        #expect(keys.count > 300)
        let ids = Set(page.ids)
        for key in keys {
            #expect(ids.contains(HTMLReport.anchor(key)), "\(key)")
            guard let section = Self.configurationSection(key, in: html) else { continue }
            #expect(section.contains("<svg") && section.contains("Wall time of each repetition"), "\(key): its distribution")
            if report.rows.contains(where: { $0.configurationKey == key && $0.status == .ok }) {
                #expect(section.contains("median") && section.contains("95 % CI") && section.contains("n = "), "\(key)")
            }
            #expect(section.contains("checksum"), "\(key)")
        }
        // Counters and checksum agreement where the rows have them.
        let total = try #require(report.rows.first { $0.phase == .total && $0.status == .ok && $0.framesDecoded != nil }).configurationKey
        let section = try #require(Self.configurationSection(total, in: html))
        #expect(section.contains("frames decoded") && section.contains("agrees with the first strip"))
        // Every pipeline timed end to end is linked from a table or a chart (links resolve: checkSelfContained).
        let links = Set(page.references)
        for key in keys where key.phase == .total {
            #expect(links.contains("#" + HTMLReport.anchor(key)), "\(key) is linked")
        }
    }

    @Test("the default pipeline is in every comparison; every N of a video is in its chart; memory in panels with a table")
    func defaultEveryNAndMemory() throws {
        let (report, _, page) = try Self.rendered([Self.committed("full-peers-epyc-2c-r4-raw.csv")], name: "default.html")
        let table = try #require(page.text.components(separatedBy: "Fastest pipelines per video and count: the table").dropFirst().first?
            .components(separatedBy: "Peers").first)
        // A group title row, then its rows: each group names the default, measured or not.
        let groups = report.currentRows.filter { $0.phase == .total && $0.status == .ok }
        let groupCount = Set(groups.map { "\($0.video.id) \($0.thumbnailCount) \($0.accuracy)" }).count
        #expect(table.components(separatedBy: Pipeline.default.name).count - 1 >= groupCount, "the default in every group")
        #expect(table.contains("not measured here"), "this run left the default out of some groups, and says so")
        // Each video's chart holds every count measured on it (not only the most measured one).
        for (video, videoRows) in Dictionary(grouping: groups, by: \.video.id) {
            let settings = Set(videoRows.map { "×\($0.thumbnailCount) \($0.accuracy):" })
            guard let chart = page.text.components(separatedBy: "\(video): each configuration's repetitions").dropFirst().first?
                .components(separatedBy: "each configuration's repetitions").first else { continue }
            for setting in settings { #expect(chart.contains(setting), "\(video): \(setting)") }
        }
        #expect(page.text.contains("av1-360p-5s: each configuration's repetitions"))
        #expect(page.text.contains("★ ×20 exact: taskgroup+fused"), "the default marked in the chart")
        // Memory: one panel per mode, and the medians as numbers.
        #expect(page.text.contains("video h264-1080p-244s, exact") && page.text.contains("video h264-1080p-244s, keyframe"))
        #expect(page.text.contains("peak RSS, median (MiB)"))
    }

    @Test("history from three runs: the runs in order, the gate's latest against previous, a median-per-run chart per configuration")
    func historyFromThreeFiles() throws {
        let files = ["full-peers-epyc-2c-raw.csv", "full-peers-epyc-2c-r2-raw.csv", "full-peers-epyc-2c-r3-raw.csv"].map(Self.committed)
        let output = Fixtures.temporaryPath("history.html")
        let result = try CLIProcess.run(["report"] + files + ["-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let page = try Self.parse(output)
        Self.checkSelfContained(page, "history")
        #expect(page.ids.contains("history"))
        let history = try #require(page.text.components(separatedBy: "History across runs").dropFirst().first)
        #expect(history.contains("3 runs"))
        #expect(history.contains("3 runs are too few for the step search (filmstrip trend needs 6)"))
        #expect(history.contains("Latest run against the one before:"))
        // The verdict says there is history and links to it.
        let verdict = try #require(page.text.components(separatedBy: "History across runs").first)
        #expect(verdict.contains("History: 3 runs"))
        // A configuration in all three runs has its median-per-run chart and its change since the run before.
        let report = try HTMLReport(files: files)
        let rows = report.rows.filter { $0.phase == .total && $0.status == .ok }
        let inAll = try #require(Dictionary(grouping: rows, by: \.configurationKey).first { Set($0.value.map(\.run.runID)).count == 3 }?.key)
        let section = try #require(Self.configurationSection(inAll, in: report.html))
        #expect(section.contains("aria-label=\"Median per run\""), "\(inAll)")
        #expect(section.contains("change since the run before"))
        #expect(section.components(separatedBy: "median ").count >= 4, "a box per run")
    }

    @Test("twelve runs with a step: the trend's step search finds it and the page names it")
    func historyWithAStep() throws {
        let base = SampleResults.rows(machines: [SampleResults.fastMachine], frameCounts: [10])
        var rows: [RawResultRow] = []
        // Twelve runs: with six on either side a permutation test can reach p ≤ 0.01 (six runs cannot: 1 in 10 shuffles splits them alike).
        for run in 0..<12 {
            rows += base.map { row in
                var row = row
                row.run.runID = "run-\(run)"
                row.timestamp = row.timestamp.addingTimeInterval(Double(run) * 3600)
                if run >= 6, row.pipeline == "scan+rowcopy", row.phase == .total { row.wallSeconds = row.wallSeconds.map { $0 * 1.3 } }
                return row
            }
        }
        let runIDs = (0..<12).map { "run-\($0)" }
        let byRun = Dictionary(grouping: rows, by: \.run.runID)
        let report = HTMLReport(sources: runIDs.map { "\($0).csv" }, rowsByFile: runIDs.map { byRun[$0]! })
        let history = try #require(report.histories.first)
        #expect(history.runs.map(\.runID) == runIDs)
        let stepped = (history.trend?.trends ?? []).filter { !$0.steps.isEmpty }
        #expect(!stepped.isEmpty && stepped.allSatisfy { $0.key.pipeline == "scan+rowcopy" && $0.key.phase == .total }, "\(stepped.map(\.key))")
        let html = report.historySection
        #expect(html.contains("step search over 12 runs"))
        #expect(html.contains("ending on a step up"))
        let key = try #require(stepped.first?.key)
        #expect(html.contains("href=\"#\(HTMLReport.anchor(key))\""), "the step links to its configuration")
        #expect(Self.configurationSection(key, in: report.html)?.contains("stroke-dasharray=\"4 3\"") == true, "the step marked on its chart")
    }
}

extension ReportTests {
    /// The two gate files of one CI run (`scripts/ci-gate.sh`: an instruction run and a time
    /// run, both builds in each) are that run's two gates. Read as a history they were four
    /// runs, and the page led with "latest run against the one before: bad input".
    @Test func oneCIRunsGateFilesAreItsGatesNotAHistory() throws {
        let base = SampleResults.rows(machines: [SampleResults.fastMachine], frameCounts: [10])
        let time = base.flatMap { row in
            var row = row
            row.run.runID = "ci-time"
            row.timestamp = row.timestamp.addingTimeInterval(600)
            return SampleResults.twoBuildPair(row) { _ in false }
        }
        let instructions = base.filter { $0.repetition == 0 }.flatMap { row in
            var row = row
            row.run.runID = "ci-instructions"
            (row.wallSeconds, row.cpuUserSeconds, row.cpuSysSeconds, row.thumbnailsPerSecond) = (nil, nil, nil, nil)
            row.instructions = 100_000_000
            return SampleResults.twoBuildPair(row) { _ in false }
        }
        let report = HTMLReport(sources: ["ci-instructions-raw.csv", "ci-time-raw.csv"], rowsByFile: [instructions, time])
        #expect(report.histories.isEmpty)
        #expect(report.gateReports.count == 2 && report.gateReports[0].1.gate.metric == .instructions)
        let verdict = report.verdictSection
        #expect(!verdict.contains("bad input") && !verdict.contains("History"), "\(verdict)")
        #expect(verdict.contains("over 2 gates"), "\(verdict)")
    }
}

/// The report keeps what `bench` warned of: the wide-spread line it prints, and the summary's sample warnings.
struct ReportWarningsTests {
    @Test func theReportRepeatsBenchsWarnings() throws {
        // One configuration whose wall times spread by ±40 %: bench's wide-spread warning.
        let spread = [0.10, 0.16, 0.07, 0.13, 0.09, 0.15].enumerated().map { index, wall in
            Fixtures.row(pipeline: "taskgroup+rowcopy", repetition: index, wall: wall)
        }
        // And one measured twice: too few samples to rank.
        let few = [0.2, 0.21].enumerated().map { Fixtures.row(pipeline: "forward+rowcopy", repetition: $0.offset, wall: $0.element) }
        let rows = spread + few
        let page = HTMLReport(sources: ["spread-raw.csv"], rowsByFile: [rows])
        let section = page.warningsSection
        let benchLine = try #require(WideSpread.warning(SummaryRow.summarize(rows, metrics: [.wallSeconds])))
        #expect(section.contains(HTMLText.escape(benchLine.replacingOccurrences(of: "bench: warning: ", with: ""))), "\(section)")
        #expect(section.contains("few_samples in 1 configuration(s): forward+rowcopy"), "\(section)")
        #expect(page.sections.map(\.id).prefix(3) == ["verdict", "warnings", "fastest"] || page.sections.map(\.id).contains("warnings"))
        // A quiet, well-sampled run has no such section.
        let quiet = (0..<6).map { Fixtures.row(pipeline: "taskgroup+rowcopy", repetition: $0, wall: 0.1 + Double($0) * 0.0005) }
        #expect(HTMLReport(sources: ["quiet-raw.csv"], rowsByFile: [quiet]).warningsSection.isEmpty)
    }
}
