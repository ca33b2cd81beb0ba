import Foundation

/// Compares a candidate with a baseline, configuration by configuration, and decides
/// whether anything got slower.
///
/// Two forms:
/// - **Paired** (one file of a two-build run, `bench --baseline-binary`): each repetition
///   ran every configuration under both executables back to back, so the candidate /
///   baseline ratio of the same repetition cancels the machine's speed at that moment.
///   The change is the Hodges–Lehmann estimate of the log ratios with its exact Wilcoxon
///   signed-rank interval (``ShiftInterval/paired(_:level:)``).
/// - **Separate runs** (two files): the samples come from different sessions, so the day's
///   machine speed is in them. Each sample is divided by the calibration that ran in the
///   same repetition of the same run, chosen by the work (``CalibrationKind``), and the two
///   sets of normalised samples are compared with the Hodges–Lehmann two-sample estimate
///   and its exact Mann–Whitney interval (``ShiftInterval/twoSample(baseline:candidate:level:)``).
///   Pipelines that use more than one core are also shown un-normalised, with core counts:
///   a single-threaded calibration does not measure what a second core adds.
///
/// Verdicts, with threshold `t`:
/// - **paired**: `slower` needs the estimate above `1 + t` and the change to be real for the
///   whole file at once: the configuration's interval at the Bonferroni level `1 − (1 − level)/m`
///   (`m` the configurations compared) lies above 1. Unchanged code is then called slower in
///   at most `(1 − level)/2` of gates (2.5 % at the default 95 %), however many configurations
///   the file holds; the threshold is the smallest change worth reporting, so a change of
///   exactly `t` is called about half the time once the interval is narrow.
/// - **separate runs**: the null "same code" cannot be told from a day's speed that the
///   calibration missed, so `slower` needs the estimate and the whole 95 % interval above `1 + t`.
/// Mirrored for `faster` and for throughput.
///
/// Work counters (frames decoded, packets, bytes read, seeks, heap allocations) do not
/// depend on the machine's speed; any change of them for the same configuration is
/// reported as "work changed", and more work fails the gate, whatever the noise.
public struct RegressionGate: Sendable {
    public var metric: Metric
    /// Relative change treated as noise, e.g. 0.05 for 5 %.
    public var threshold: Double
    /// Confidence level of the interval of the ratio, in `0..<1`.
    public var level: Double

    public init(metric: Metric = .wallSeconds, threshold: Double = 0.05, level: Double = 0.95) {
        self.metric = metric
        self.threshold = threshold
        self.level = level
    }

    /// The paired comparison of the two builds in the raw results file at `path`.
    public func compareFile(path: String) -> GateReport {
        do {
            return comparePaired(try ResultsFileReader.read(RawResultRow.self, from: path), path: path)
        } catch {
            return GateReport(gate: self, outcome: .badInput(error.description))
        }
    }

    /// Compares the raw results files of two separate runs.
    public func compareFiles(baselinePath: String, candidatePath: String) -> GateReport {
        do {
            let baseline = try ResultsFileReader.read(RawResultRow.self, from: baselinePath)
            let candidate = try ResultsFileReader.read(RawResultRow.self, from: candidatePath)
            return compare(baseline: baseline, candidate: candidate, baselinePath: baselinePath, candidatePath: candidatePath)
        } catch {
            return GateReport(gate: self, outcome: .badInput(error.description))
        }
    }

    // MARK: Paired

