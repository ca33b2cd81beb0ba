import CLITestSupport
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// Output for people: bench's table reads like hyperfine's, compare's table fits a terminal.
@Suite struct ReadableOutputTests {
    @Test("seconds in µs, ms or s with three significant digits")
    func readableSeconds() {
        #expect(ReadableSeconds.text(0.000_013_5) == "13.5 µs")
        #expect(ReadableSeconds.text(0.013_89) == "13.9 ms")
        #expect(ReadableSeconds.text(0.812) == "812 ms")
        #expect(ReadableSeconds.text(1.523) == "1.52 s")
        #expect(ReadableSeconds.text(.nan) == "–")
    }

    @Test("bench's table: median, min … max, interval and n, ratio with its error, a warning when n is small")
    func fastestTable() {
        let fast = Fixtures.rows([0.100, 0.102, 0.098, 0.101, 0.099, 0.103], pipeline: "forward+rowcopy")
        let slow = Fixtures.rows([0.150, 0.155, 0.149, 0.152, 0.151, 0.160], pipeline: "sequential+rowcopy")
        let text = FastestTable.text(SummaryRow.summarize(fast + slow), raw: fast + slow)
        let lines = text.split(separator: "\n").map(String.init)
        let fastLine = lines.first { $0.contains("forward+rowcopy") } ?? ""
        let slowLine = lines.first { $0.contains("sequential+rowcopy") } ?? ""
        #expect(fastLine.contains("(98.0 ms … 103 ms, CI") && fastLine.contains("n=6)") && fastLine.hasSuffix("fastest"), "\(text)")
        #expect(slowLine.contains("± ") && slowLine.hasSuffix("× slower") && slowLine.contains("1.51"), "\(text)")
        #expect(!text.contains("warning"))

        let few = Fixtures.rows([0.1, 0.2], pipeline: "forward+rowcopy") + Fixtures.rows([0.3], pipeline: "sequential+rowcopy")
        let warned = FastestTable.text(SummaryRow.summarize(few), raw: few)
        #expect(warned.contains("warning: only 1 run(s) per configuration: too few to rank these"), "\(warned)")
        #expect(!warned.contains("CI "), "no interval below 6 runs: \(warned)")
        // Without intervals nothing is told apart: no "fastest".
        #expect(warned.contains("indistinguishable from the next") && !warned.contains("fastest\n") && warned.contains("× slower, indistinguishable"), "\(warned)")

        // Overlapping intervals: neither is named fastest.
        let close = Fixtures.rows([0.100, 0.104, 0.098, 0.106, 0.099, 0.103], pipeline: "sequential+rowcopy")
        let overlapping = FastestTable.text(SummaryRow.summarize(fast + close), raw: fast + close)
        #expect(!overlapping.split(separator: "\n").contains { $0.hasSuffix("fastest") }, "\(overlapping)")
        #expect(overlapping.contains("indistinguishable from the next") && overlapping.contains("× slower, indistinguishable"), "\(overlapping)")
    }

    /// Issue 44: at 80 and 120 columns a separate-runs compare cut `forward…` / `scan+ro…` in
    /// hundreds of rows. Where a name does not fit beside the numbers it heads its rows on a
    /// line of its own: no line over the width, no name cut, every compared pipeline named whole.
    @Test(arguments: [80, 120])
    func compareTablesFitTheTerminalWithoutCuttingAName(columns: Int) throws {
        let committed = { (name: String) in CLISupport.packageRoot.appendingPathComponent("results/\(name)").path }
        for files in [[committed("wall-time-16c/gates/lock-ab-0-raw.csv")],
                      [committed("full-peers-epyc-2c-r2-raw.csv"), committed("full-peers-epyc-2c-r3-raw.csv")]] {
            let text = try Self.run(columns: columns, ["compare"] + files).standardOutput
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(!lines.isEmpty && lines.allSatisfy { $0.count <= columns }, "\(files): \(lines.filter { $0.count > columns }.prefix(3))")
            #expect(!lines.contains { $0.range(of: #"^\S*…  "#, options: .regularExpression) != nil }, "\(files): a name cut")
            let json = try CLISupport.run(["compare", "--format", "json"] + files).standardOutput
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let pipelines = Set(((object["configurations"] as? [[String: Any]]) ?? []).compactMap { $0["pipeline"] as? String })
            #expect(!pipelines.isEmpty)
            let missing = pipelines.filter { pipeline in !lines.contains { $0.hasPrefix(pipeline) } }
            #expect(missing.isEmpty, "\(files) at \(columns): pipelines never named whole at a line's start: \(missing.sorted().prefix(5))")
        }
    }

