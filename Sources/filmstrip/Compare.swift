import ArgumentParser
import Filmstrip
import FilmstripResults
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
                read, seeks, heap allocations) is reported as work changed; more work fails the gate. A file of \
                `bench --measure instructions` is compared on instruction counts per phase, exactly, naming the \
                functions behind each change. A configuration without enough evidence either way is undecided, \
                never "same". Two runs from different machines (their fingerprints differ) answer the hardware \
                question instead: per configuration the wall-time speed-up baseline / candidate with its interval, \
                the fastest pipeline on each machine and where the ranking changed, the task group's scaling \
                against the run's bound; no gate, exit 0 (`--gate` judges them as a regression gate). A time file is judged on CPU time and wall time at once (`--metric` names one): a \
                configuration is slower when either is decided slower, so a worker waiting on a lock (wall time \
                only) fails too. The metrics and threshold `bench --until-decided` decided on are read from \
                NAME-gate.json beside NAME-raw.csv unless --metric or --threshold say otherwise. Exit status, one \
                per meaning: 0 every gated configuration decided and none slower, 2 a configuration got slower \
                beyond the threshold (or does more work, or failed in the candidate only: crashed, exited non-zero, \
                timed out, wrong strip), 3 some configurations undecided (listed), 1 the input \
                cannot be judged (a missing or unreadable file, not a results file, no rows of both builds, every \
                run of a build failed, no configuration in common; one line on stderr names the file), 64 a usage error (a bad option, \
                a file compared with itself). Warnings and errors go to stderr.
                """)

        enum Format: String, CaseIterable, ExpressibleByArgument {
            case text, markdown, json
        }

        @Argument(help: "A two-build raw results file, or the baseline run's raw results file (*-raw.csv).")
        var baseline: String

        @Argument(help: "The candidate run's raw results file, when comparing two separate runs.")
        var new: String?

        @Option(help: "Relative change treated as noise, e.g. 5% or 0.05, below 100% (default: the one `bench --until-decided` recorded, else 5% for times, 0.5% for instructions).")
        var threshold: GateThreshold?

        @Option(help: "Metric compared: \(Metric.allCases.map(\.rawValue).joined(separator: ", ")) (default: the ones `bench --until-decided` recorded; else instructions for a file measured with `bench --measure instructions`, else cpu_s, cpu_blocked_s and wall_s together, wall_s only where the machine was quiet).")
        var metric: Metric?

        @Option(help: "Report format: text, markdown (pull-request comments) or json (the README documents its keys).")
        var format: Format = .text

        @Flag(help: "List only the configurations called slower or faster (the verdict and work changes always show).")
        var onlyChanged = false

        @Flag(help: "List the sub-phases too (e.g. a pipeline's extract and compose beside its total): shown, never gated; counted otherwise.")
        var allPhases = false

        @Flag(help: "Two runs from different machines: judge the candidate as the regression gate does (calibrated CPU time, exit 2 or 3) instead of answering the hardware question (wall-time speed-ups and rankings, exit 0).")
        var gate = false


        func validate() throws {
            if let new, Self.sameFile(baseline, new) {
                throw ValidationError("\(FileSystemName.display(baseline)) and \(FileSystemName.display(new)) are the same file: a file compared with itself shows nothing (give one two-build file, or two runs).")
            }
        }

        func run() throws {
            // Each file read once: its rows answer the hardware question and hold the gate's
            // recorded settings; its measurements are what the gate judges.
            let baselineFile = RawResultsFile(path: baseline), newFile = new.map { RawResultsFile(path: $0) }
            if !gate, let newFile, try compareMachines(baselineFile, newFile) { return }
            let rows = baselineFile.rows ?? []
            let recorded: GateSettings?
            do {
                recorded = new == nil ? try GateSettings.read(besideRaw: baseline) : nil
            } catch {
                Console.err("filmstrip: bad input: \(TerminalText.line(error.description)) (exit 1)")
                throw ExitCode(GateOutcome.badInput("").exitCode)
            }
            let (regressionGate, settingsNote) = Self.gate(metric: metric, threshold: threshold?.fraction, recorded: recorded, rows: rows)
            var report = newFile.map { regressionGate.compareFiles(baselineFile, $0) } ?? regressionGate.compareFile(baselineFile)
            if let settingsNote { report.settingsNote = settingsNote }
            report.onlyChanged = onlyChanged
            report.allPhases = allPhases
            report.width = Console.columns
            for warning in report.warnings { Console.err("filmstrip: warning: \(TerminalText.line(warning))") }
            if case .badInput = report.outcome {
                Console.err("filmstrip: \(TerminalText.line(report.outcomeLine))")
                // A JSON reader gets its object whatever the outcome; the text forms print nothing.
                if format == .json { try Console.out(report.json) }
            } else {
                switch format {
                case .text: try Console.out(TerminalText.visible(report.text))
                case .markdown: try Console.out(TerminalText.visible(report.markdown))
                case .json: try Console.out(report.json)
                }
            }
            let code = report.outcome.exitCode
            if code != 0 { throw ExitCode(code) }
        }
    }
}

extension FilmstripCommand.Compare {
    /// The gate to judge with: each of metric and threshold as given, else as recorded by
    /// `bench --until-decided` for a run in the file, else the defaults for the file's kind; and
    /// the line that says where recorded settings came from.
    static func gate(metric: Metric?, threshold: Double?, recorded: GateSettings?, rows: [RawResultRow]) -> (RegressionGate, String?) {
        let automatic = RegressionGate.automatic(for: rows)
        let usable = recorded.flatMap { settings in rows.contains { $0.run.runID == settings.runID } ? settings : nil }
        var gate = metric.map { RegressionGate(metric: $0) } ?? usable?.gate ?? automatic
        // Pairs added by `--until-decided` were added by looking, whatever metric judges them now.
        if usable != nil { gate.pairCollection = .addedByLooking }
        if let threshold {
            gate.threshold = threshold
        } else if let usable, metric != nil, gate.metric != .instructions {
            gate.threshold = usable.threshold
        }
        guard let usable else {
            gate.pairCollection = nil
            return (gate, recorded.map { "gate settings beside the file are of run \($0.runID), which it does not hold: not used" })
        }
        let used = [metric == nil ? "metrics" : nil, threshold == nil ? "threshold" : nil].compactMap { $0 }
        let note = "gate settings recorded by `bench --until-decided` (run \(usable.runID)): \(usable.metrics.map(\.rawValue).joined(separator: " and ")) at \(String(format: "%g", usable.threshold * 100)) %"
            + (used.isEmpty ? "; overridden by --metric and --threshold" : "; used: \(used.joined(separator: ", "))")
        return (gate, note)
    }

    /// Two runs from different machines, without `--gate`: the hardware comparison, exit 0.
    /// Returns `false` (the gate goes on) when the files are one machine's, cannot be read, or
    /// share no measured configuration (the gate then reports why: exit 1, never an empty answer).
    func compareMachines(_ baselineFile: RawResultsFile, _ candidateFile: RawResultsFile) throws -> Bool {
        guard let before = baselineFile.rows, let after = candidateFile.rows,
              HardwareComparison.differentMachines(before, after),
              HardwareComparison.haveCommonMeasurement(before, after) else { return false }
        var comparison = HardwareComparison(baseline: before, candidate: after, baselinePath: baselineFile.path,
                                            candidatePath: candidateFile.path)
        comparison.width = Console.columns
        switch format {
        case .text: try Console.out(TerminalText.visible(comparison.text), terminator: "")
        case .markdown: try Console.out(TerminalText.visible(comparison.markdown), terminator: "")
        case .json: try Console.out(comparison.json)
        }
        return true
    }

    /// The same file under two names (a link, `./`): compared by device and inode.
    static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}

extension Metric: ExpressibleByArgument {}