    /// Candidate against baseline rows of one two-build run, pair by pair.
    public func comparePaired(_ rows: [RawResultRow], path: String = "rows") -> GateReport {
        var report = GateReport(gate: self, outcome: .passed)
        report.form = .paired
        if let problem = badValue(in: rows, path: path) {
            report.outcome = .badInput(problem)
            return report
        }
        let baseline = rows.filter { $0.build == .baseline }, candidate = rows.filter { $0.build == .candidate }
        guard !baseline.isEmpty, !candidate.isEmpty else {
            report.outcome = .badInput("\(path): no rows of both builds (the `build` column); a one-file comparison needs a two-build run (`bench --baseline-binary` or `--baseline-rev`); give two files to compare separate runs")
            return report
        }
        let baselineBuilds = Set(baseline.map(\.run.machine.buildConfiguration)), candidateBuilds = Set(candidate.map(\.run.machine.buildConfiguration))
        if baselineBuilds != candidateBuilds {
            report.warnings.append("build configurations differ: baseline \(baselineBuilds.sorted().joined(separator: ",")), candidate \(candidateBuilds.sorted().joined(separator: ",")); the ratios measure the compiler settings too")
        }
        report.baselineCommits = Set(baseline.map(\.executableCommit)).sorted()
        report.candidateCommits = Set(candidate.map(\.executableCommit)).sorted()
        let baselineByKey = valuesByRepetition(baseline), candidateByKey = valuesByRepetition(candidate)
        report.onlyInBaseline = Set(baselineByKey.keys).subtracting(candidateByKey.keys).sorted()
        report.onlyInCandidate = Set(candidateByKey.keys).subtracting(baselineByKey.keys).sorted()
        let paired = Set(baselineByKey.keys).intersection(candidateByKey.keys).sorted().compactMap { key -> (ConfigurationKey, [Double], [Double])? in
            let before = baselineByKey[key]!, after = candidateByKey[key]!
            let pairs = before.keys.filter { after[$0] != nil }.sorted()
            guard !pairs.isEmpty else { return nil }
            return (key, pairs.map { before[$0]! }, pairs.map { after[$0]! })
        }
        // Bonferroni over the whole file: each configuration's decision interval at 1 − (1 − level)/m.
        let decisionLevel = Self.decisionLevel(level: level, comparisons: paired.count)
        var tooFew = 0
        for (key, before, after) in paired {
            let logRatios = zip(before, after).map { log($1 / $0) }
            let interval = ShiftInterval.paired(logRatios, level: level)
            let decision = ShiftInterval.paired(logRatios, level: decisionLevel)
            if decision.coverage < decisionLevel { tooFew += 1 }
            report.comparisons.append(comparison(key: key, baseline: before, candidate: after, interval: interval, decision: decision,
                                                 decisionLevel: decisionLevel))
        }
        report.decisionLevel = decisionLevel
        if tooFew > 0 {
            report.warnings.append("\(tooFew) configuration(s) have too few pairs, so no verdict: \(paired.count) configurations at \(Self.percentText(level)) for the whole file need \(Self.pairsNeeded(decisionLevel: decisionLevel)) pairs each (`bench --repetitions`)")
        }
        guard !report.comparisons.isEmpty else {
            report.outcome = .badInput("\(path): no configuration has \(metric.rawValue) in both builds in the same repetition")
            return report
        }
        report.workChanges = workChanges(baseline: baseline, candidate: candidate)
        report.decideOutcome(gateOnWork: true)
        return report
    }

    // MARK: Separate runs