    /// The CLI with `COLUMNS` set, as a terminal's shell would export it.
    static func run(columns: Int, _ arguments: [String]) throws -> CLIProcess.Result {
        try CLIProcess.run(program: URL(fileURLWithPath: "/usr/bin/env"), ["COLUMNS=\(columns)", CLIProcess.executable.path] + arguments)
    }

    /// A time with its unit, three significant figures: `95.0 µs`, `812 ms`, `1.23 s`.
    static let time = #"^-?([0-9]{1,3}|[0-9]\.[0-9]{2}|[0-9]{2}\.[0-9]) (µs|ms|s)$"#

    @Test("wrapping keeps every line within the width, and joining the continuations gives the line back")
    func wrapping() {
        let line = "slower: forward+fused(a) h264-180p-3s ×50 114x64 exact extract: instructions +0.97 % (n 1): avcodec_send_packet (shim.so) +1.0 pp, Filmstrip.ThumbnailRenderer.render(...) +0.0 pp"
        for width in [40, 80, 100] {
            let wrapped = TextWidth.wrapped(line, width: width)
            #expect(wrapped.allSatisfy { $0.count <= width }, "\(wrapped)")
            // At 40 columns the longest name is cut mid-word (no line is ever longer): joined, it gains a space.
            if width > 40 { #expect(WrappedText.joined(wrapped.joined(separator: "\n")) == [line]) }
        }
        #expect(TextWidth.wrapped("  short", width: 100) == ["  short"])
        #expect(TextWidth.wrapped(String(repeating: "x", count: 90), width: 40).allSatisfy { $0.count <= 40 })
    }

    /// A two-build run shaped like the quick suite's (every pipeline of a real run, two videos
    /// at two counts, extract, compose and total, the calibration; six pairs), with
    /// `forward+rowcopy` 30 % slower in the candidate: at `COLUMNS=100` no line is longer,
    /// every time has its unit, the phase is a column, sub-phases are hidden unless asked for.
    @Test("compare of a quick-suite A/B at COLUMNS=100: no line over 100 columns, units on every time")
    func compareFitsTheTerminal() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ab-raw.csv").path
        try Self.writeQuickSuiteAB(to: path)

        let result = try Self.run(columns: 100, ["compare", path])
        #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let longest = lines.map(\.count).max() ?? 0
        #expect(longest <= 100, "\(lines.filter { $0.count > 100 })")
        #expect(result.standardOutput.range(of: #"[0-9]e[-+]?[0-9]"#, options: .regularExpression) == nil)
        // The verdict line names the configuration and the metric.
        let joined = WrappedText.joined(result.standardOutput)
        #expect(joined.contains { $0.hasPrefix("slower: forward+rowcopy hevc-360p-5s ×10 ") && $0.contains(" total: cpu +30.0 %") && $0.contains(", wall +30.0 %") },
                "\(result.standardOutput)")
        // One table per video and count, the phase a column, every time with its unit. Where a
        // name does not fit beside the numbers (the calibration's phase widens the tables), each
        // pipeline heads its rows on its own line, and the rows start at the phase.
        let headers = lines.indices.filter { lines[$0].contains(" phase ") && lines[$0].contains(" metric ") && lines[$0].contains(" baseline ") }
        #expect(headers.count == 6, "four requests and the two calibration workloads: \(result.standardOutput)")
        var rows = 0
        for header in headers {
            let stacked = lines[header].hasPrefix("  ")
            #expect(stacked == !lines[header].hasPrefix("pipeline "))
            for row in lines[(header + 2)...].prefix(while: { !$0.isEmpty && !$0.hasPrefix("(") }) where !stacked || row.hasPrefix("  ") {
                let cells = row.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                let numbers = stacked ? cells : Array(cells.dropFirst())
                #expect(numbers.count == 8, "\(row)")
                guard numbers.count == 8 else { continue }
                #expect(numbers[2].range(of: Self.time, options: .regularExpression) != nil && numbers[3].range(of: Self.time, options: .regularExpression) != nil, "\(row)")
                #expect(["total", "calibration"].contains(numbers[0]), "sub-phases hidden by default: \(row)")
                rows += 1
            }
        }
        #expect(rows >= 4 * 3 * 2, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("sub-phase row(s) left out"))

