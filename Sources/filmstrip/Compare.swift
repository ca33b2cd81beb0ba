import ArgumentParser
import Filmstrip
import FilmstripReport
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
            // Each file read once; the judge decides what they answer and with which gate, and
            // this prints its judgement (as `report` and `plot` render theirs).
            let files = [baseline] + (new.map { [$0] } ?? [])
            var judgement = Judge.compare(files.map(RawResultsFile.init(path:)),
                                          settings: JudgeSettings(metric: metric, threshold: threshold?.fraction, gateAcrossMachines: gate))
            judgement.render(onlyChanged: onlyChanged, allPhases: allPhases, width: Console.columns)
            for warning in judgement.gateReport?.warnings ?? [] { Console.err("filmstrip: warning: \(TerminalText.line(warning))") }
            if case .badInput = judgement.outcome {
                // One line naming the file and the reason; a JSON reader still gets its object.
                Console.err("filmstrip: \(TerminalText.line(judgement.headline))")
                if format == .json { try Console.out(judgement.json) }
            } else {
                switch format {
                case .text: try Console.out(TerminalText.visible(judgement.text), terminator: judgement.gateReport == nil ? "" : "\n")
                case .markdown: try Console.out(TerminalText.visible(judgement.markdown), terminator: judgement.gateReport == nil ? "" : "\n")
                case .json: try Console.out(judgement.json)
                }
            }
            if judgement.exitCode != 0 { throw ExitCode(judgement.exitCode) }
        }
    }
}

extension FilmstripCommand.Compare {
    /// The same file under two names (a link, `./`): compared by device and inode.
    static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}

extension Metric: ExpressibleByArgument {}