    /// Compares two runs' raw rows, each normalised by its own calibration per repetition.
    public func compare(baseline: [RawResultRow], candidate: [RawResultRow],
                        baselinePath: String = "baseline", candidatePath: String = "candidate") -> GateReport {
        var report = GateReport(gate: self, outcome: .passed)
        if let problem = badValue(in: baseline, path: baselinePath) ?? badValue(in: candidate, path: candidatePath) {
            report.outcome = .badInput(problem)
            return report
        }
        // A two-build file given as one side: its candidate rows are the run's code.
        let baseline = baseline.filter { $0.build != .baseline }, candidate = candidate.filter { $0.build != .baseline }

        let baselineBuilds = Set(baseline.map(\.run.machine.buildConfiguration))
        let candidateBuilds = Set(candidate.map(\.run.machine.buildConfiguration))
        if baselineBuilds != candidateBuilds {
            report.warnings.append("build configurations differ: baseline \(baselineBuilds.sorted().joined(separator: ",")), candidate \(candidateBuilds.sorted().joined(separator: ","))")
        }
        let baselineMachines = Set(baseline.map(\.run.machine.name)), candidateMachines = Set(candidate.map(\.run.machine.name))
        let sameMachine = Set(baseline.map(\.run.machine.id)) == Set(candidate.map(\.run.machine.id))
        report.machines = (Self.machineText(baseline), Self.machineText(candidate))

        let normalises = metric.isTime || metric == .thumbnailsPerSecond
        let baselineCalibration = CalibrationTable(baseline, metric: .wallSeconds)
        let candidateCalibration = CalibrationTable(candidate, metric: .wallSeconds)
        let normalised = normalises && !baselineCalibration.isEmpty && !candidateCalibration.isEmpty
        if !normalised {
            guard sameMachine || !normalises else {
                report.outcome = .badInput("runs come from different machines (baseline \(baselineMachines.sorted().joined(separator: ",")), candidate \(candidateMachines.sorted().joined(separator: ","))) and do not both have calibration rows")
                return report
            }
            report.warnings.append("separate runs compared without calibration rows: the verdicts include the difference in the machine's speed between the two runs")
        } else {
            report.form = .separateRuns(sameMachine: sameMachine)
            report.warnings.append((sameMachine ? "separate runs on the same machine kind" : "runs from different machines (baseline \(baselineMachines.sorted().joined(separator: ",")), candidate \(candidateMachines.sorted().joined(separator: ",")))")
                + ": each time is divided by the calibration of its own repetition (decode for extraction, copy for composition); what the calibration does not capture of the day's machine speed is still in the verdicts. A two-build run (`bench --baseline-binary`) compared with `compare FILE` is not exposed to it")
            report.calibrationChange = [CalibrationKind.decode, .copy].compactMap { kind in
                let before = baselineCalibration.values(kind), after = candidateCalibration.values(kind)
                guard !before.isEmpty, !after.isEmpty else { return nil }
                let interval = ShiftInterval.twoSample(baseline: before.map(log), candidate: after.map(log), level: level)
                return (kind, exp(interval.estimate), exp(interval.low), exp(interval.high))
            }
        }

        let baselineSamples = samples(baseline, calibration: normalised ? baselineCalibration : nil)
        let candidateSamples = samples(candidate, calibration: normalised ? candidateCalibration : nil)
        let shared = Set(baselineSamples.keys).intersection(candidateSamples.keys)
            .filter { !normalised || $0.phase != .calibration }
        report.onlyInBaseline = Set(baselineSamples.keys).subtracting(candidateSamples.keys).sorted()
        report.onlyInCandidate = Set(candidateSamples.keys).subtracting(baselineSamples.keys).sorted()
        guard !shared.isEmpty else {
            report.outcome = .badInput("the runs have no configuration with \(metric.rawValue) samples in common")
            return report
        }
        for key in shared.sorted() {
            let before = baselineSamples[key]!, after = candidateSamples[key]!
            let interval = ShiftInterval.twoSample(baseline: before.values.map(log), candidate: after.values.map(log), level: level)
            if interval.coverage < level {
                report.warnings.append("\(key): too few samples in a run; its interval covers only \(Self.percentText(interval.coverage)), so no verdict")
            }
            var entry = comparison(key: key, baseline: before.values, candidate: after.values, interval: interval, decision: nil,
                                   decisionLevel: level)
            entry.normalisedBy = normalised ? CalibrationKind(for: key) : nil
            if normalised, before.isParallel || after.isParallel {
                let raw = ShiftInterval.twoSample(baseline: before.raw.map(log), candidate: after.raw.map(log), level: level)
                entry.unnormalised = (exp(raw.estimate), exp(raw.low), exp(raw.high))
            }
            report.comparisons.append(entry)
        }
        report.workChanges = workChanges(baseline: baseline, candidate: candidate)
        // Parallel work depends on the number of cores (workers per core), so counters gate only on equal machines.
        report.decideOutcome(gateOnWork: Set(baseline.map(\.run.machine.logicalCores)) == Set(candidate.map(\.run.machine.logicalCores)))
        return report
    }