        // --all-phases lists them, marked as not gated; --only-changed lists no undecided sub-phase.
        let all = try Self.run(columns: 100, ["compare", path, "--all-phases"])
        #expect(all.standardOutput.split(separator: "\n").contains { $0.contains("  extract  ") && $0.hasSuffix(")") })
        #expect(all.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 100 })
        let changed = try Self.run(columns: 100, ["compare", path, "--only-changed"])
        #expect(changed.status == 2)
        #expect(!changed.standardOutput.contains("(undecided)") && !changed.standardOutput.contains("  extract  "), "\(changed.standardOutput)")
        // A narrower terminal is respected too.
        let narrow = try Self.run(columns: 80, ["compare", path])
        #expect(narrow.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(narrow.standardOutput)")
    }

    /// The quick-suite-like A/B: the committed full-peers run's pipelines and options on two
    /// of its videos at two counts, each repetition-0 row run as six pairs (the machine's
    /// drift on both builds alike), `forward+rowcopy` 30 % slower in the candidate. Sixteen
    /// pairs: the e-BH family of 34 gated configuration-metric pairs needs them to decide.
    static func writeQuickSuiteAB(to path: String) throws {
        let source = CLISupport.packageRoot.appendingPathComponent("results/full-peers-epyc-2c-r4-raw.csv").path
        let rows = try ResultsFileReader.read(RawResultRow.self, from: source).filter { row in
            row.repetition == 0 && row.status == .ok && (row.phase == .calibration
                || (["hevc-360p-5s", "vp9-360p-5s"].contains(row.video.id) && [.extract, .compose, .total].contains(row.phase)
                    && !row.pipeline.description.hasPrefix("cli:")))
        }
        let drift = [1.0, 1.2, 0.9, 1.1, 0.95, 1.15]
        // Sub-phases as noisy as they are on a busy machine (some stay undecided), totals a little.
        let noise = [1.0, 0.97, 1.04, 0.99, 1.06, 0.96], small = [1.0, 1.004, 0.996, 1.002, 0.998, 1.001]
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        for repetition in 0..<16 {
            let speed = drift[repetition % drift.count]
            for row in rows {
                for role in BuildRole.allCases {
                    var pair = row
                    let slower = role == .candidate && row.pipeline == "forward+rowcopy" && [.extract, .total].contains(row.phase) ? 1.3 : 1.0
                    let wobble = [.extract, .compose].contains(row.phase) ? noise[repetition % noise.count] : small[repetition % small.count]
                    let jitter = role == .candidate ? wobble : 1.0
                    let factor = speed * slower * jitter
                    pair.repetition = repetition
                    pair.build = role
                    pair.executableCommit = role == .baseline ? "aaaaaaa" : "bbbbbbb"
                    pair.wallSeconds = row.wallSeconds.map { $0 * factor }
                    pair.cpuUserSeconds = row.cpuUserSeconds.map { $0 * factor }
                    pair.cpuSysSeconds = row.cpuSysSeconds.map { $0 * factor }
                    try writer.append(pair)
                }
            }
        }
    }

    /// The hardware comparison (two machines' runs) fits the terminal too, times with units.
    @Test("compare of two machines' runs at COLUMNS=100: no line over 100 columns")
    func hardwareComparisonFits() throws {
        let result = try Self.run(columns: 100, ["compare", HardwareComparisonTests.twoCores, HardwareComparisonTests.sixteenCores])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(lines.filter { $0.count > 100 })")
        // Where a configuration does not fit beside the numbers it stands on its own line above
        // them ("configuration" alone heads the table): never cut.
        let header = try #require(lines.firstIndex { $0.hasPrefix("configuration") })
        let stacked = lines[header] == "configuration"
        let body = lines[(header + (stacked ? 3 : 2))...].prefix(while: { !$0.hasPrefix("hardware:") })
        #expect(!body.isEmpty && !body.contains { $0.contains("…") && !$0.contains(" … ") }, "\(body)")
        for row in body where !stacked || row.hasPrefix("  ") {
            let cells = row.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            #expect(cells.count >= 3 && cells[stacked ? 0 : 1].range(of: Self.time, options: .regularExpression) != nil, "\(row)")
        }
    }
}
