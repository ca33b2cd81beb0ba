import ArgumentParser
import FilmstripBench
import Foundation

extension FilmstripCommand {
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Regression gate: compare two raw results files configuration by configuration.",
            discussion: "Exit status: 0 nothing slower, 2 a configuration got slower beyond the threshold, 3 the files cannot be compared.")

        enum Format: String, CaseIterable, ExpressibleByArgument {
            case text, markdown
        }

        @Argument(help: "Baseline raw results file (*-raw.csv).")
        var baseline: String

        @Argument(help: "New raw results file to check against the baseline.")
        var new: String

        @Option(help: "Relative change treated as noise, e.g. 5% or 0.05.")
        var threshold: String = "5%"

        @Option(help: "Metric compared: \(Metric.allCases.map(\.rawValue).joined(separator: ", ")).")
        var metric: Metric = .wallSeconds

        @Option(help: "Report format.")
        var format: Format = .text

        func validate() throws {
            guard let value = thresholdFraction, value >= 0, value < 1 else {
                throw ValidationError("--threshold must be a percentage like 5% or a fraction like 0.05, below 100%.")
            }
        }

        /// The threshold as a fraction: `5%` and `0.05` both give 0.05.
        var thresholdFraction: Double? {
            threshold.hasSuffix("%") ? Double(threshold.dropLast()).map { $0 / 100 } : Double(threshold)
        }

        func run() throws {
            let gate = RegressionGate(metric: metric, threshold: thresholdFraction!)
            let report = gate.compareFiles(baselinePath: baseline, candidatePath: new)
            print(format == .markdown ? report.markdown : report.text)
            let code = report.outcome.exitCode
            if code != 0 { throw ExitCode(code) }
        }
    }
}

extension Metric: ExpressibleByArgument {}
