import CLITestSupport
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// The report laid out for reading (issue 34): a table of contents, the verdict once, the
/// configurations folded, the A/B table in units with the change and its interval, labels
/// that fit; and separate runs judged on wall time as well as CPU time (issue 37).
extension ReportTests {
    /// What python3's HTML parser finds about folding: for each element with an `id`, the
    /// `<details>` elements it sits in and whether any is open; the table of contents' links.
    struct Folding: Decodable {
        /// id → number of `<details>` ancestors.
        var depth: [String: Int]
        /// `<details>` elements written open.
        var openDetails: Int
        /// Hrefs inside `<nav class="toc">`, in order.
        var contents: [String]
        /// Text of each `<table class="ab">` cell in a baseline or candidate column (2nd/3rd, or 3rd/4th with a metric column).
        var abCells: [String]
    }

    static func folding(_ path: String) throws -> Folding {
        let python = try #require(CLIProcess.program(named: "python3"))
        let script = #"""
            import json, sys
            from html.parser import HTMLParser
            VOID = {"area","base","br","col","embed","hr","img","input","link","meta","source","track","wbr"}
            class Page(HTMLParser):
                def __init__(self):
                    super().__init__(convert_charrefs=True)
                    self.stack, self.depth, self.open_details, self.contents = [], {}, 0, []
                    self.in_toc = self.in_ab = False
                    self.metric_column = False
                    self.cell, self.cells, self.column, self.ab = None, [], 0, []
                def handle_starttag(self, tag, attrs):
                    a = dict(attrs)
                    if tag == "details" and "open" in a: self.open_details += 1
                    if "id" in a: self.depth[a["id"]] = sum(1 for t in self.stack if t == "details")
                    if tag == "nav" and a.get("class") == "toc": self.in_toc = True
                    if self.in_toc and tag == "a": self.contents.append(a.get("href", ""))
                    if tag == "table" and a.get("class") == "ab": self.in_ab, self.metric_column = True, False
                    if self.in_ab and tag == "tr": self.column = 0
                    if self.in_ab and tag in ("td", "th"): self.column += 1; self.cell = ""
                    if tag not in VOID: self.stack.append(tag)
                def handle_startendtag(self, tag, attrs): pass
                def handle_endtag(self, tag):
                    if tag == "nav": self.in_toc = False
                    if tag == "table": self.in_ab = False
                    if self.in_ab and tag in ("td", "th") and self.cell is not None:
                        if self.cell == "metric": self.metric_column = True
                        first = 3 if self.metric_column else 2
                        if tag == "td" and self.column in (first, first + 1): self.ab.append(self.cell)
                        self.cell = None
                    while self.stack and self.stack.pop() != tag: pass
                def handle_data(self, data):
                    if self.cell is not None: self.cell += data
            page = Page()
            page.feed(open(sys.argv[1], encoding="utf-8").read())
            json.dump({"depth": page.depth, "openDetails": page.open_details, "contents": page.contents, "abCells": page.ab}, sys.stdout)
            """#
        let result = try CLIProcess.run(program: python, ["-c", script, path])
        try #require(result.status == 0, "\(result.standardError)")
        return try JSONDecoder().decode(Folding.self, from: Data(result.standardOutput.utf8))
    }

    @Test("a table of contents links every section; configurations are folded (closed) by video; nothing else is open")
    func contentsAndFolding() throws {
        let (report, path, page) = try Self.rendered([Self.committed("full-peers-epyc-2c-r4-raw.csv")], name: "folded.html")
        Self.checkSelfContained(page, "folded")
        let folding = try Self.folding(path)
        let sections = report.sections.map(\.id)
        #expect(folding.contents == sections.map { "#" + $0 }, "the contents list every section in order")
        #expect(sections.first == "verdict" && sections.contains("configurations") && sections.contains("fastest"))
        #expect(page.tags.firstIndex(of: "nav")! < page.tags.firstIndex(of: "section")!, "the contents come first")
        for id in sections { #expect(folding.depth[id] == 0, "\(id) is a top-level section") }
        #expect(folding.openDetails == 0, "everything folded starts closed")
        let keys = Set(report.rows.map(\.configurationKey))
        for key in keys {
            // In its video's <details> and its own: two levels, which a link to it opens.
            #expect(folding.depth[HTMLReport.anchor(key)] == 2, "\(key)")
        }
        #expect(page.tags.filter { $0 == "summary" }.count >= keys.count + Set(keys.map(\.videoID)).count)
    }

    /// Two builds of the sample suite, 30 pairs: `taskgroup+simd`'s candidate waits (wall time
    /// ×1.4 at the same CPU time).
    static func lockedCandidateRows() -> [RawResultRow] {
        let base = SampleResults.rows(machines: [SampleResults.fastMachine], frameCounts: [10, 100]).filter { $0.phase != .calibration }
        return (0..<3).flatMap { copy in
            base.flatMap { row in
                var pair = SampleResults.twoBuildPair(row, copy: copy) { _ in false }
                if row.pipeline == "taskgroup+simd" { pair[1].wallSeconds = row.wallSeconds.map { $0 * 1.4 } }
                return pair
            }
        }
    }

    @Test("the verdict once; the A/B table in µs, ms or s with metric, change, interval and sub-phases named")
    func verdictOnceAndUnits() throws {
        let input = try Self.write(Self.lockedCandidateRows(), name: "locked-two-build-raw.csv")
        let output = Fixtures.temporaryPath("locked.html")
        let result = try CLIProcess.run(["report", input, "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let page = try Self.parse(output)
        Self.checkSelfContained(page, "locked")
        // Between the contents' link and the section's heading: the verdict.
        let verdict = try #require(page.text.components(separatedBy: "A/B comparison").dropFirst().first, "the A/B section")
        #expect(verdict.components(separatedBy: "regressed").count - 1 == 1, "the verdict once: \(verdict.prefix(400))")
        #expect(verdict.contains("wall +40"), "the wall change named in the verdict: \(verdict.prefix(600))")
        let folding = try Self.folding(output)
        #expect(!folding.abCells.isEmpty)
        let unit = try Regex(#"^-?[0-9]+(\.[0-9]+)? (µs|ms|s)$"#)
        for cell in folding.abCells {
            #expect(cell.wholeMatch(of: unit) != nil, "a time with its unit and three significant figures: \(cell)")
            #expect(!cell.contains("e-"), "no raw exponent: \(cell)")
        }
        #expect(page.text.contains("wall time") && page.text.contains("CPU time"), "each row names its metric")
        #expect(page.text.contains("(sub-phase)"), "extract rows are labelled as in the terminal")
        #expect(page.text.contains("95 % CI"))
    }

    @Test("separate runs of one machine: the report judges wall and CPU time, and names the wall time of a lock")
    func separateRunsJudgeWallTime() throws {
        let report = try HTMLReport(files: Self.separateRuns("lock") { row in
            if row.pipeline == "taskgroup+simd" { row.wallSeconds = row.wallSeconds.map { $0 * 1.4 } }
        })
        let gate = try #require(report.gateReports.first?.1)
        #expect(Set(gate.comparisons.map(\.metric)) == [.cpuSeconds, .wallSeconds])
        #expect(gate.outcome == .regressed, "the wall time of the waiting pipeline is slower: \(gate.outcomeLine)")
        let slower = gate.comparisons.filter { $0.verdict == .slower }
        #expect(!slower.isEmpty && slower.allSatisfy { $0.metric == .wallSeconds && $0.key.pipeline == "taskgroup+simd" })
        #expect(report.gateReports[0].0.hasPrefix("CPU time and wall time"))
        // The configuration's own section names each change's metric.
        let key = try #require(slower.first?.key)
        let section = try #require(Self.configurationSection(key, in: report.html))
        #expect(section.contains("wall time / decode calibration +40") || section.contains("wall time / decode calibration +39"), "\(section.suffix(700))")
        #expect(section.contains("CPU time / decode calibration"))
    }

    @Test("chart labels fit: long labels are cut in the middle, so rows that differ at the end stay apart")
    func chartLabelsFit() {
        let labels = ["forward+fused [filter=area,keep-open=1,skip-loop-filter=0] h264-180p-3s ×10 exact extract",
                      "forward+fused [filter=area,keep-open=1,skip-loop-filter=0] h264-180p-3s ×10 exact total"]
        let width = ChartLabel.columnWidth(labels, minimum: 200, maximum: 390)
        #expect(width == 390)
        let fitted = labels.map { ChartLabel.fitted($0, width: width) }
        #expect(fitted[0] != fitted[1] && fitted[0].hasSuffix("extract") && fitted[1].hasSuffix("total"))
        #expect(fitted.allSatisfy { Double($0.count) * ChartLabel.characterWidth + ChartLabel.margin <= width })
        #expect(ChartLabel.fitted("scan+rowcopy", width: width) == "scan+rowcopy")
        // A narrow log axis still gets three ticks or more.
        let axis = LogAxis(covering: [1.31, 1.36], start: 0, end: 500, minimumDecades: 0.05)
        #expect((axis?.ticks.count ?? 0) >= 3, "\(axis?.ticks ?? [])")
        #expect(ReadableSeconds.text(9.5e-05) == "95.0 µs" && ReadableSeconds.text(0.0003915) == "392 µs" && ReadableSeconds.text(1.2345) == "1.23 s")
    }
}
