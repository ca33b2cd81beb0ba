import Filmstrip
import FilmstripFixtures
import FilmstripResults
import Foundation
import Glibc

/// One `filmstrip bench` invocation: makes sure the reference videos exist, runs every
/// configuration in child processes in interleaved order, appends a raw row per phase
/// of every timed run, checks that exact strategies agree, then writes the summary.
///
/// With two builds (a baseline and a candidate executable), every repetition runs each
/// configuration under both, back to back, the order alternating, so each pair sees the
/// machine in the same state and `compare FILE` can judge the candidate pair by pair.
package struct BenchSession {
    /// One executable the session runs the configurations with.
    package struct Build: Sendable {
        /// nil when a single build runs everything.
        package var role: BuildRole?
        /// Runs each configuration: a ``ChildRunner`` (a fake in the tests).
        package var runner: any ConfigurationExecutor
        /// The commit recorded when the child does not report its own (built before it could).
        package var commitFallback: String
        /// Its build configuration when known without the child (`--baseline-rev` builds release).
        package var configurationFallback: String?

        package init(role: BuildRole?, runner: any ConfigurationExecutor, commitFallback: String = "", configurationFallback: String? = nil) {
            self.role = role
            self.runner = runner
            self.commitFallback = commitFallback
            self.configurationFallback = configurationFallback
        }
    }

    package var matrix: BenchMatrix
    package var context: RunContext
    /// The raw file, appended to row by row, and the summary, appended to once the run is complete.
    package var files: ResultsFiles
    package var cache: ReferenceVideoCache
    /// One build, or baseline then candidate.
    package var builds: [Build]
    /// What each run measures.
    package var measure: BenchMeasure = .time
    /// Two-build time runs: add pairs to undecided configurations after the planned repetitions.
    package var untilDecided: UntilDecided?
    /// Warns when other work competes for the cores (the tests give it a fixed reading).
    package var load = MachineLoad(logicalCores: MachineProbe.logicalCores())
    /// Seconds on a monotonic clock, which times the runs for the estimate of the time left
    /// and the elapsed times said; the tests give it a synthetic one.
    package var clock: @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }

    package init(matrix: BenchMatrix, context: RunContext, files: ResultsFiles, cache: ReferenceVideoCache, builds: [Build]) {
        self.matrix = matrix
        self.context = context
        self.files = files
        self.cache = cache
        self.builds = builds
    }

    package struct Result: Sendable {
        /// Rows this run appended to the raw file.
        package var rows: [RawResultRow]
        /// Rows appended to the summary file (none when interrupted).
        package var summary: [SummaryRow]
        /// The signal that stopped the run early, if any.
        package var interruptedBy: Int32?
        package var disagreements: Int
        package var failures: Int
    }

    package func run(interruption: Interruption, progress: BenchProgress) throws -> Result {
        let videos = try prepareVideos(interruption: interruption, progress: progress)
        let configurations = matrix.configurations(videoPaths: videos.mapValues(\.path))
        if case .instructions(let parallel) = measure {
            return try runInstructions(configurations: configurations, videos: videos, parallel: parallel,
                                       interruption: interruption, progress: progress)
        }
        // Read before the writer may cut a torn last record: only the estimate needs them.
        let earlierRows = (try? ResultsFileReader.read(RawResultRow.self, from: files.raw)) ?? []
        let writer = try ResultsFileWriter<RawResultRow>(path: files.raw)
        for repair in writer.repairs { progress.note("filmstrip: warning: \(repair)") }
        var rounds = (0..<matrix.warmup).map { Round(warmup: true, index: $0, positions: nil) }
            + (0..<matrix.repetitions).map { Round(warmup: false, index: $0, positions: nil) }
        let plannedRounds = rounds.count
        var tally = TimeTally(load: load, totalRuns: rounds.count * configurations.count * builds.count, clock: clock)
        progress.info(plannedLine(configurations: configurations.count, totalRuns: tally.totalRuns, earlierRows: earlierRows))
        if let warning = tally.load.atStart() { progress.info(warning) }

        var roundNumber = 0
        while roundNumber < rounds.count {
            let round = rounds[roundNumber]
            defer { roundNumber += 1 }
            let roundName = round.warmup ? "warm-up \(round.index + 1)/\(matrix.warmup)"
                : round.positions.map { "pair \(round.index + 1) (\($0.count) of \(configurations.count) open)" } ?? "rep \(round.index + 1)/\(matrix.repetitions)"
            let members = round.positions ?? Array(configurations.indices)
            let order = Self.order(count: members.count, round: roundNumber, rounds: max(plannedRounds, roundNumber + 1)).map { members[$0] }
            let runs = order.enumerated().flatMap { slot, position in
                // Which build goes first alternates from pair to pair and from round to round.
                ((slot + roundNumber) % 2 == 0 ? Array(builds.indices) : builds.indices.reversed())
                    .map { RemainingTime.Run(configuration: position, build: $0) }
            }
            // Planned rounds only: how many pairs `--until-decided` adds is not known before the gate looks.
            let laterRounds = rounds.count - roundNumber - 1
            for (index, run) in runs.enumerated() {
                defer { tally.doneRuns += 1 }
                guard !tally.dropped.contains(run.configuration) else { continue }
                let scheduled = ScheduledRun(position: run.configuration, configuration: configurations[run.configuration],
                                             build: builds[run.build], buildIndex: run.build, round: round, roundName: roundName)
                let left = tally.secondsLeft(thisRound: runs[index...], laterRounds: laterRounds, configurations: configurations.count,
                                             builds: builds.count)
                let eta = left.map { (seconds: $0, rough: tally.estimateIsRough(configurations: configurations.count)) }
                guard try runOnce(scheduled, eta: eta, videos: videos, writer: writer, tally: &tally,
                                  interruption: interruption, progress: progress)
                else {
                    progress.clear()
                    // The child can die of a terminal's SIGINT before our own handler has run.
                    return Result(rows: tally.rows, summary: [], interruptedBy: interruption.signal ?? SIGINT,
                                  disagreements: tally.checker.problemCount, failures: tally.failures)
                }
            }
            let left = tally.secondsLeft(thisRound: [RemainingTime.Run](), laterRounds: laterRounds, configurations: configurations.count, builds: builds.count)
            // An added pair's line comes with the count still open, after the gate has looked.
            if round.positions == nil {
                progress.milestone("bench: \(roundName) done after \(BenchProgress.clock(tally.elapsed))"
                    + (left.map { $0 >= 1 ? ", about \(BenchProgress.clock($0)) left (estimate)" : "" } ?? ""))
            }
            // After the planned rounds, one more pair for each configuration still undecided.
            if roundNumber + 1 == rounds.count, let untilDecided, builds.count > 1,
               let next = undecidedRound(untilDecided, pairs: rounds.filter { !$0.warmup }.count, configurations: configurations.count,
                                         tally: tally, progress: progress) {
                rounds.append(next)
                tally.totalRuns += (next.positions?.count ?? 0) * builds.count
            }
        }
        progress.clear()
        let summary = try writeSummary(tally.rows)
        if let warning = WideSpread.warning(summary) { progress.info(warning) }
        return Result(rows: tally.rows, summary: summary, interruptedBy: nil, disagreements: tally.checker.problemCount,
                      failures: tally.failures)
    }

    /// What the time loop has gathered so far, carried from run to run and round to round.
    struct TimeTally {
        var checker = AgreementChecker()
        var rows: [RawResultRow] = []
        var failures = 0
        /// Positions of the configurations a failure dropped.
        var dropped = Set<Int>()
        var load: MachineLoad
        /// Cores the last measured run kept busy, so the load warning leaves the bench's own work out.
        var ownParallelism = 1.0
        var doneRuns = 0
        var totalRuns: Int
        /// Which configuration made each key's rows, for adding pairs to the undecided ones.
        var positionOfKey: [ConfigurationKey: Int] = [:]
        /// The session's clock (seconds) and its reading when the first run started.
        let clock: @Sendable () -> Double
        let start: Double
        /// Learns each run's cost as the runs end.
        var remaining: RemainingTime

        init(load: MachineLoad, totalRuns: Int, clock: @escaping @Sendable () -> Double) {
            self.load = load
            self.totalRuns = totalRuns
            self.clock = clock
            start = clock()
            remaining = RemainingTime(start: start)
        }

        var elapsed: Double { clock() - start }

        /// Whether some configuration still in the run has not run yet: the time left is then
        /// partly a guess (the mean of the others).
        func estimateIsRough(configurations: Int) -> Bool {
            (0..<configurations).contains { !dropped.contains($0) && !remaining.hasRun(configuration: $0) }
        }

        /// Seconds left before `thisRound`'s runs (those not dropped) and `laterRounds` more
        /// passes over every configuration still in the run; nil before the first run ends.
        func secondsLeft(thisRound: some Sequence<RemainingTime.Run>, laterRounds: Int, configurations: Int, builds: Int) -> Double? {
            let live = (0..<configurations).filter { !dropped.contains($0) }
            return remaining.seconds(thisRound: thisRound.filter { !dropped.contains($0.configuration) }, laterRounds: laterRounds,
                                     everyRound: live.flatMap { position in (0..<builds).map { RemainingTime.Run(configuration: position, build: $0) } })
        }
    }

    /// One configuration under one build in one round.
    struct ScheduledRun {
        var position: Int
        var configuration: BenchConfiguration
        var build: Build
        /// The build's index in the session's builds, which the estimate of the time left tells apart.
        var buildIndex: Int
        var round: Round
        var roundName: String
    }

    /// Runs `scheduled` (its progress line first, with `eta`, the seconds left when known and
    /// whether they are partly a guess) and records its rows; false when the run was interrupted.
    private func runOnce(_ scheduled: ScheduledRun, eta: (seconds: Double, rough: Bool)?, videos: [String: PreparedVideo],
                         writer: borrowing ResultsFileWriter<RawResultRow>, tally: inout TimeTally,
                         interruption: Interruption, progress: BenchProgress) throws -> Bool {
        let configuration = scheduled.configuration, build = scheduled.build
        let label = configuration.label + (build.role.map { " [\($0.rawValue)]" } ?? "")
        if let warning = tally.load.between(elapsed: tally.elapsed, ownParallelism: tally.ownParallelism) {
            progress.info(warning)
        }
        progress.running(label, round: scheduled.roundName, done: tally.doneRuns, total: tally.totalRuns, eta: eta?.seconds,
                         rough: eta?.rough ?? false)
        let outcome = build.runner.run(configuration, timeLimit: matrix.timeLimitSeconds, interruption: interruption)
        // Learnt after the rows are recorded, so the parent's share of the run counts too.
        defer { tally.remaining.finished(RemainingTime.Run(configuration: scheduled.position, build: scheduled.buildIndex), at: tally.clock()) }
        switch outcome {
        case .interrupted:
            return false
        case .measured(let measurement, _):
            tally.ownParallelism = Self.parallelism(measurement)
            if scheduled.round.warmup { return true }
        case .failed, .timedOut:
            // Written even in a warm-up round, because the failure drops the configuration
            // (for both builds: without its pair, the other build's samples compare with nothing).
            break
        }
        let recorded = try record(outcome, of: configuration, build: build, video: videos[configuration.videoID ?? ""],
                                  repetition: scheduled.round.index, timeLimit: "\(Self.number(matrix.timeLimitSeconds)) s",
                                  into: writer, checker: &tally.checker, progress: progress)
        if let reason = recorded.failure {
            tally.failures += 1
            tally.dropped.insert(scheduled.position)
            progress.note("filmstrip: \(label): \(reason); dropping it from later repetitions")
        }
        for row in recorded.rows { tally.positionOfKey[row.configurationKey] = scheduled.position }
        tally.rows += recorded.rows
        return true
    }

    /// The plan and its estimated duration, printed before the first child.
    private func plannedLine(configurations: Int, totalRuns: Int, earlierRows: [RawResultRow]) -> String {
        "bench: \(configurations) configurations × \(matrix.repetitions) repetitions"
            + (matrix.warmup > 0 ? " (+\(matrix.warmup) warm-up)" : "")
            + (builds.count > 1 ? " × \(builds.count) builds" : "") + " = \(totalRuns) child runs; "
            + RunEstimate.text(childRuns: totalRuns, secondsPerChildRun: RunEstimate.secondsPerChildRun(earlier: earlierRows), file: files.raw)
            + (untilDecided.map { builds.count > 1 ? "; then pairs for the undecided configurations, \(BenchProgress.clock($0.maxSeconds)) at most in all" : "" } ?? "")
    }

    /// After the planned rounds of a two-build run: one more pair for each configuration the gate
    /// cannot decide yet, or nil once all are decided or the budget is spent (said either way).
    private func undecidedRound(_ untilDecided: UntilDecided, pairs: Int, configurations: Int, tally: TimeTally,
                                progress: BenchProgress) -> Round? {
        let elapsed = tally.elapsed
        switch untilDecided.nextRound(rows: tally.rows, positionOfKey: tally.positionOfKey, dropped: tally.dropped,
                                      pairsSoFar: pairs, elapsed: elapsed) {
        case .decided:
            progress.milestone("bench: every gated configuration decided after \(pairs) pair(s) at most (\(BenchProgress.clock(elapsed)))")
            return nil
        case .stopped(let reason):
            progress.info("bench: \(reason); `compare` will list the undecided configurations")
            return nil
        case .more(let positions):
            progress.milestone(UntilDecided.progressLine(pairs: pairs, open: positions.count, of: configurations,
                                                         elapsed: elapsed, budget: untilDecided.maxSeconds))
            return Round(warmup: false, index: pairs, positions: positions)
        }
    }

    /// Writes the summary file: a two-build run summarises the candidate (the baseline is there
    /// to be compared with).
    func writeSummary(_ rows: [RawResultRow], metrics: [Metric] = Metric.allCases) throws -> [SummaryRow] {
        let summary = SummaryRow.summarize(builds.count > 1 ? rows.filter { $0.build == .candidate } : rows, metrics: metrics)
        let summaryWriter = try ResultsFileWriter<SummaryRow>(path: files.summary)
        for row in summary { try summaryWriter.append(row) }
        return summary
    }

    /// One pass over the configurations (all of them, or those `positions` still undecided).
    struct Round {
        var warmup: Bool
        /// The repetition index its rows get.
        var index: Int
        var positions: [Int]?
    }

    /// Configuration order for `round`: the base order rotated by an equal share per round,
    /// so each configuration runs early in some rounds and late in others and slow drift
    /// (thermal, other load) spreads over all of them instead of biasing the last ones.
    static func order(count: Int, round: Int, rounds: Int) -> [Int] {
        guard count > 0 else { return [] }
        let shift = (round * max(1, count / max(1, rounds))) % count
        return (0..<count).map { ($0 + shift) % count }
    }

    /// How many cores a run kept busy on average: its CPU time over its wall time, at least 1.
    static func parallelism(_ measurement: BenchMeasurement) -> Double {
        let wall = measurement.phases.map(\.wallSeconds).max() ?? 0
        let cpu = measurement.phases.map { $0.cpuUserSeconds + $0.cpuSysSeconds }.max() ?? 0
        return wall > 0 ? Swift.max(1, cpu / wall) : 1
    }

    /// Generates missing reference videos and probes each once (for its description and thumbnail width).
    private func prepareVideos(interruption: Interruption, progress: BenchProgress) throws -> [String: PreparedVideo] {
        cache.removePartialsOfDeadProcesses()
        // Making one takes seconds: each is announced before it is made, so the wait has a reason.
        let missing = matrix.requiredVideoIDs.filter { id in
            matrix.userVideos[id] == nil && ReferenceSuite.spec(id: id).map { !FileManager.default.fileExists(atPath: cache.url(for: $0).path) } == true
        }
        var result: [String: PreparedVideo] = [:]
        for id in matrix.requiredVideoIDs {
            // The user's own videos are probed like reference videos; they need no generating.
            if let path = matrix.userVideos[id] {
                let probe = try VideoProbe(path: path)
                result[id] = PreparedVideo(path: path, aspect: probe.displayAspectRatio,
                                           description: VideoDescription(id: id, probe: probe))
                continue
            }
            guard let spec = ReferenceSuite.spec(id: id) else { throw BenchError.unknownVideo(id) }
            if let index = missing.firstIndex(of: id) {
                progress.info("bench: making reference video \(id) (\(index + 1) of \(missing.count), kept in \(cache.directory.path) for later runs)…")
            }
            let url = try interruption.generating(into: cache.directory) { try cache.ensure(spec).url }
            let probe = try VideoProbe(path: url.path)
            result[id] = PreparedVideo(
                path: url.path, aspect: probe.displayAspectRatio,
                description: VideoDescription(id: id, probe: probe, gop: spec.keyframeInterval))
        }
        return result
    }

    /// One child run's rows and, when it failed, why.
    struct RecordedRun {
        var rows: [RawResultRow]
        var failure: String?
    }

    /// Turns one child run's outcome into rows, marks them with the build that ran them and
    /// appends them to the raw file: a measured run's rows checked for agreement (and passed
    /// through `profiled` when it brought an instruction profile), a failed or timed-out run's
    /// one error row per phase with the build's commit. The time and the instruction loop both
    /// record here, so their rows cannot drift apart. `timeLimit` is the limit as the reason
    /// names it ("30 s"); an interrupted run records nothing.
    func record(_ outcome: RunOutcome, of configuration: BenchConfiguration, build: Build, video: PreparedVideo?,
                repetition: Int, timeLimit: String, into writer: borrowing ResultsFileWriter<RawResultRow>,
                checker: inout AgreementChecker, progress: BenchProgress,
                profiled: (([RawResultRow], InstructionProfile) throws -> [RawResultRow])? = nil) throws -> RecordedRun {
        var recorded: RecordedRun
        switch outcome {
        case .interrupted:
            return RecordedRun(rows: [], failure: nil)
        case .measured(let measurement, let profile):
            recorded = RecordedRun(rows: checkedRows(configuration, measurement, build: build, video: video, repetition: repetition,
                                                     checker: &checker, progress: progress))
            if let profile, let profiled { recorded.rows = try profiled(recorded.rows, profile) }
        case .failed, .timedOut:
            let reason = if case .failed(let text) = outcome { text } else { "exceeded the time limit of \(timeLimit)" }
            recorded = RecordedRun(rows: failedRows(configuration, video: video, repetition: repetition, reason: reason), failure: reason)
            for index in recorded.rows.indices { recorded.rows[index].executableCommit = build.commitFallback }
        }
        for index in recorded.rows.indices { recorded.rows[index].build = build.role }
        for row in recorded.rows { try writer.append(row) }
        return recorded
    }

    /// The rows of a measured run, checked for agreement (problems noted) and marked with the
    /// executable that ran them: its commit, and its build configuration rather than the parent's.
    func checkedRows(_ configuration: BenchConfiguration, _ measurement: BenchMeasurement, build: Build, video: PreparedVideo?,
                     repetition: Int, checker: inout AgreementChecker, progress: BenchProgress) -> [RawResultRow] {
        let problems = checker.check(configuration, measurement)
        for problem in problems { progress.note("filmstrip: \(problem)\(build.role.map { " (\($0.rawValue))" } ?? "")") }
        var rows = measuredRows(configuration, measurement, video: video, repetition: repetition, disagreement: !problems.isEmpty)
        for index in rows.indices {
            rows[index].executableCommit = measurement.executableCommit ?? build.commitFallback
            if let configuration = measurement.buildConfiguration ?? build.configurationFallback {
                rows[index].run.machine.buildConfiguration = configuration
            }
        }
        return rows
    }

    func measuredRows(_ configuration: BenchConfiguration, _ measurement: BenchMeasurement, video: PreparedVideo?,
                              repetition: Int, disagreement: Bool) -> [RawResultRow] {
        measurement.phases.map { cost in
            var row = baseRow(configuration, video: video, phase: cost.phase, repetition: repetition)
            row.wallSeconds = cost.wallSeconds
            row.cpuUserSeconds = cost.cpuUserSeconds
            row.cpuSysSeconds = cost.cpuSysSeconds
            row.peakRSSBytes = cost.peakRSSBytes
            row.framesDecoded = cost.framesDecoded
            row.packetsRead = cost.packetsRead
            row.seeks = cost.seeks
            row.bytesRead = cost.bytesRead
            row.videoBytes = cost.videoBytes
            row.heapAllocations = cost.heapAllocations
            row.bound = cost.bound
            row.interactive = cost.interactive
            row.spriteTiles = cost.spriteTiles
            row.waiting = cost.waiting
            if configuration.kind != .calibrationCopy, configuration.kind != .interactive, cost.wallSeconds > 0 {
                row.thumbnailsPerSecond = Double(row.thumbnailCount) / cost.wallSeconds
            }
            row.checksum = measurement.checksum
            row.maxFrameError = measurement.maxFrameError
            row.disagreement = disagreement
            return row
        }
    }

    func failedRows(_ configuration: BenchConfiguration, video: PreparedVideo?, repetition: Int, reason: String) -> [RawResultRow] {
        configuration.phases.map { phase in
            var row = baseRow(configuration, video: video, phase: phase, repetition: repetition)
            row.status = .error
            row.error = reason
            return row
        }
    }

    private func baseRow(_ configuration: BenchConfiguration, video: PreparedVideo?, phase: Phase, repetition: Int) -> RawResultRow {
        var thumbnailCount = configuration.thumbnailCount, thumbHeight = configuration.thumbHeight
        let thumbWidth: Int
        switch configuration.kind {
        case .pipeline, .calibrationDecode, .peer, .wholeProcess, .interactive:
            thumbWidth = video.map { ThumbnailSize.height(configuration.thumbHeight).pixels(forDisplayAspectRatio: $0.aspect).width } ?? 0
        case .syntheticComposition, .memcpyFloor: thumbWidth = BenchConfiguration.syntheticThumbWidth
        case .calibrationCopy: thumbWidth = 0
        case .sprite:
            // One tile per cue of the video, every contender's scaled to the layout's width (ffmpeg's `scale=W:-2`: even heights).
            let layout = SpriteBench.layout
            thumbWidth = layout.width
            thumbnailCount = video.map { Int(($0.description.durationSeconds / Double(layout.intervalSeconds)).rounded(.up)) } ?? 0
            thumbHeight = video.map { 2 * Int((Double(layout.width) / $0.aspect.doubleValue / 2).rounded()) } ?? 0
        }
        let description = video?.description ?? (configuration.kind == .calibrationCopy
            ? VideoDescription(id: "none", codec: "none", width: 0, height: 0, durationSeconds: 0, frameCount: 0, gop: 0)
            : VideoDescription(id: "synthetic", codec: "none", width: BenchConfiguration.syntheticThumbWidth,
                               height: configuration.thumbHeight, durationSeconds: 0, frameCount: configuration.thumbnailCount, gop: 0))
        return RawResultRow(
            run: context, timestamp: Date(), pipeline: configuration.pipeline,
            options: configuration.optionsColumn,
            video: description, thumbnailCount: thumbnailCount, thumbWidth: thumbWidth,
            thumbHeight: thumbHeight, accuracy: RowAccuracy(configuration.accuracy),
            phase: phase, repetition: repetition, wallSeconds: nil, cpuUserSeconds: nil, cpuSysSeconds: nil,
            peakRSSBytes: nil, framesDecoded: nil, thumbnailsPerSecond: nil, checksum: "", maxFrameError: nil,
            disagreement: false, status: .ok, error: "", kind: configuration.kind)
    }

    static func number(_ value: Double) -> String { String(format: "%g", value) }
}