    // MARK: Pieces

    /// `decision` is the paired form's Bonferroni interval (nil: separate runs decide on `interval`).
    private func comparison(key: ConfigurationKey, baseline: [Double], candidate: [Double], interval: ShiftInterval,
                            decision: ShiftInterval?, decisionLevel: Double) -> ConfigurationComparison {
        let ratio = exp(interval.estimate), low = exp(interval.low), high = exp(interval.high)
        let decided = decision ?? interval
        // Too few samples for the level: the interval is min…max with less coverage; no call.
        let verdict: Verdict = decided.coverage < decisionLevel ? .same
            : decision != nil ? verdict(ratio: ratio, low: exp(decided.low), high: exp(decided.high), bound: 1)
            : verdict(ratio: ratio, low: low, high: high, bound: nil)
        var result = ConfigurationComparison(
            key: key, baselineMedian: Quantile.median(sorted: baseline.sorted()),
            candidateMedian: Quantile.median(sorted: candidate.sorted()), count: interval.count,
            ratio: ratio, ratioLow: low, ratioHigh: high, coverage: interval.coverage, verdict: verdict)
        result.decisionLow = exp(decided.low)
        result.decisionHigh = exp(decided.high)
        result.decisionCoverage = decided.coverage
        return result
    }

    /// `slower` (for a time) when the estimate is beyond the threshold and the interval beyond
    /// `bound` (1: paired, any change at all) or, with no bound, beyond the threshold too.
    private func verdict(ratio: Double, low: Double, high: Double, bound: Double?) -> Verdict {
        let grew = ratio > 1 + threshold && low > (bound ?? 1 + threshold)
        let shrank = ratio < 1 - threshold && high < (bound ?? 1 - threshold)
        switch (grew, shrank) {
        case (true, _): return metric.lowerIsBetter ? .slower : .faster
        case (_, true): return metric.lowerIsBetter ? .faster : .slower
        default: return .same
        }
    }

    /// The first `ok` row whose metric value cannot be a measurement: bad input, never a "same".
    func badValue(in rows: [RawResultRow], path: String) -> String? {
        MeasurementCheck.firstImplausibleValue(in: rows, path: path)
    }

    /// The metric of each configuration's `ok` rows by repetition.
    private func valuesByRepetition(_ rows: [RawResultRow]) -> [ConfigurationKey: [Int: Double]] {
        var result: [ConfigurationKey: [Int: Double]] = [:]
        for row in rows where row.status == .ok {
            // Ratios need positive values; a CPU time can be 0 on a very short run.
            if let value = metric.value(in: row), value > 0 { result[row.configurationKey, default: [:]][row.repetition] = value }
        }
        return result
    }

    /// One configuration's samples of a run: normalised by the calibration of the same
    /// repetition when `calibration` is given, and the raw values beside them.
    struct Samples {
        var values: [Double] = []
        var raw: [Double] = []
        /// CPU time over wall time of each sample: above 1.5 the work used more than one core.
        var cpuPerWall: [Double] = []
        var isParallel: Bool { !cpuPerWall.isEmpty && Quantile.median(sorted: cpuPerWall.sorted()) > 1.5 }
    }

    private func samples(_ rows: [RawResultRow], calibration: CalibrationTable?) -> [ConfigurationKey: Samples] {
        var result: [ConfigurationKey: Samples] = [:]
        for row in rows where row.status == .ok {
            guard let value = metric.value(in: row), value > 0 else { continue }
            let key = row.configurationKey
            var normalised = value
            if let calibration, key.phase != .calibration {
                guard let seconds = calibration.seconds(CalibrationKind(for: key), row: row) else { continue }
                normalised = metric.lowerIsBetter ? value / seconds : value * seconds
            }
            result[key, default: Samples()].values.append(normalised)
            result[key, default: Samples()].raw.append(value)
            if let wall = row.wallSeconds, let user = row.cpuUserSeconds, let system = row.cpuSysSeconds, wall > 0 {
                result[key, default: Samples()].cpuPerWall.append((user + system) / wall)
            }
        }
        return result
    }

