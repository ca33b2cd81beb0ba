import CLITestSupport
import Foundation
import Testing
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
    }

    @Test("compare's text table fits 120 columns; cut names are in the legend; times are not in e-notation")
    func compareTableFits() throws {
        let results = CLISupport.packageRoot.appendingPathComponent("results")
        let result = try CLISupport.run(["compare", results.appendingPathComponent("full-peers-epyc-2c-r3-raw.csv").path,
                                         results.appendingPathComponent("full-peers-epyc-2c-r4-raw.csv").path, "--metric", "wall_s"])
        #expect([0, 2, 3].contains(result.status), "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("id ") }, "\(result.standardOutput.prefix(500))")
        let tableRows = lines[(header + 2)...].prefix { $0.range(of: #"^[0-9a-f]{8}  "#, options: .regularExpression) != nil }
        #expect(tableRows.count > 10)
        for line in [lines[header]] + tableRows {
            #expect(line.count <= GateReport.textWidth, "\(line.count) columns: \(line)")
            #expect(line.range(of: #"\de-\d"#, options: .regularExpression) == nil, "\(line)")
        }
        if tableRows.contains(where: { $0.contains("…  ") }) {
            #expect(lines.contains { $0.hasPrefix("names cut above, in full") })
        }
    }
}
