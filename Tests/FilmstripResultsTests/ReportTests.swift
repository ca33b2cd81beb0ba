import CLITestSupport
import FilmstripProcess
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// `filmstrip report`: the page is checked by a real HTML parser (python3's `html.parser`),
/// not by string matching alone: the text a reader sees, the elements, and every reference.
@Suite("HTML report")
struct ReportTests {
    /// What the parser found in a page.
    struct ParsedPage: Decodable {
        /// Element names in document order.
        var tags: [String]
        /// The text content, as a reader (or a screen reader) gets it.
        var text: String
        /// Every attribute value that could load something: src, href, xlink:href, srcset, action, url(…) in style.
        var references: [String]
        /// Nesting errors: an end tag that closes no open element, or elements never closed.
        var problems: [String]
        /// Every `id` attribute, in document order.
        var ids: [String]
    }

    /// Parses the file at `path` with python3's HTML parser.
    static func parse(_ path: String) throws -> ParsedPage {
        let python = try #require(CLIProcess.program(named: "python3"), "python3 parses the page")
        let script = #"""
            import json, re, sys
            from html.parser import HTMLParser
            VOID = {"area","base","br","col","embed","hr","img","input","link","meta","source","track","wbr"}
            # SVG's empty elements are written self-closing (<line …/>): handle_startendtag.
            class Page(HTMLParser):
                def __init__(self):
                    super().__init__(convert_charrefs=True)
                    self.tags, self.text, self.refs, self.problems, self.open, self.ids = [], [], [], [], [], []
                def handle_starttag(self, tag, attrs):
                    self.tags.append(tag)
                    self.ids += [v or "" for k, v in attrs if k == "id"]
                    self.refs += [v or "" for k, v in attrs if k in ("src", "href", "xlink:href", "srcset", "action", "data")]
                    self.refs += re.findall(r"url\(([^)]*)\)", " ".join(v or "" for k, v in attrs if k == "style"))
                    if tag not in VOID: self.open.append(tag)
                def handle_startendtag(self, tag, attrs):
                    self.tags.append(tag)
                    self.refs += [v or "" for k, v in attrs if k in ("src", "href", "xlink:href", "srcset", "action", "data")]
                def handle_endtag(self, tag):
                    if self.open and self.open[-1] == tag: self.open.pop()
                    else: self.problems.append("</%s> closes %s" % (tag, self.open[-1] if self.open else "nothing"))
                def handle_data(self, data):
                    self.text.append(data)
            page = Page()
            page.feed(open(sys.argv[1], encoding="utf-8").read())
            page.close()
            style = " ".join(re.findall(r"<style>(.*?)</style>", open(sys.argv[1], encoding="utf-8").read(), re.S))
            refs = page.refs + re.findall(r"url\(([^)]*)\)|@import", style)
            json.dump({"tags": page.tags, "text": "".join(page.text), "references": refs, "ids": page.ids,
                       "problems": page.problems + ["unclosed " + t for t in page.open]}, sys.stdout)
            """#
        let result = try CLIProcess.run(program: python, ["-c", script, path])
        try #require(result.status == 0, "\(result.standardError)")
        return try JSONDecoder().decode(ParsedPage.self, from: Data(result.standardOutput.utf8))
    }

    /// Checks what every page must be: well nested, self-contained, no script of any kind.
    static func checkSelfContained(_ page: ParsedPage, _ name: String) {
        #expect(page.problems.isEmpty, "\(name): \(page.problems.prefix(5))")
        #expect(page.references.allSatisfy { $0.hasPrefix("data:") || $0.hasPrefix("#") }, "\(name) loads nothing: \(page.references.prefix(5))")
        for tag in ["script", "iframe", "link", "object", "embed", "img", "base", "foreignobject"] {
            #expect(!page.tags.contains(tag), "\(name): no <\(tag)>")
        }
        #expect(page.tags.first == "html", "\(name)")
        let ids = Set(page.ids)
        #expect(ids.count == page.ids.count, "\(name): ids are unique")
        let dangling = page.references.filter { $0.hasPrefix("#") && !ids.contains(String($0.dropFirst())) }
        #expect(dangling.isEmpty, "\(name): every link goes to a section on the page: \(dangling.prefix(5))")
    }

    static func write(_ rows: [RawResultRow], name: String) throws -> String {
        let path = Fixtures.temporaryPath(name)
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        for row in rows { try writer.append(row) }
        return path
    }

    /// Two files of separate runs of the sample suite on one machine (`NAME-first-raw.csv`,
    /// `NAME-second-raw.csv`), the second run's rows changed by `change`.
    static func separateRuns(_ name: String, change: (inout RawResultRow) -> Void = { _ in }) throws -> [String] {
        let rows = SampleResults.rows(machines: [SampleResults.fastMachine], frameCounts: [10, 100])
        let second = rows.map { row in
            var row = row
            row.run.runID = "run-2"
            change(&row)
            return row
        }
        return [try write(rows, name: "\(name)-first-raw.csv"), try write(second, name: "\(name)-second-raw.csv")]
    }

    /// The report of `files`, written to a temporary `name` and parsed.
    static func rendered(_ files: [String], name: String) throws -> (report: HTMLReport, path: String, page: ParsedPage) {
        let report = try HTMLReport(files: files)
        let path = Fixtures.temporaryPath(name)
        try report.write(to: path)
        return (report, path, try parse(path))
    }

    /// A two-build file from a hostile machine: markup in the machine name, pipeline, video
    /// id, options and error text; the candidate 30 % slower on one pipeline; peer rows.
    static func hostileTwoBuildRows() -> [RawResultRow] {
        var machine = SampleResults.fastMachine
        machine.name = "<script>alert('machine')</script>"
        machine.cpuModel = "CPU & <b>bold</b>"
        let base = SampleResults.rows(machines: [machine], frameCounts: [10, 100]).filter { $0.phase != .calibration }.map { row in
            var row = row
            // Each video keeps an id of its own: one id for all would make their repetitions
            // conflicting records of one configuration, which every reader refuses.
            row.video.id = "clip\"><img src=x onerror=alert(1)>\(row.video.id)"
            if row.phase != .calibration { row.pipeline = "<i>\(row.pipeline)</i>" }
            row.options["note"] = "</td></tr></table><iframe src=//evil.example>\(row.thumbnailCount)"
            return row
        }
        var rows: [RawResultRow] = []
        for row in base {
            rows += SampleResults.twoBuildPair(row) { $0.contains("taskgroup+simd") }
        }
        // Peer rows: two tools on one video, and one failed row whose error is markup.
        for repetition in 0..<6 {
            for (tool, seconds) in [("ffmpeg-exact", 0.9), ("<u>ffmpegthumbnailer</u>", 4.0)] {
                var peer = base[0]
                peer.phase = .peer
                peer.pipeline = PipelineName(pipeline: tool, extractor: PipelineName.peerExtractor, composer: tool)
                peer.kind = .peer
                peer.options = [:]
                peer.repetition = repetition
                peer.wallSeconds = seconds * (1 + 0.01 * Double(repetition))
                peer.build = .candidate
                rows.append(peer)
            }
        }
        var failed = base[0]
        failed.status = .error
        failed.wallSeconds = nil
        failed.error = "decoder said <marquee>no</marquee> & quit"
        failed.build = .candidate
        failed.repetition = SampleResults.repetitions  // a repetition of its own, not a second record of repetition 0
        rows.append(failed)
        return rows
    }

    @Test("hostile text stays text; the gate's verdict, peers and charts are on the page, nothing external")
    func hostileTwoBuildFile() throws {
        let input = try Self.write(Self.hostileTwoBuildRows(), name: "hostile-two-build-raw.csv")
        let output = URL(fileURLWithPath: input).deletingLastPathComponent().appendingPathComponent("report.html").path
        let result = try CLIProcess.run(["report", input, "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let page = try Self.parse(output)
        Self.checkSelfContained(page, "hostile")
        // The markup arrives as the reader sees it: text, never elements.
        for text in ["<script>alert('machine')</script>", "CPU & <b>bold</b>", "clip\"><img src=x onerror=alert(1)>",
                     "<i>taskgroup+simd</i>", "<u>ffmpegthumbnailer</u>", "decoder said <marquee>no</marquee> & quit",
                     "</td></tr></table><iframe src=//evil.example>"] {
            #expect(page.text.contains(text), "shown as text: \(text)")
        }
        #expect(!page.tags.contains("i") && !page.tags.contains("u") && !page.tags.contains("marquee") && !page.tags.contains("b"))
        // The gate ran on the two builds and called the 30 % slowdown.
        #expect(page.text.contains("A/B comparison"))
        #expect(page.text.contains("regressed:"), "the verdict line")
        #expect(page.text.contains("slower"))
        #expect(page.text.contains("shaded: the ±5 % band"), "the gate's chart with the threshold band")
        #expect(page.text.contains("Peers: filmstrip against"))
        #expect(page.text.contains("ffmpeg-exact"))
        #expect(page.text.contains("Fastest pipelines per video and count"))
        // Each configuration's options name its count, so none has a line of two counts: no
        // memory chart, as `plot` draws none (both draw ``MemoryChartData``).
        #expect(!page.text.contains("Memory against N"))
        #expect(page.tags.filter { $0 == "svg" }.count >= 4, "charts inline")
    }

    /// Every committed results file, old column sets included, makes a complete page.
    @Test("every committed results file makes a self-contained page")
    func committedResults() throws {
        let folders = [CLISupport.packageRoot.appendingPathComponent("results").path, "/work/shared/results"]
        var files: [String] = []
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            files += names.filter { $0.hasSuffix("-raw.csv") }.sorted().map { "\(folder)/\($0)" }
        }
        #expect(files.count >= 5)
        let scratch = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for file in files {
            let report = try HTMLReport(files: [file])
            let path = scratch.appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent + ".html").path
            try report.write(to: path)
            let page = try Self.parse(path)
            Self.checkSelfContained(page, file)
            #expect(page.text.contains("Runs") && page.text.contains(report.rows[0].run.machine.name), "\(file)")
            #expect(page.text.contains("Fastest pipelines per video and count"), "\(file)")
            #expect(page.tags.contains("svg"), "\(file): at least one chart")
        }
    }

    @Test("the page leads with the verdict: the default pipeline's place per video and N, or the gate's outcome")
    func verdictFirst() throws {
        let scratch = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // One run: the fastest per video and N, and where taskgroup+fused stands.
        let committed = CLISupport.packageRoot.appendingPathComponent("results/full-peers-epyc-2c-r4-raw.csv").path
        let single = scratch.appendingPathComponent("single.html").path
        try HTMLReport(files: [committed]).write(to: single)
        let page = try Self.parse(single)
        Self.checkSelfContained(page, "single run")
        let verdict = try #require(page.text.range(of: "Verdict"), "no verdict section")
        #expect(verdict.lowerBound < page.text.range(of: "Runs")!.lowerBound, "the verdict comes before the runs")
        #expect(page.text.contains("where the default pipeline taskgroup+fused stands"))
        #expect(page.text.contains("h264-1080p-244s ×500 exact"))
        #expect(page.tags.firstIndex(of: "section")! < page.tags.firstIndex(of: "svg")!, "the verdict comes before the charts")
        // Two builds: the gate's outcome line is the first thing under the heading.
        let path = try Self.write(Self.hostileTwoBuildRows(), name: "verdict")
        let gatePage = scratch.appendingPathComponent("gate.html").path
        try HTMLReport(files: [path]).write(to: gatePage)
        let text = try Self.parse(gatePage).text
        // The first "Verdict" is the contents' link; the second the section's heading.
        let afterHeading = text.components(separatedBy: "Verdict").dropFirst(2).first ?? ""
        #expect(afterHeading.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("regressed") || afterHeading.contains("undecided"),
                "\(afterHeading.prefix(200))")
    }

    @Test("two separate runs get the gate's separate-runs comparison; a bad file is one line on stderr")
    func twoRunsAndBadInput() throws {
        let runs = try Self.separateRuns("plain")
        let first = runs[0]
        let firstRows = try ResultsFileReader.read(RawResultRow.self, from: first).count
        let page = try HTMLReport(files: runs)
        #expect(page.gateReports.count == 1)
        #expect(page.html.contains("against"))
        let bad = Fixtures.temporaryPath("bad-raw.csv")
        try Data("not,a,results,file\n1,2,3,4\n".utf8).write(to: URL(fileURLWithPath: bad))
        let output = Fixtures.temporaryPath("bad.html")
        let result = try CLIProcess.run(["report", bad, "-o", output])
        #expect(result.status != 0)
        #expect(result.standardError.hasPrefix("filmstrip: ") && result.standardError.contains("bad-raw.csv"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
        let overwrite = try CLIProcess.run(["report", first, "-o", first])
        #expect(overwrite.status != 0 && overwrite.standardError.contains("refusing to overwrite"), "\(overwrite.standardError)")
        let link = URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("link.html").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first)
        let throughLink = try CLIProcess.run(["report", first, "-o", link])
        #expect(throughLink.status != 0 && throughLink.standardError.contains("refusing to overwrite"))
        #expect(try ResultsFileReader.read(RawResultRow.self, from: first).count == firstRows, "the input is intact")
        let standardOutput = try CLIProcess.run(["report", first, "-o", "-"])
        #expect(standardOutput.status == 0 && standardOutput.standardOutput.hasPrefix("<!DOCTYPE html>"))
    }

    /// Opt-in (see `HeadlessBrowser`; `FILMSTRIP_BROWSER_TESTS=1`): the page as Chromium
    /// renders it, started through the package's one child launcher (`ChildProcess`, its own
    /// process group, killed at the time limit however it hangs). The DOM after layout holds
    /// the sections, the charts and the hostile text as text; the screenshot of a real
    /// report (three committed runs) is a PNG of the window's size with text, the charts'
    /// saturated colours and real variation in its pixels, not a blank page.
    @Test("the report in headless Chromium: sections rendered, charts drawn in the screenshot",
          .enabled(if: HeadlessBrowser.enabled, "\(HeadlessBrowser.disabledReason)"))
    func reportInChromium() throws {
        let scratch = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        func browse(_ arguments: [String]) throws -> ChildProcess.Result {
            let profile = scratch.appendingPathComponent("profile-\(UUID().uuidString)").path
            let result = try ChildProcess.run(HeadlessBrowser.path!, HeadlessBrowser.safeFlags + ["--user-data-dir=\(profile)"] + arguments,
                                              standardOutput: .capture, standardError: .capture, ownProcessGroup: true, timeLimit: 90)
            try #require(!result.timedOut, "chromium ran past 90 s")
            return result
        }
        let hostile = try Self.write(Self.hostileTwoBuildRows(), name: "browser-raw.csv")
        let hostilePage = scratch.appendingPathComponent("hostile.html").path
        try HTMLReport(files: [hostile]).write(to: hostilePage)
        let dom = try browse(["--dump-dom", "file://\(hostilePage)"]).output
        #expect(dom.contains("A/B comparison") && dom.contains("<svg") && dom.contains("id=\"config-"))
        #expect(dom.contains("&lt;script&gt;alert('machine')&lt;/script&gt;"), "the hostile machine name is text in the live DOM")

        let files = ["full-peers-epyc-2c-raw.csv", "full-peers-epyc-2c-r2-raw.csv", "full-peers-epyc-2c-r3-raw.csv"].map(Self.committed)
        let page = scratch.appendingPathComponent("history.html").path
        try HTMLReport(files: files).write(to: page)
        let screenshot = scratch.appendingPathComponent("report.png").path
        _ = try browse(["--screenshot=\(screenshot)", "--window-size=1200,3000", "--hide-scrollbars", "file://\(page)"])
        let python = try #require(CLIProcess.program(named: "python3"))
        // A PNG reader in a few lines of the standard library: 8-bit RGB(A), the five filters.
        let script = #"""
            import struct, sys, zlib
            data = open(sys.argv[1], "rb").read()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            pos, idat = 8, b""
            while pos < len(data):
                length, kind = struct.unpack(">I4s", data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                if kind == b"IHDR": width, height, depth, colour = struct.unpack(">IIBB", body[:10])
                if kind == b"IDAT": idat += body
                pos += 12 + length
            channels = {2: 3, 6: 4}[colour]
            raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
            for y in range(height):
                kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
                for i in range(stride):
                    a = line[i - channels] if i >= channels else 0
                    b, c = prev[i], prev[i - channels] if i >= channels else 0
                    p = a + b - c
                    pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)][kind]
                    line[i] = (line[i] + pred) & 255
                rows.append(line); prev = line
            dark = coloured = 0
            total = squares = 0
            for line in rows:
                for x in range(0, stride, channels):
                    r, g, b = line[x], line[x + 1], line[x + 2]
                    dark += r < 80 and g < 80 and b < 80
                    coloured += max(r, g, b) - min(r, g, b) > 90
                    grey = (r + g + b) / 3
                    total += grey; squares += grey * grey
            count = width * height
            variance = squares / count - (total / count) ** 2
            print(width, height, dark, coloured, int(variance))
            """#
        let measured = try CLIProcess.run(program: python, ["-c", script, screenshot])
        let numbers = measured.standardOutput.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(numbers.count == 5, "\(measured.standardError)")
        #expect(numbers[0] == 1200 && numbers[1] == 3000, "the window's size")
        #expect(numbers[2] > 2000, "text on the page: \(numbers[2]) dark pixels")
        #expect(numbers[3] > 500, "the charts' boxes and the verdict colours: \(numbers[3]) saturated pixels")
        #expect(numbers[4] > 100, "not a blank page: grey-level variance \(numbers[4])")
    }

    @Test("escaping: every markup character, and control characters replaced")
    func escaping() {
        #expect(HTMLText.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(HTMLText.escape("a\u{0}b\u{1B}c") == "a\u{FFFD}b\u{FFFD}c")
    }
}