    /// Counter changes between the builds, per configuration: any difference when each side
    /// is constant. A counter that varies within a build (threads racing for a task
    /// allocation) counts as changed only when the ranges are further apart than that spread.
    func workChanges(baseline: [RawResultRow], candidate: [RawResultRow]) -> [WorkChange] {
        let before = Dictionary(grouping: baseline.filter { $0.status == .ok }, by: \.configurationKey)
        let after = Dictionary(grouping: candidate.filter { $0.status == .ok }, by: \.configurationKey)
        var changes: [WorkChange] = []
        for key in Set(before.keys).intersection(after.keys).sorted() {
            for counter in WorkCounter.allCases {
                let old = before[key]!.compactMap(counter.value(in:)), new = after[key]!.compactMap(counter.value(in:))
                guard let oldLow = old.min(), let oldHigh = old.max(), let newLow = new.min(), let newHigh = new.max() else { continue }
                let spread = max(oldHigh - oldLow, newHigh - newLow, counter.tolerance(baseline: before[key]!, candidate: after[key]!))
                if newLow > oldHigh + spread || newHigh < oldLow - spread {
                    changes.append(WorkChange(key: key, counter: counter, baseline: oldLow...oldHigh, candidate: newLow...newHigh))
                }
            }
        }
        return changes
    }

    /// The level of each configuration's decision interval when `comparisons` are judged at
    /// once: Bonferroni, so the whole file's family-wise level is `level`.
    public static func decisionLevel(level: Double, comparisons: Int) -> Double {
        1 - (1 - level) / Double(max(1, comparisons))
    }

    /// The fewest pairs whose exact signed-rank interval reaches `decisionLevel`: its widest
    /// interval (min…max of the Walsh averages) covers 1 − 2·2⁻ⁿ.
    public static func pairsNeeded(decisionLevel: Double) -> Int {
        var pairs = 1
        while 1 - 2 * pow(0.5, Double(pairs)) < decisionLevel { pairs += 1 }
        return pairs
    }

    static func percentText(_ probability: Double) -> String { String(format: "%.1f %%", probability * 100) }

    static func machineText(_ rows: [RawResultRow]) -> String {
        let machines = Set(rows.map { "\($0.run.machine.name) (\($0.run.machine.logicalCores) cores)" })
        return machines.sorted().joined(separator: ", ")
    }
}

/// The calibration workload that matches a configuration's work.
public enum CalibrationKind: String, Sendable, Hashable {
    /// A fixed single-threaded decode: for extraction, whole pipelines and peers.
    case decode
    /// A 64 MiB copy: for composition, which moves memory.
    case copy

    init(for key: ConfigurationKey) {
        self = key.phase == .compose ? .copy : .decode
    }

    /// The kind of a `calibration` row: the copy has no video.
    init(calibrationRow row: RawResultRow) {
        self = row.video.codec == "none" || row.video.id == "none" ? .copy : .decode
    }
}

/// The calibration times of a run by repetition, for normalising the other rows.
struct CalibrationTable {
    private var seconds: [String: Double] = [:]
    private var byKind: [CalibrationKind: [Double]] = [:]

    init(_ rows: [RawResultRow], metric: Metric) {
        for row in rows where row.status == .ok && row.phase == .calibration {
            guard let value = metric.value(in: row), value > 0 else { continue }
            let kind = CalibrationKind(calibrationRow: row)
            seconds[Self.slot(kind, run: row.run.runID, repetition: row.repetition, build: row.build)] = value
            byKind[kind, default: []].append(value)
        }
    }

    var isEmpty: Bool { seconds.isEmpty }

    func values(_ kind: CalibrationKind) -> [Double] { byKind[kind] ?? [] }

