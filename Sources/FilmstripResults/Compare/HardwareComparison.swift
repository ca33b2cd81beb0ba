import Filmstrip
import Foundation

/// Two runs from different machines, read as the hardware question ("how much faster, and does
/// the ranking change?") rather than as a regression gate.
///
/// The gate divides each time by its machine's single-threaded calibration, which answers "did
/// the code get slower?" and nothing a user comparing machines asks: a 16-core machine whose
/// cores are 20 % slower would read as a 20 % regression of a strip it finishes 4× sooner. Here
/// every figure is wall time, what a user waits for:
/// - per configuration, the speed-up baseline / candidate of the medians' Hodges–Lehmann
///   estimate with its exact Mann–Whitney interval over the repetitions (``ShiftInterval``);
/// - per request (video, N, height, accuracy), the fastest pipeline on each machine and the
///   order of the pipelines both measured, and where that order changed;
/// - the task group's scaling: sequential / taskgroup wall time on each machine beside the
///   run's bound (``PhaseBound``: the wall time the work allows on that machine), where the
///   rows carry it.
/// It is no gate: `compare` exits 0 unless `--gate` asks for the gate's verdict.
package struct HardwareComparison: Sendable {
    package struct Machine: Sendable, Hashable {
        package var name: String
        package var cpuModel: String
        package var cores: Int

        package var text: String { "\(name) (\(cores) cores, \(cpuModel))" }
    }

    /// One configuration measured on both machines.
    package struct SpeedUp: Sendable {
        package var key: ConfigurationKey
        /// Median wall time in seconds on each machine.
        package var baselineSeconds: Double
        package var candidateSeconds: Double
        /// Baseline / candidate wall time: 4.0 means the candidate machine takes a quarter of the time.
        package var estimate: Double
        package var low: Double
        package var high: Double
        package var coverage: Double
        /// The smaller machine's repetitions.
        package var count: Int

        /// `faster` or `slower` when the whole interval is on one side of 1, else `either`.
        package var direction: String { low > 1 ? "faster" : high < 1 ? "slower" : "either" }
    }

    /// The in-process pipelines of one request, fastest first, on each machine.
    package struct Ranking: Sendable {
        package var request: StripRequest
        /// Label and median wall time of each pipeline both machines measured.
        package var baseline: [(label: String, seconds: Double)]
        package var candidate: [(label: String, seconds: Double)]
        package var changed: Bool { baseline.map(\.label) != candidate.map(\.label) }
        package var fastestChanged: Bool { baseline.first?.label != candidate.first?.label }
    }

    /// The task group against the sequential extractor with the same composer and options, per machine.
    package struct Scaling: Sendable {
        package var request: StripRequest
        package var composer: String
        /// The concurrent pipeline and the sequential reference's, as the rows name them (`taskgroup+rowcopy`).
        package var pipeline: String
        package var referencePipeline: String
        package struct Side: Sendable {
            /// Sequential / taskgroup median wall time.
            package var speedUp: Double
            /// Taskgroup median wall time and its bound (nil where the rows do not carry it).
            package var seconds: Double
            package var boundSeconds: Double?
            /// Decoding workers the task group ran (median), nil where not recorded.
            package var workers: Int?
            /// Sequential wall / taskgroup bound: the speed-up the bound allows.
            package var boundSpeedUp: Double?
        }
        package var baseline: Side
        package var candidate: Side
    }

    package var baseline: Machine
    package var candidate: Machine
    package var baselinePath: String
    package var candidatePath: String
    package var level: Double
    package var speedUps: [SpeedUp] = []
    /// Single-threaded calibration workloads, where both runs have them: the cores' own speed.
    package var calibrations: [SpeedUp] = []
    package var rankings: [Ranking] = []
    package var scalings: [Scaling] = []
    /// Options every compared configuration that has options has with the same value: said once, not on every line.
    package var commonOptions: RunOptions = [:]
    /// The text's widest line (``TextWidth``): the terminal's columns.
    package var width = TextWidth.standard

    /// `key`'s description without the options every compared configuration shares (``commonOptions``).
    package func name(_ key: ConfigurationKey) -> String {
        var shown = key
        shown.options = key.options.filter { commonOptions[$0.key] != $0.value }
        return shown.description
    }

    /// Whether two sets of rows come from different machines (the fingerprint's id).
    package static func differentMachines(_ baseline: [RawResultRow], _ candidate: [RawResultRow]) -> Bool {
        let before = Set(baseline.map(\.run.machine.id)), after = Set(candidate.map(\.run.machine.id))
        return !before.isEmpty && !after.isEmpty && before.isDisjoint(with: after)
    }

    /// Whether two machines' rows hold anything to compare: a configuration both measured. When
    /// not (every run of one failed, or they ran different suites), `compare` judges them as the
    /// gate does, which says why nothing can be compared (exit 1) rather than answer with nothing.
    package static func haveCommonMeasurement(_ baseline: [RawResultRow], _ candidate: [RawResultRow]) -> Bool {
        let before = Set(baseline.filter { $0.status == .ok }.map(\.configurationKey))
        return candidate.contains { $0.status == .ok && before.contains($0.configurationKey) }
    }

    /// Rows of one file split by machine, for a file (or files) holding two machines' runs: nil unless exactly two.
    package static func splitByMachine(_ rows: [RawResultRow]) -> (baseline: [RawResultRow], candidate: [RawResultRow])? {
        var order: [String] = []
        for row in rows where !order.contains(row.run.machine.id) { order.append(row.run.machine.id) }
        guard order.count == 2 else { return nil }
        return (rows.filter { $0.run.machine.id == order[0] }, rows.filter { $0.run.machine.id == order[1] })
    }

    package init(baseline baselineRows: [RawResultRow], candidate candidateRows: [RawResultRow],
                baselinePath: String = "baseline", candidatePath: String = "candidate", level: Double = 0.95) {
        baseline = Self.machine(baselineRows)
        candidate = Self.machine(candidateRows)
        self.baselinePath = baselinePath
        self.candidatePath = candidatePath
        self.level = level
        // A two-build file's candidate is what it measured of its own code; a plain run has no build column.
        let before = Self.samples(Self.latestBuild(baselineRows)), after = Self.samples(Self.latestBuild(candidateRows))
        let keys = Set(before.keys).intersection(after.keys)
        for key in keys.sorted() {
            let entry = Self.speedUp(key, before[key]!.wall, after[key]!.wall, level: level)
            if key.phase == .calibration {
                calibrations.append(entry)
            } else if RegressionGate.isGated(key, among: keys) {
                speedUps.append(entry)
            }
        }
        // Configurations without options (synthetic composition) neither share nor break them.
        commonOptions = RunOptions.common(among: speedUps.map(\.key.options).filter { !$0.isEmpty })
        rankings = Self.rankings(before: before, after: after, shared: keys)
        scalings = Self.scalings(before: before, after: after)
    }

    /// The figures of one configuration on one machine.
    struct Samples {
        var wall: [Double] = []
        var bound: [Double] = []
        var workers: [Int] = []
        var medianWall: Double { Quantile.median(sorted: wall.sorted()) }
        var medianBound: Double? { bound.isEmpty ? nil : Quantile.median(sorted: bound.sorted()) }
        var medianWorkers: Int? { workers.isEmpty ? nil : workers.sorted()[workers.count / 2] }
    }

    private static func latestBuild(_ rows: [RawResultRow]) -> [RawResultRow] {
        rows.contains { $0.build == .candidate } ? rows.filter { $0.build == .candidate } : rows
    }

    static func samples(_ rows: [RawResultRow]) -> [ConfigurationKey: Samples] {
        var result: [ConfigurationKey: Samples] = [:]
        for row in rows where row.status == .ok && !row.kind.isReference {
            guard let wall = row.wallSeconds, wall > 0 else { continue }
            let key = row.configurationKey
            result[key, default: Samples()].wall.append(wall)
            if let bound = row.bound, bound.boundSeconds > 0 {
                result[key, default: Samples()].bound.append(bound.boundSeconds)
                result[key, default: Samples()].workers.append(bound.workers)
            }
        }
        return result
    }

    private static func machine(_ rows: [RawResultRow]) -> Machine {
        let machine = rows.first?.run.machine
        return Machine(name: machine?.name ?? "unknown", cpuModel: machine?.cpuModel ?? "unknown", cores: machine?.logicalCores ?? 0)
    }

    static func speedUp(_ key: ConfigurationKey, _ before: [Double], _ after: [Double], level: Double) -> SpeedUp {
        let interval = ShiftInterval.twoSample(baseline: before.map(log), candidate: after.map(log), level: level)
        // The interval is of log(candidate / baseline); the speed-up is its inverse.
        return SpeedUp(key: key, baselineSeconds: Quantile.median(sorted: before.sorted()), candidateSeconds: Quantile.median(sorted: after.sorted()),
                       estimate: exp(-interval.estimate), low: exp(-interval.high), high: exp(-interval.low),
                       coverage: interval.coverage, count: interval.count)
    }

    /// The in-process pipelines (`total`) of each request both machines measured, ranked on each.
    private static func rankings(before: [ConfigurationKey: Samples], after: [ConfigurationKey: Samples],
                                 shared: Set<ConfigurationKey>) -> [Ranking] {
        let pipelines = shared.filter { $0.kind == .pipeline && $0.phase == .total }
        return Dictionary(grouping: pipelines, by: StripRequest.init).sorted { $0.key < $1.key }.compactMap { request, keys in
            guard keys.count >= 2 else { return nil }
            let label = labeler(keys)
            func ranked(_ samples: [ConfigurationKey: Samples]) -> [(label: String, seconds: Double)] {
                keys.map { (label: label($0), seconds: samples[$0]!.medianWall) }.sorted { ($0.seconds, $0.label) < ($1.seconds, $1.label) }
            }
            return Ranking(request: request, baseline: ranked(before), candidate: ranked(after))
        }
    }

    /// The pipeline's name, with the options that tell it apart from the others of its request.
    static func labeler(_ keys: [ConfigurationKey]) -> (ConfigurationKey) -> String {
        // The in-process pipelines of a request all record every extraction option.
        let optionNames = RunOptions.varyingKeys(among: keys.map(\.options))
        return { key in
            let options = key.options.filter { optionNames.contains($0.key) }
            return options.isEmpty ? key.pipeline.description : "\(key.pipeline) [\(options.spaced)]"
        }
    }

    /// An in-process pipeline whose extractor splits the plan over workers (the task group), as
    /// the registry's roles say: the rows the scaling and the headline put first.
    static func isConcurrentPipeline(_ key: ConfigurationKey) -> Bool {
        key.kind == .pipeline && Extractors.role(ofNamed: key.pipeline.extractor) == .concurrent
    }

    /// `taskgroup+C` against `sequential+C` with the same options, per request, on each machine.
    private static func scalings(before: [ConfigurationKey: Samples], after: [ConfigurationKey: Samples]) -> [Scaling] {
        var result: [Scaling] = []
        for key in Set(before.keys).intersection(after.keys).sorted()
        where isConcurrentPipeline(key) && key.phase == .total {
            var sequential = key
            sequential.pipeline = .strategies(extractor: Extractors.sequentialReference.name, composer: key.pipeline.composer)
            guard let baselineSequential = before[sequential], let candidateSequential = after[sequential] else { continue }
            func side(_ taskgroup: Samples, _ sequential: Samples) -> Scaling.Side {
                let bound = taskgroup.medianBound
                return Scaling.Side(speedUp: sequential.medianWall / taskgroup.medianWall, seconds: taskgroup.medianWall,
                                    boundSeconds: bound, workers: taskgroup.medianWorkers,
                                    boundSpeedUp: bound.map { sequential.medianWall / $0 })
            }
            result.append(Scaling(request: StripRequest(key), composer: key.pipeline.composer, pipeline: key.pipeline.description,
                                  referencePipeline: sequential.pipeline.description,
                                  baseline: side(before[key]!, baselineSequential), candidate: side(after[key]!, candidateSequential)))
        }
        return result
    }
}
