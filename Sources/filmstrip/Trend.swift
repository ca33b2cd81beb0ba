import ArgumentParser
import Filmstrip
import FilmstripResults
import Foundation

extension FilmstripCommand {
    struct Trend: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find when configurations got slower or faster across a series of runs (E-divisive means change points).",
            discussion: """
                Reads raw results files, orders their runs by time (then commit), keeps runs of each machine \
                (fingerprint id and build configuration) apart, and searches each configuration's run medians of \
                wall time for steps with E-divisive means (Matteson & James 2014) and a permutation test. Each \
                step is printed with the run and commit where it appeared and its size with a 95% bootstrap \
                interval. The newest run is also judged alone against the runs since the last step (a prediction \
                interval at the same significance), since a step search needs 3 runs after a step. A history \
                needs 6 runs; below 10 (where the permutation test cannot make any step significant at the default \
                significance) one step is searched by a t test of the log run medians at each split, the significance \
                divided among the splits. Exit status: \
                0 no configuration ends on a step up, 2 at least one does (its newest run is slower than before \
                a step; of the phases the gate judges: a pipeline's total, not its extract and compose), 3 undecided (a machine, or a configuration of its newest run, has too short a history), \
                1 input that cannot be judged (an unreadable file, no timed repetition), as `compare`.
                """)

        @Argument(help: "Raw results files (NAME-raw.csv).", completion: .file(extensions: ["csv"]))
        var rawFiles: [String]

        @Option(name: .customLong("min-change"), help: "Smallest step to report, e.g. 3% or 0.03 (as `compare --threshold`).")
        var minimumChange = GateThreshold(argument: "3%")!

        @Option(help: "Largest permutation-test p-value that counts as a step.")
        var significance: Double = 0.01

        func validate() throws {
            guard !rawFiles.isEmpty else { throw ValidationError("Give at least one raw results file.") }
            guard significance > 0, significance < 1 else { throw ValidationError("--significance must be between 0 and 1.") }
        }

        func run() throws {
            // The judge decides; this prints each history and the closing line.
            let analysis = TrendAnalysis(detector: EDivisive(significance: significance), minimumChange: minimumChange.fraction)
            let judgement = Judge.trend(rawFiles.map(RawResultsFile.init(path:)), analysis: analysis)
            if case .badInput(let reason) = judgement.outcome {
                Console.err("filmstrip: \(TerminalText.line(reason))")
                throw ExitCode(judgement.outcome.exitCode)
            }
            for history in judgement.histories {
                try Console.out(TerminalText.visible(TrendReport.text(history, minimumRuns: analysis.minimumRuns)))
            }
            if let closing = judgement.closingLine { try Console.out(closing) }
            if judgement.outcome.exitCode != 0 { throw ExitCode(judgement.outcome.exitCode) }
        }
    }
}

/// The text `trend` prints for one machine.
enum TrendReport {
    static func text(_ history: MachineHistory, minimumRuns: Int) -> String {
        var lines = ["machine \(history.machineName) (\(history.machineID), \(history.buildConfiguration)): \(history.runs.count) run(s)"
            + (history.runs.isEmpty ? "" : " from \(day(history.runs.first!.started)) to \(day(history.runs.last!.started))")]
        guard history.runs.count >= minimumRuns else {
            lines.append("  not enough history: \(history.runs.count) run(s), at least \(minimumRuns) are needed to find steps; none searched (undecided)")
            return lines.joined(separator: "\n")
        }
        if !history.tooShort.isEmpty {
            lines.append("  \(history.tooShort.count) configuration(s) of the newest run have fewer than \(minimumRuns) runs; not searched (undecided): "
                + history.tooShort.prefix(5).map(\.configID).joined(separator: ", ") + (history.tooShort.count > 5 ? ", …" : ""))
        }
        let stepped = history.trends.filter { !$0.steps.isEmpty }
        let gated = Set(history.gatedEndingOnStepUp.map(\.key))
        let normalised = history.trends.filter(\.normalised).count
        let relative = normalised == 0 ? "" : normalised == history.trends.count
            ? " (times over each repetition's calibration)" : " (\(normalised) of them with times over each repetition's calibration)"
        lines.append("  \(history.trends.count) configuration(s) searched\(relative), \(stepped.count) with steps")
        for trend in stepped {
            let mark = gated.contains(trend.key) ? "  [latest run on a step up]" : trend.endsOnStepUp ? "  [newest run higher: a sub-phase or reference, shown, not gated]" : ""
            lines.append("  \(trend.key.configID) \(trend.key.shortName)\(mark)")
            for step in trend.steps {
                lines.append("    \(percent(step.relativeChange)) [95% \(percent(step.low)), \(percent(step.high))]"
                    + (step.newestRunAlone ? " in the newest run alone" : "") + " at commit "
                    + "\(step.run.commit.prefix(12)) (\(day(step.run.started)), run \(step.run.runID)\(step.run.build.map { " \($0.rawValue)" } ?? "")), "
                    + "after \(step.previousRun.commit.prefix(12))")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func percent(_ fraction: Double) -> String { String(format: "%+.1f%%", fraction * 100) }

    static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }
}
