import Foundation
import ResultsTestSupport
import Testing
@testable import FilmstripReport
@testable import FilmstripResults

/// Judge once, render many: for each kind of input, `compare`'s three forms, the report, the
/// plot and the export say the same verdict about the same run, because each renders the
/// judge's ``Judgement`` and none decides on its own.
@Suite(.serialized)
struct OneJudgementTests {
    /// One kind of input: its files (rows written to disk), the verdict word and exit status
    /// every output must give, and the candidate's median wall time (or instruction count)
    /// per configuration that the judged run has, when a gate judged it.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [[RawResultRow]]
        var word: String
        var exitStatus: Int32
        var testDescription: String { name }
    }

    /// A two-build time file whose candidate is 30 % slower in every configuration.
    static func twoBuildTime(slowed: Bool, runID: String = "ab", start: Double = 0) -> [RawResultRow] {
        SampleResults.rows(machines: [SampleResults.fastMachine], frameCounts: [10]).filter { $0.phase != .calibration }.flatMap { row in
            var row = row
            row.run.runID = runID
            row.timestamp = row.timestamp.addingTimeInterval(start)
            return SampleResults.twoBuildPair(row) { _ in slowed }
        }
    }

    /// A two-build instruction file (one repetition, no times): the candidate does 10 % more work.
    static func instructions(grew: Bool) -> [RawResultRow] {
        SampleResults.rows(machines: [SampleResults.fastMachine], frameCounts: [10]).filter { $0.repetition == 0 && $0.phase != .calibration }
            .flatMap { row in
                var row = row
                row.run.runID = "ci-instructions"
                (row.wallSeconds, row.cpuUserSeconds, row.cpuSysSeconds, row.thumbnailsPerSecond) = (nil, nil, nil, nil)
                row.instructions = 100_000_000
                let pair = SampleResults.twoBuildPair(row) { _ in false }
                return pair.map { row in
                    var row = row
                    if grew && row.build == .candidate { row.instructions = 110_000_000 }
                    return row
                }
            }
    }

    static let cases: [Case] = [
        Case(name: "a two-build time file, 30 % slower", files: [twoBuildTime(slowed: true)], word: "regressed", exitStatus: 2),
        Case(name: "an instruction file, 10 % more", files: [instructions(grew: true)], word: "regressed", exitStatus: 2),
        // An older run that regressed and a newer one that did not, in one file: the newer is judged.
        Case(name: "a file with several runs", files: [twoBuildTime(slowed: true, runID: "old") + twoBuildTime(slowed: false, runID: "new", start: 86_400)],
             word: "passed", exitStatus: 0),
        Case(name: "a candidate that crashed", files: [FailureVerdictTests.rows(failure: "child killed by signal 11")], word: "regressed", exitStatus: 2),
        Case(name: "two machines' runs", files: [SampleResults.rows(machines: [SampleResults.fastMachine]),
                                                 SampleResults.rows(machines: [SampleResults.slowMachine]).map { row in
                                                     var row = row
                                                     row.run.runID = "run-other"
                                                     return row
                                                 }], word: "hardware", exitStatus: 0),
    ]

    static func write(_ files: [[RawResultRow]], folder: URL) throws -> [String] {
        try files.enumerated().map { index, rows in
            let path = folder.appendingPathComponent("input-\(index)-raw.csv").path
            let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
            for row in rows { try writer.append(row) }
            return path
        }
    }

    @Test("compare's text, Markdown and JSON, the report, the plot and the export agree", arguments: cases)
    func everyOutputGivesTheSameVerdict(_ input: Case) throws {
        let folder = try CLISupport.scratchDirectory()
        let paths = try Self.write(input.files, folder: folder)
        let judgement = Judge.compare(paths.map(RawResultsFile.init(path:)))
        #expect(judgement.verdictWord == input.word && judgement.exitCode == input.exitStatus, "\(judgement.headline)")
        // compare, the command: the exit status and the same headline in each form.
        for format in ["text", "markdown", "json"] {
            let run = try CLISupport.run(["compare"] + paths + ["--format", format])
            #expect(run.status == input.exitStatus, "\(format): \(run.standardOutput) \(run.standardError)")
            let object = format == "json" ? try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any] : nil
            if let object {
                #expect(object["exit_status"] as? Int == Int(input.exitStatus))
                #expect(object["outcome"] as? String == input.word.replacingOccurrences(of: " ", with: "_"))
                #expect(object["summary"] as? String == judgement.headline)
            } else {
                #expect(run.standardOutput.contains(judgement.headline) || WrappedText.joined(run.standardOutput).contains { $0.contains(judgement.headline) },
                        "\(format): \(run.standardOutput)")
            }
        }
        // The report leads with the same answer.
        let page = try HTMLReport(files: paths)
        #expect(page.judgements.count == 1 && page.judgements[0].headline == judgement.headline)
        let lead = input.word == "hardware" ? page.hardwareSection : page.verdictSection
        #expect(lead.contains(HTMLText.escape(judgement.headline)), "\(lead.prefix(600))")
        // The plot names it first and draws its gate chart from the same comparisons.
        let plotted = try Plotter(outputDirectory: folder.appendingPathComponent("plots").path).plot(files: paths)
        #expect(plotted.lines.first == "verdict (\(judgement.title)): \(judgement.headline)")
        if let report = judgement.gateReport, !report.comparisons.isEmpty {
            let gateChart = try #require(plotted.drawn.first { $0.kind == .gate })
            #expect(gateChart.title.contains(report.outcomeLine))
        }
        // The export's values are the judged run's: its candidate medians are the gate's.
        guard let report = judgement.gateReport, input.files.count == 1 else { return }
        let exported = ResultsExport.configurations(from: try ResultsFileReader.read(RawResultRow.self, from: paths[0]))
        let metric: Metric = report.gate.metric == .instructions ? .instructions : .wallSeconds
        for comparison in report.comparisons where comparison.metric == metric && comparison.key.phase == .total {
            let configuration = try #require(exported.first { $0.key == comparison.key }, "\(comparison.key) not exported")
            #expect(abs(configuration.statistics.median / comparison.candidateMedian - 1) < 1e-9, "\(comparison.key)")
        }
    }

    /// One CI run's two gate files (instructions, times): compare judges each; the report and
    /// the plot judge both, and their overall verdict is the more severe of the two.
    @Test func aCIRunsTwoGateFilesAreJudgedAlikeEverywhere() throws {
        let folder = try CLISupport.scratchDirectory()
        let paths = try Self.write([Self.instructions(grew: true), Self.twoBuildTime(slowed: false, runID: "ci-time", start: 600)], folder: folder)
        let each = paths.map { Judge.compare([RawResultsFile(path: $0)]) }
        #expect(each.map(\.exitCode) == [2, 0], "\(each.map(\.headline))")
        for (path, judgement) in zip(paths, each) {
            let run = try CLISupport.run(["compare", path, "--format", "json"])
            #expect(run.status == judgement.exitCode)
        }
        let page = try HTMLReport(files: paths)
        #expect(page.judgements.map(\.headline) == each.map(\.headline))
        #expect(page.verdictSection.contains("regressed (exit 2) over 2 gates") && !page.verdictSection.contains("bad input"))
        let plotted = try Plotter(outputDirectory: folder.appendingPathComponent("plots").path).plot(files: paths)
        #expect(Array(plotted.lines.prefix(2)) == each.map { "verdict (\($0.title)): \($0.headline)" })
        #expect(plotted.drawn.filter { $0.kind == .gate }.count == 2)
    }
}
