import ArgumentParser
import Filmstrip
import FilmstripReport
import FilmstripResults
import Foundation

extension FilmstripCommand {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One self-contained HTML page about raw benchmark results (no network, charts inline as SVG).",
            discussion: """
                A table of contents, then the verdict, once: the regression gate's outcome when a file holds two \
                builds (or two runs of one machine are given; judged like `compare`, on CPU and wall time, or on \
                instruction counts), else the fastest pipeline per video and N and the default pipeline's place; \
                two machines' runs lead with the hardware answer. The A/B table gives medians in µs, ms or s, the \
                change with its interval and each row's metric. Then charts: each configuration's repetitions relative to the fastest per video and N \
                (box plots, the default pipeline marked), the gate's ratios with the threshold band, the peers \
                (filmstrip against the ffmpeg CLI and ffmpegthumbnailer), peak RSS against N and speed-up \
                against workers; then the runs and the suite, and a section per configuration, folded by video \
                until opened (its \
                distribution per run, median with interval, counters, checksum agreement, change since the \
                run before). Three runs or more of a machine (several files) add a history: the median per \
                run of each configuration, the trend's steps (from six runs) and the latest run against the \
                one before. Every text from the files is escaped.
                """)

        @Argument(help: "Raw results CSV files (*-raw.csv); several runs of one machine make a history.", completion: .file(extensions: ["csv"]))
        var results: [String]

        @Option(name: [.short, .customLong("output")], help: "The HTML file to write; - writes to standard output.", completion: .file(extensions: ["html"]))
        var output = "report.html"

        @Option(help: "The gate's relative change treated as noise, e.g. 5% or 0.05, below 100% (default 5% for times, 0.5% for instructions).")
        var threshold: GateThreshold?


        func run() throws {
            let report: HTMLReport
            do {
                report = try HTMLReport(files: results, settings: JudgeSettings(threshold: threshold?.fraction))
            } catch {
                throw failWithMessage(error.description)
            }
            if output == "-" {
                try Console.out(report.html, terminator: "")
                return
            }
            do {
                // The same rule as strip's: never an input, through links and `..` too.
                for input in results { try StripWriter.checkDistinct(input: input, inputKind: "input results file", outputs: [("--output", output)]) }
                try report.write(to: output)
            } catch let error as OutputError {
                // It names the file itself.
                throw failWithMessage(error)
            } catch {
                throw failWithMessage("\(output): \(oneLineMessage(error))")
            }
            try Console.out("\(FileSystemName.display(output)): \(report.rows.count) rows from \(results.count) file(s)")
        }
    }
}