/// What the children of a session measure.
package enum BenchMeasure: Sendable, Hashable {
    /// Clocks, CPU time and counters, repetitions interleaved.
    case time
    /// Instructions under callgrind, `parallel` children at a time (the builds' runners carry the ``Callgrind``).
    case instructions(parallel: Int)
}

/// A reference video ready for the run.
struct PreparedVideo {
    var path: String
    /// Display width / height (rotation and sample aspect applied), for the thumbnail width.
    var aspect: Rational
    var description: VideoDescription
}

package enum BenchError: Error, CustomStringConvertible {
    case unknownVideo(String)

    package var description: String {
        switch self {
        case .unknownVideo(let id): "no reference video named \(id)"
        }
    }
}

/// Checks that exact runs of the same request made the same strip and showed the planned frames.
///
/// The first checksum seen for a request in this run is the reference; rows are written
/// as they complete, so a later run that differs is the one marked.
struct AgreementChecker {
    /// What makes two runs' strips comparable: the same video (nil: synthetic), count, height and accuracy.
    private struct Request: Hashable {
        var videoID: String?
        var thumbnailCount: Int
        var thumbHeight: Int
        var accuracy: Accuracy?
    }

    private var references: [Request: (checksum: String, label: String)] = [:]
    private(set) var problemCount = 0

    mutating func check(_ configuration: BenchConfiguration, _ measurement: BenchMeasurement) -> [String] {
        var problems: [String] = []
        guard configuration.isCheckedForAgreement else { return problems }
        let request = Request(videoID: configuration.videoID, thumbnailCount: configuration.thumbnailCount,
                              thumbHeight: configuration.thumbHeight, accuracy: configuration.accuracy)
        if let reference = references[request] {
            if reference.checksum != measurement.checksum {
                problems.append("DISAGREEMENT: \(configuration.label) made strip \(measurement.checksum), but \(reference.label) made \(reference.checksum) for the same request")
            }
        } else {
            references[request] = (measurement.checksum, configuration.label)
        }
        if configuration.kind == .pipeline, let error = measurement.maxFrameError, error != 0 {
            problems.append("WRONG FRAMES: \(configuration.label) showed a frame \(error) frame(s) away from the planned one in exact mode")
        }
        problemCount += problems.count
        return problems
    }
}
