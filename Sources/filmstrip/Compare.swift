import ArgumentParser
import FilmstripBench
import Foundation

extension FilmstripCommand {
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Regression gate: candidate against baseline, configuration by configuration.",
            discussion: """
                One file (a two-build run, `bench --baseline-binary` or `--baseline-rev`): candidate / baseline ratios \
                of the same repetition, paired. Two files (separate runs, e.g. two machines or two days): each time \
                divided by its repetition's calibration; such a comparison is exposed to the machine's speed of the \
                day as far as the calibration does not capture it. A changed work counter (frames, packets, bytes \
                read, seeks, heap allocations) is reported as work changed; more work fails the gate. \
                Exit status: 0 nothing slower, 2 a configuration got slower beyond the threshold (or does more work), \
                3 the input cannot be compared. Warnings and errors go to stderr.
                """)

        enum Format: String, CaseIterable, ExpressibleByArgument {
            case text, markdown, json
        }

        @Argument(help: "A two-build raw results file, or the baseline run's raw results file (*-raw.csv).")
        var baseline: String

        @Argument(help: "The candidate run's raw results file, when comparing two separate runs.")
        var new: String?

        @Option(help: "Relative change treated as noise, e.g. 5% or 0.05, below 100%.")
        var threshold: GateThreshold = .standard

        @Option(help: "Metric compared: \(Metric.allCases.map(\.rawValue).joined(separator: ", ")).")
        var metric: Metric = .wallSeconds

        @Option(help: "Report format: text, markdown (pull-request comments) or json (the README documents its keys).")
        var format: Format = .text

        @Flag(help: "List only the configurations called slower or faster (the verdict and work changes always show).")
        var onlyChanged = false


        func run() throws {
            let gate = RegressionGate(metric: metric, threshold: threshold.fraction)
            var report = new.map { gate.compareFiles(baselinePath: baseline, candidatePath: $0) }
                ?? gate.compareFile(path: baseline)
            report.onlyChanged = onlyChanged
            let standardError = FileHandle.standardError
            for warning in report.warnings { standardError.write(Data("filmstrip: warning: \(TerminalText.visible(warning))\n".utf8)) }
            if case .badInput = report.outcome {
                standardError.write(Data("filmstrip: \(TerminalText.visible(report.outcomeLine))\n".utf8))
                // A JSON reader gets its object whatever the outcome; the text forms print nothing.
                if format == .json { print(report.json) }
            } else {
                switch format {
                case .text: print(TerminalText.visible(report.text))
                case .markdown: print(TerminalText.visible(report.markdown))
                case .json: print(report.json)
                }
            }
            let code = report.outcome.exitCode
            if code != 0 { throw ExitCode(code) }
        }
    }
}

extension Metric: ExpressibleByArgument {}