    /// The calibration of `kind` in the repetition (and build) of `row`.
    func seconds(_ kind: CalibrationKind, row: RawResultRow) -> Double? {
        seconds[Self.slot(kind, run: row.run.runID, repetition: row.repetition, build: row.build)]
    }

    private static func slot(_ kind: CalibrationKind, run: String, repetition: Int, build: BuildRole?) -> String {
        "\(kind.rawValue) \(run) \(repetition) \(build?.rawValue ?? "")"
    }
}

/// A count of work that does not depend on the machine's speed.
public enum WorkCounter: String, Sendable, Hashable, CaseIterable {
    case framesDecoded = "frames_decoded"
    case packetsRead = "packets_read"
    case videoBytes = "video_bytes"
    case seeks
    case heapAllocations = "heap_allocations"

    /// How far the counter may move between runs of the same work: 0 (it is exact) but for
    /// heap allocations of parallel work. Frames, packets, the video's bytes and seeks are the
    /// library's own counts, and each GOP costs the same whichever worker decodes it. One
    /// worker's allocations are exact too; with several, which worker takes which GOP and
    /// which runtime thread runs which task is a race, and the count moves with it (each
    /// worker's decoder keeps pools sized by the GOPs it took, and a worker that found every
    /// GOP taken never decodes). Measured A/A spread of such configurations on the quick suite
    /// (20 two-build runs, 720 taskgroup extractions): up to 10 allocations, and 120 to 176
    /// fewer in the 12 runs where a worker decoded nothing, which the gate's within-build spread
    /// covers; on the full suite 0.72 % (taskgroup, av1-360p-5s ×100: 5590…5630). The tolerance
    /// is 1 % of the count plus 8. Rows that say they ran one worker are exact.
    public func tolerance(baseline: [RawResultRow], candidate: [RawResultRow]) -> Int {
        guard self == .heapAllocations else { return 0 }
        let rows = baseline + candidate
        // Decoding phases say how many workers ran; every other phase may be parallel (composers).
        if rows.allSatisfy({ ($0.bound?.workers).map { $0 <= 1 } ?? false }) { return 0 }
        let count = rows.compactMap(\.heapAllocations).max() ?? 0
        return count / 100 + 8
    }

    func value(in row: RawResultRow) -> Int? {
        switch self {
        case .framesDecoded: row.framesDecoded
        case .packetsRead: row.packetsRead
        case .videoBytes: row.videoBytes
        case .seeks: row.seeks
        case .heapAllocations: row.heapAllocations
        }
    }
}

/// A counter that changed for one configuration.
public struct WorkChange: Sendable, Hashable {
    public var key: ConfigurationKey
    public var counter: WorkCounter
    public var baseline: ClosedRange<Int>
    public var candidate: ClosedRange<Int>
    /// `true` when the candidate does more of it.
    public var grew: Bool { candidate.lowerBound > baseline.upperBound }
}

/// The change of one configuration between baseline and candidate.
public struct ConfigurationComparison: Sendable {
    public var key: ConfigurationKey
    /// Median of the baseline samples, in the metric's unit or, normalised, in calibrations.
    public var baselineMedian: Double
    /// Median of the candidate samples, in the same unit as ``baselineMedian``.
    public var candidateMedian: Double
    /// Pairs (paired) or the smaller run's sample count.
    public var count: Int
    /// Estimated candidate / baseline ratio: 1.10 means 10 % larger.
    public var ratio: Double
    public var ratioLow: Double
    public var ratioHigh: Double
    /// Exact coverage of the interval.
    public var coverage: Double
    public var verdict: Verdict
    /// The interval the verdict was decided on: paired, at the Bonferroni level of
    /// ``GateReport/decisionLevel``; separate runs, the interval above.
    public var decisionLow = 1.0
    public var decisionHigh = 1.0
    public var decisionCoverage = 0.0
    /// The calibration the samples were divided by; nil when not normalised.
    public var normalisedBy: CalibrationKind?
    /// For parallel pipelines in a normalised comparison: the ratio of raw times with its interval.
    public var unnormalised: (ratio: Double, low: Double, high: Double)?
}
