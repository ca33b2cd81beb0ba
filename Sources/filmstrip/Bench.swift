import ArgumentParser
import Dispatch
import Filmstrip
import FilmstripBench
import FilmstripFixtures
import FilmstripResults
import Foundation

extension FilmstripCommand {
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Benchmark the pipelines on reference videos; append CSV rows to results/NAME-raw.csv and -summary.csv.",
            discussion: """
                Every extractor runs with the rowcopy composer over the videos × counts × heights × accuracies × \
                thread settings; every other composer runs with the forward extractor on the first video at the \
                largest count; every composer is also timed on 500 synthetic 114x64 thumbnails beside a plain \
                memcpy; two calibration workloads make machines comparable. Each run is a separate child process; \
                repetitions are interleaved. Lists are comma-separated; each defaults to the suite's matrix. \
                On stderr each step is said before it starts (your videos' frames checked against the ffmpeg CLI, \
                reference videos made), then the plan, then the progress with an ETA learnt from this run's own runs; \
                on a terminal long lines wrap to its width. The table after the run lists your own videos first. \
                Exit status: 0 done, 1 bad input (or, with --fail-on-disagreement, strategies disagreed), \
                130 interrupted by SIGINT, 143 by SIGTERM (rows written so far are kept).
                """)

        /// The suite and the lists that replace parts of its matrix.
        @OptionGroup var lists: BenchMatrixOptions

        @Option(help: "Output name: writes NAME-raw.csv and NAME-summary.csv (default results/SUITE-MACHINE).")
        var out: String?

        @Option(name: .customLong("fixtures-dir"), help: "Reference video cache (default: $FILMSTRIP_FIXTURES, else $XDG_CACHE_HOME/filmstrip/fixtures or ~/.cache/filmstrip/fixtures).")
        var fixturesDir: String?

        @Flag(help: "Also time real tools on the same videos: the ffmpeg CLI (exact and keyframe strips, decode floors) and ffmpegthumbnailer (one process per thumbnail).")
        var peers = false

        @Option(name: .customLong("baseline-binary"), help: "A second filmstrip executable to run every configuration with, as the baseline: each repetition runs both builds back to back, in alternating order; `filmstrip compare RAW.csv` then judges the candidate pair by pair.")
        var baselineBinary: String?

        @Option(name: .customLong("baseline-rev"), help: "Like --baseline-binary, with this git revision built in release once (cached in .build-baselines/COMMIT), e.g. origin/main.")
        var baselineRevision: String?

        @Option(name: .customLong("candidate-binary"), help: "The candidate executable of a two-build run (default: this one).")
        var candidateBinary: String?

        @Flag(name: .customLong("pipelines-only"), help: "Leave out the composition-alone, memcpy-floor and calibration runs (a two-build gate on the listed pipelines; the file is then comparable paired only).")
        var pipelinesOnly = false

        @Flag(name: .customLong("fail-on-disagreement"), help: "Exit 1 at the end when exact strategies made different strips or wrong frames (for CI).")
        var failOnDisagreement = false

        enum Measure: String, CaseIterable, ExpressibleByArgument {
            case time, instructions
        }

        @Option(help: "What each run measures: time (clocks, CPU time and work counters, repetitions interleaved) or instructions (every configuration once per build under valgrind's callgrind, per phase, several runs at a time; compare with `--metric instructions`).")
        var measure: Measure = .time

        @Flag(name: .customLong("until-decided"), inversion: .prefixedNo,
              help: "Two-build time runs: after the repetitions, add pairs to every configuration the gate cannot decide yet, until each is decided or --max-minutes is spent (anytime-valid evidence, so stopping early keeps the gate's error rates).")
        var untilDecided = true

        @Option(name: .customLong("max-minutes"), help: "Time budget of a two-build time run with --until-decided, repetitions included.")
        var maxMinutes: Double = 20

        @Option(name: .customLong("max-pairs"), help: "With --until-decided: the most pairs of one configuration (the budget is --max-minutes; this bounds a configuration that will never be decided).")
        var maxPairs = UntilDecided.defaultMaxPairs

        @Option(name: .customLong("gate-metric"), help: "The one metric --until-decided decides on (default: cpu_s, cpu_blocked_s and wall_s, all decided; wall_s only for configurations measured on a quiet machine). Recorded in NAME-gate.json beside the raw file, which `compare` reads.")
        var gateMetric: Metric?

        @Option(help: "The threshold --until-decided decides on, e.g. 5% (recorded with the metrics for `compare`).")
        var threshold: GateThreshold?

        /// `--quiet`: nothing on success (no plan, progress, warnings about the machine or the
        /// spread, table or file names); errors, disagreements and failed runs still go to
        /// stderr. `--json`: the progress and the outcome as JSON lines.
        @OptionGroup var reporting: ReportingOptions

        @Option(help: "Instruction runs at a time (default: one per core; counts do not depend on the load).")
        var jobs: Int?

        @Option(name: .customLong("export"), help: "After the run, also write its rows as FORMAT=FILE, FORMAT one of json, bmf, github-benchmark, markdown (repeatable; see `filmstrip export`).",
                transform: ExportRequest.init(parsing:))
        var exports: [ExportRequest] = []

        func validate() throws {
            // The matrix's lists are checked where `run` builds it, once (`matrix()`'s ValidationError reads the same there).
            if baselineBinary != nil && baselineRevision != nil {
                throw ValidationError("Give --baseline-binary or --baseline-rev, not both.")
            }
            if candidateBinary != nil && baselineBinary == nil && baselineRevision == nil {
                throw ValidationError("--candidate-binary needs a baseline (--baseline-binary or --baseline-rev).")
            }
            for path in [baselineBinary, candidateBinary].compactMap({ $0 }) where !FileManager.default.isExecutableFile(atPath: path) {
                throw ValidationError("\(FileSystemName.display(path)): not an executable file.")
            }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
            guard maxMinutes > 0, maxMinutes.isFinite else { throw ValidationError("--max-minutes must be positive.") }
            try OptionRange.check(maxPairs, 2...100_000, "--max-pairs")
            if gateMetric == .some(.instructions) { throw ValidationError("--gate-metric takes a time (cpu_s, wall_s, …); instruction runs are decided exactly (--measure instructions).") }
            if jobs != nil && measure != .instructions { throw ValidationError("--jobs applies to --measure instructions (time runs go one at a time).") }
        }

        /// `runner` for `executable`: native, or under callgrind from a copy valgrind can read.
        func runner(_ executable: URL, callgrind: Callgrind?, scratch: URL) throws -> ChildRunner {
            guard let callgrind else { return ChildRunner(executable: executable) }
            return ChildRunner(executable: try Callgrind.instrumentable(executable, into: scratch), callgrind: callgrind)
        }

        /// The executables to run: this one, or baseline and candidate.
        func builds(progress: BenchProgress, callgrind: Callgrind?, scratch: URL, interruption: Interruption) throws -> [BenchSession.Build] {
            let candidate = candidateBinary.map { URL(fileURLWithPath: $0) } ?? Self.ownExecutable
            // This executable knows its commit; another candidate reports its own through its children.
            let candidateCommit = candidateBinary == nil ? BuildInfo.commitDescription : ""
            let baseline: (url: URL, commit: String), baselineConfiguration: String?
            if let baselineBinary {
                (baseline, baselineConfiguration) = ((URL(fileURLWithPath: baselineBinary), ""), nil)
            } else if let baselineRevision {
                baseline = try BaselineBuild.executable(
                    revision: baselineRevision, repository: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                    interruption: interruption, note: { progress.note($0) })
                baselineConfiguration = "release"
            } else {
                return [BenchSession.Build(role: nil, runner: try runner(candidate, callgrind: callgrind, scratch: scratch),
                                           commitFallback: candidateCommit)]
            }
            return [BenchSession.Build(role: .baseline, runner: try runner(baseline.url, callgrind: callgrind, scratch: scratch),
                                       commitFallback: baseline.commit, configurationFallback: baselineConfiguration),
                    BenchSession.Build(role: .candidate, runner: try runner(candidate, callgrind: callgrind, scratch: scratch),
                                       commitFallback: candidateCommit)]
        }

        /// The suite's default matrix with the given lists replacing its parts.
        func matrix() throws -> BenchMatrix {
            try lists.matrix(peers: peers, pipelinesOnly: pipelinesOnly, oneRunEach: measure == .instructions)
        }

        func run() async throws {
            let matrix = try self.matrix()
            let interruption = Interruption()
            let sources = Self.forwardSignals(to: interruption)
            defer { sources.forEach { $0.cancel() } }
            let machine = MachineReport.current
            let git = GitRevision.current()
            let context = RunContext(runID: Self.runID(), gitCommit: git.commit, gitDirty: git.dirty, machine: machine)
            let files = ResultsFiles(name: out ?? "results/\(lists.suite.rawValue)-\(machine.name)")
            let cache = fixturesDir.map { ReferenceVideoCache(directory: URL(fileURLWithPath: $0, isDirectory: true)) } ?? ReferenceVideoCache()
            let jsonProgress: ((BenchProgress.Running) -> Void)? = reporting.json ? { Self.jsonProgress($0) } : nil
            let progress = BenchProgress(columns: Console.errorColumns, quiet: reporting.quiet || reporting.json, onRunning: jsonProgress)
            let result: BenchSession.Result
            var referenceMismatches = 0
            // Stripped copies of the executables for valgrind, removed at the end.
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-instrumented-\(getpid())")
            defer { try? FileManager.default.removeItem(at: scratch) }
            do {
                let callgrind = measure == .instructions ? try Callgrind.find() : nil
                referenceMismatches = try await checkUserVideos(matrix, progress: progress)
                var session = BenchSession(matrix: matrix, context: context, files: files, cache: cache, builds: try builds(progress: progress, callgrind: callgrind, scratch: scratch,
                                                                                 interruption: interruption))
                configure(&session, cores: machine.logicalCores)
                try FileManager.default.createDirectory(at: URL(fileURLWithPath: files.raw).deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                // Before the first pair, so an interrupted run's rows are judged as it would have judged them.
                try session.untilDecided.map { try GateSettings(runID: context.runID, gate: $0.gate).write(besideRaw: files.raw) }
                result = try session.run(interruption: interruption, progress: progress)
            } catch let failure as BaselineBuild.Failure where failure.signal != nil {
                Console.err("filmstrip: \(TerminalText.line(failure.description))")
                throw ExitCode(128 + failure.signal!)
            } catch {
                throw failWithMessage(error)
            }
            try finish(result, context: context, files: files, referenceMismatches: referenceMismatches,
                       ownVideos: matrix.videoIDs.filter { matrix.userVideos[$0] != nil })
        }

        /// What the session measures, and for a time gate of two builds when it may stop.
        func configure(_ session: inout BenchSession, cores: Int) {
            if measure == .instructions { session.measure = .instructions(parallel: jobs ?? cores) }
            if measure == .time, untilDecided, session.builds.count > 1 {
                let gate = gateMetric.map { RegressionGate(metric: $0, threshold: threshold?.fraction) }
                    ?? .elapsedAndCPU(threshold: threshold?.fraction)
                session.untilDecided = UntilDecided(gate: gate, maxSeconds: maxMinutes * 60, maxPairs: maxPairs)
            }
        }

        /// A finished run's outcome (`ownVideos`: the user's videos, whose tables lead), exports
        /// and exit status (128 + the signal that interrupted it, 1 for disagreements under
        /// `--fail-on-disagreement`).
        func finish(_ result: BenchSession.Result, context: RunContext, files: ResultsFiles, referenceMismatches: Int, ownVideos: [String]) throws {
            if let signal = result.interruptedBy {
                Console.err("filmstrip: interrupted by signal \(signal); \(result.rows.count) complete row(s) kept in \(FileSystemName.display(files.raw)), no summary written")
                throw ExitCode(128 + signal)
            }
            try printOutcome(result, context: context, files: files, ownVideos: ownVideos)
            try ExportWriter.writeRequests(exports, rows: result.rows, inputs: [files.raw, files.summary])
            if result.disagreements > 0 {
                Console.err("filmstrip: \(result.disagreements) disagreement(s) between exact strategies; see the disagreement column")
            }
            if result.disagreements + referenceMismatches > 0, failOnDisagreement { throw ExitCode.failure }
        }

        /// Turns SIGINT and SIGTERM into `interruption` (rows written so far are kept); keep the
        /// returned sources alive while the run goes on.
        static func forwardSignals(to interruption: Interruption) -> [any DispatchSourceSignal] {
            [SIGINT, SIGTERM].map { number in
                // The default action must be ignored first or the process would die before the source sees them.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { interruption.interrupt(signal: number) }
                source.resume()
                return source
            }
        }

        /// The table of the fastest pipelines (the requests on `ownVideos`, the user's videos in
        /// the order given, first), where the rows went and what to do next: lines of text, with
        /// `--json` one object, with `--quiet` nothing.
        func printOutcome(_ result: BenchSession.Result, context: RunContext, files: ResultsFiles, ownVideos: [String]) throws {
            let twoBuilds = baselineBinary != nil || baselineRevision != nil
            let compare = "filmstrip compare \(files.raw)\(measure == .instructions ? " --metric instructions" : "")"
            if reporting.json {
                return try Console.jsonLine(["event": "done", "run": .string(context.runID), "raw": .string(files.raw), "raw_rows": .integer(result.rows.count),
                                             "summary": .string(files.summary), "summary_rows": .integer(result.summary.count), "failures": .integer(result.failures),
                                             "disagreements": .integer(result.disagreements)].merging(twoBuilds ? ["compare": .string(compare)] : [:]) { $1 })
            }
            // Quiet means nothing but errors: a failed run is one, said on standard error.
            guard !reporting.quiet else {
                if result.failures > 0 { Console.err("filmstrip: \(result.failures) run(s) failed or timed out; see the status and error columns of \(FileSystemName.display(files.raw))") }
                return
            }
            if measure == .time {
                if context.machine.buildConfiguration == "debug" { try Console.out("note: debug build; timings are not comparable with release builds") }
                // The user's own videos are what they came for: their tables come first.
                try Console.out(TerminalText.visible(FastestTable.text(result.summary, raw: result.rows, leadingVideos: ownVideos)))
                try Console.out("")
            }
            try Console.out("run \(context.runID): \(result.rows.count) raw row(s) appended to \(FileSystemName.display(files.raw))")
            try Console.out("\(result.summary.count) summary row(s) appended to \(FileSystemName.display(files.summary))")
            if twoBuilds { try Console.out("two builds: judge the candidate with `\(TerminalText.line(compare))`") }
            if result.failures > 0 { try Console.out("\(result.failures) run(s) failed or timed out; see the status and error columns") }
        }

        /// The user's own videos have no frame markers: their exact thumbnails are checked against
        /// the ffmpeg CLI's decode of the same frames instead (the strategies' byte-for-byte
        /// agreement is checked in the runs, as for reference videos). Returns the videos that differ.
        func checkUserVideos(_ matrix: BenchMatrix, progress: BenchProgress) async throws -> Int {
            let ids = matrix.videoIDs.filter { matrix.userVideos[$0] != nil }
            guard !ids.isEmpty else { return 0 }
            guard let ffmpeg = ExternalProcess.find("ffmpeg") else {
                progress.note("bench: no ffmpeg CLI on PATH: your videos are checked for agreement between strategies only")
                return 0
            }
            let count = matrix.counts.min() ?? 10, height = matrix.heights.first ?? 64
            var mismatches = 0
            for id in ids {
                // Seconds on a long video, before any run: said first, so the wait has a reason.
                progress.info("bench: checking \(count) frames of \(id) against the ffmpeg CLI's decode…")
                let outcome = try await ReferenceDecodeCheck.run(path: matrix.userVideos[id]!, count: count, height: height, ffmpeg: ffmpeg)
                let worst = String(format: "%.2f", outcome.worstDifference)
                if outcome.agrees {
                    progress.info("bench: \(id): \(outcome.compared) exact thumbnails match the ffmpeg CLI's decode of the same frames (worst mean difference \(worst) of 255)")
                } else {
                    mismatches += 1
                    progress.note("filmstrip: MISMATCH: \(id): frame(s) \(outcome.mismatchedFrames.map(String.init).joined(separator: ", ")) differ from the ffmpeg CLI's decode (worst mean difference \(worst) of 255, bound \(Int(ReferenceDecodeCheck.threshold)))")
                }
            }
            return mismatches
        }

        /// UTC time plus random hex: sortable, and unique even for two runs in the same second.
        /// `--json`: one line per run about to start (a failed write shows at the final line).
        static func jsonProgress(_ running: BenchProgress.Running) {
            var fields: [String: JSONValue] = ["event": "progress", "configuration": .string(running.label), "round": .string(running.round),
                                               "done": .integer(running.done), "total": .integer(running.total)]
            if let eta = running.eta, eta.isFinite { fields["eta_s"] = .number(eta) }
            try? Console.jsonLine(fields)
        }

        static func runID() -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return "\(formatter.string(from: Date()))-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        }

        /// This process's executable, launched again as the `bench-run` child.
        static var ownExecutable: URL {
            let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            return URL(fileURLWithPath: path)
        }
    }
}
