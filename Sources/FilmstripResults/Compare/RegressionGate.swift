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
/// Verdicts, with threshold `t`: `slower`, `faster`, `same` or `undecided` (never read as `same`;
/// the gate then exits 3):
/// - **instruction counts** (``Metric/instructions``): one run per build is a measurement, decided
///   exactly at `±t` and at least ``instructionFloor`` instructions (``instructionComparisons``).
/// - **paired times**: anytime-valid betting evidence per configuration (``BettingEvidence``),
///   judged for the gated configurations at once by e-Benjamini–Hochberg at `1 − level`
///   (``judgeFamilies(_:fixed:)``), so pairs may be added until each is decided (`UntilDecided`).
/// - **separate runs**: the null "same code" cannot be told from a day's speed that the
///   calibration missed, so `slower` needs the estimate and the whole interval above `1 + t`,
///   `same` the whole interval within `±t`.
/// Mirrored for `faster` and for throughput.
///
/// Work counters (frames decoded, packets, the video's bytes, seeks, heap allocations) do not
/// depend on the machine's speed; any change of them for the same configuration is
/// reported as "work changed", and more work fails the gate, whatever the noise.
package struct RegressionGate: Sendable {
    package var metric: Metric
    /// Times judged beside ``metric`` in the paired form, configuration by configuration (the
    /// default time gate: wall time beside CPU time). A configuration is slower when any is
    /// decided slower, `same` only when all are; the metrics' e-values form one
    /// e-Benjamini–Hochberg family, so the gate's level holds for all together (docs/gate.md).
    /// Separate runs are judged on each metric by its own interval (``compareRuns(baseline:candidate:baselinePath:candidatePath:)``).
    package var otherMetrics: [Metric]
    /// Relative change treated as noise, e.g. 0.05 for 5 %.
    package var threshold: Double
    /// Confidence level of the interval of the ratio, in `0..<1`.
    package var level: Double
    /// How the pairs of a two-build time run were collected, which decides how they are judged;
    /// nil: read from the pairs (``PairCollection/of(_:)``). `bench --until-decided`'s own gate and
    /// a gate from its record (``GateSettings``) say ``PairCollection/addedByLooking``.
    package var pairCollection: PairCollection?

    package init(metric: Metric = .cpuSeconds, threshold: Double? = nil, level: Double = 0.95, otherMetrics: [Metric] = []) {
        self.metric = metric
        self.otherMetrics = otherMetrics.reduce(into: []) { kept, other in
            if other != metric && !kept.contains(other) { kept.append(other) }
        }
        self.threshold = threshold ?? Self.defaultThreshold(for: metric)
        self.level = level
    }

    /// The metrics judged, ``metric`` first.
    package var metrics: [Metric] { [metric] + otherMetrics }

    /// The time gate at its defaults: CPU time (what the code did, the steadier on a busy
    /// machine), CPU plus blocked time (the program's own waiting too: a worker waiting on a
    /// lock, a join, I/O; not the machine's run queue) and wall time (what a user waits for),
    /// which gates only configurations measured on a quiet machine (``loadedRunQueueShare``).
    package static func elapsedAndCPU(threshold: Double? = nil, level: Double = 0.95) -> RegressionGate {
        RegressionGate(metric: .cpuSeconds, threshold: threshold, level: level, otherMetrics: [.cpuAndBlockedSeconds, .wallSeconds])
    }

    /// A configuration whose runs waited for a core longer than this share of their CPU time
    /// (median of its runs, both builds) was measured on a loaded machine: its wall time is
    /// then mostly other tenants', and where the gate also judges the program's own waiting
    /// (``Metric/cpuAndBlockedSeconds``) wall time is not judged for it. Measured on the shared
    /// 2-core box (docs/gate.md § 2b): a two-worker configuration's runs waited 1.9–6.6× their CPU
    /// time (10th–90th percentile) at a load average of 6.5–12, 6.8–14× with
    /// scripts/background-load.sh on top; two workers on two otherwise idle cores wait next to
    /// nothing for a core, so a quarter leaves room for the system's own threads.
    package static let loadedRunQueueShare = 0.25

    /// Configurations of `rows` measured on a loaded machine (``loadedRunQueueShare``); rows
    /// without the waiting columns (older files) never are.
    static func measuredUnderLoad(_ rows: [RawResultRow]) -> Set<ConfigurationKey> {
        var shares: [ConfigurationKey: [Double]] = [:]
        for row in rows where row.status == .ok {
            guard let waiting = row.waiting, waiting.onCPUSeconds > 0 else { continue }
            shares[row.configurationKey, default: []].append(waiting.runQueueWaitSeconds / waiting.onCPUSeconds)
        }
        return Set(shares.filter { Quantile.median(sorted: $0.value.sorted()) > loadedRunQueueShare }.keys)
    }

    /// The gate used when no metric is named: instruction counts exactly for a callgrind file,
    /// else ``elapsedAndCPU(threshold:level:)``.
    package static func automatic(for rows: [RawResultRow], threshold: Double? = nil) -> RegressionGate {
        automaticMetric(for: rows) == .instructions ? RegressionGate(metric: .instructions, threshold: threshold)
            : elapsedAndCPU(threshold: threshold)
    }

    /// The smallest change worth reporting when none is given: 5 % for times and other
    /// measurements; for instruction counts, well above their A/A spread (docs/gate.md: the
    /// largest A/A difference of any configuration and phase of the quick suite was under 0.1 %).
    package static func defaultThreshold(for metric: Metric) -> Double {
        metric == .instructions ? 0.005 : 0.05
    }

    /// Instruction metric: a change smaller than this many instructions is never called, whatever
    /// its share. Small phases (a fused pipeline's compose: ~1,400 instructions; a multithreaded
    /// compose: ~465,000, of which glibc's malloc moves ~5,000 with which thread freed what)
    /// move by more than the threshold's share between identical runs; 20,000 instructions
    /// are about 10 µs of work.
    package static let instructionFloor = 20_000.0

    /// The metric a gate uses when none is named: instruction counts for a file measured under
    /// callgrind, else CPU time (on a shared machine wall time mostly measures the wait for a core).
    package static func automaticMetric(for rows: [RawResultRow]) -> Metric {
        rows.contains { $0.status == .ok && $0.instructions != nil } ? .instructions : .cpuSeconds
    }

    /// The paired comparison of the two builds in a raw results file.
    package func compareFile(_ file: RawResultsFile) -> GateReport {
        switch file.measurements {
        case .success(let rows):
            // Each configuration's newest run (`NewestRun`), as every reader judges a file.
            return comparePaired(NewestRun.rows(rows), path: file.path,
                                 profileRoot: URL(fileURLWithPath: file.path).deletingLastPathComponent().path)
        case .failure(let error):
            return GateReport(gate: self, outcome: .badInput(error.description))
        }
    }

    /// Compares the raw results files of two separate runs.
    package func compareFiles(baselinePath: String, candidatePath: String) -> GateReport {
        compareFiles(RawResultsFile(path: baselinePath), RawResultsFile(path: candidatePath))
    }

    /// The same for files already read.
    package func compareFiles(_ baselineFile: RawResultsFile, _ candidateFile: RawResultsFile) -> GateReport {
        do {
            let baseline = NewestRun.rows(try baselineFile.measurements.get())
            let candidate = NewestRun.rows(try candidateFile.measurements.get())
            return compareRuns(baseline: baseline, candidate: candidate, baselinePath: baselineFile.path, candidatePath: candidateFile.path)
        } catch {
            return GateReport(gate: self, outcome: .badInput(error.description))
        }
    }

    // MARK: Paired

    /// Candidate against baseline rows of one two-build run, pair by pair.
    /// `profileRoot`: the folder the rows' `profile` paths are relative to (the results file's).
    package func comparePaired(_ rows: [RawResultRow], path: String = "rows", profileRoot: String? = nil) -> GateReport {
        var report = GateReport(gate: self, outcome: .passed)
        report.form = .paired
        let baseline = rows.filter { $0.build == .baseline }, candidate = rows.filter { $0.build == .candidate }
        if let problem = pairedInputProblem(rows, baseline: baseline, candidate: candidate, path: path) {
            report.outcome = .badInput(problem)
            return report
        }
        if let differ = Self.buildConfigurationsDiffer(baseline, candidate) {
            report.warnings.append(differ + "; the ratios measure the compiler settings too")
        }
        // A failed run of an executable given by path has no commit to record (it never said).
        report.baselineCommits = Set(baseline.map(\.executableCommit)).subtracting([""]).sorted()
        report.candidateCommits = Set(candidate.map(\.executableCommit)).subtracting([""]).sorted()
        let baselineByKey = valuesByRepetition(baseline, metric: metric), candidateByKey = valuesByRepetition(candidate, metric: metric)
        report.onlyInBaseline = Set(baselineByKey.keys).subtracting(candidateByKey.keys).sorted()
        report.onlyInCandidate = Set(candidateByKey.keys).subtracting(baselineByKey.keys).sorted()
        report.failures = ConfigurationFailure.between(baseline: baseline, candidate: candidate)
        let paired = Self.pairs(baselineByKey, candidateByKey)
        guard !paired.isEmpty else { return withoutPairs(report, rows: rows, path: path) }
        let engine: any GateEngine = metric == .instructions ? InstructionCountEngine(gate: self, profileRoot: profileRoot) : PairedTimeEngine(gate: self)
        engine.judge(baseline: baseline, candidate: candidate, into: &report)
        report.workChanges = workChanges(baseline: baseline, candidate: candidate, paired: true)
        report.decideOutcome(gateOnWork: true)
        return report
    }

    /// Why a two-build run's rows cannot be judged pair by pair: a value that cannot be a
    /// measurement, rows of one build only, or every run of a build failed; nil when they can.
    private func pairedInputProblem(_ rows: [RawResultRow], baseline: [RawResultRow], candidate: [RawResultRow], path: String) -> String? {
        if let problem = badValue(in: rows, path: path) { return problem }
        guard !baseline.isEmpty, !candidate.isEmpty else {
            return "\(path): no rows of both builds (the `build` column); a one-file comparison needs a two-build run (`bench --baseline-binary` or `--baseline-rev`); give two files to compare separate runs"
        }
        return Self.everyRunFailed(baseline, side: "baseline", path: path) ?? Self.everyRunFailed(candidate, side: "candidate", path: path)
    }

    /// A paired report in which no configuration has the metric in both builds: a failure is a
    /// verdict even when it left no pair to time; without one, nothing could be judged.
    private func withoutPairs(_ report: GateReport, rows: [RawResultRow], path: String) -> GateReport {
        var report = report
        if report.failures.contains(where: \.gated) {
            report.decideOutcome(gateOnWork: true)
            return report
        }
        let instrumented = metric != .instructions && rows.contains { $0.instructions != nil }
        report.outcome = .badInput("\(path): no configuration has \(metric.rawValue) in both builds in the same repetition"
            + (instrumented ? " (the file counts instructions under callgrind: compare it with --metric instructions)" : ""))
        return report
    }

    /// The warning when the two sides' executables were built differently (`debug` against
    /// `release`); nil when they match.
    static func buildConfigurationsDiffer(_ baseline: [RawResultRow], _ candidate: [RawResultRow]) -> String? {
        let baselineBuilds = Set(baseline.map(\.run.machine.buildConfiguration)), candidateBuilds = Set(candidate.map(\.run.machine.buildConfiguration))
        guard baselineBuilds != candidateBuilds else { return nil }
        return "build configurations differ: baseline \(baselineBuilds.sorted().joined(separator: ",")), candidate \(candidateBuilds.sorted().joined(separator: ","))"
    }

    /// The phase a time gate judges: `total` where a configuration has one, else its own phase.
    /// Sub-phases are judged and shown, but a gate of ~100 keys would otherwise wait for
    /// sub-millisecond composition phases whose timer noise is larger than any change.
    static func isGated(_ key: ConfigurationKey, among keys: Set<ConfigurationKey>) -> Bool {
        if key.kind.isReference { return false }
        guard key.phase == .extract || key.phase == .compose else { return true }
        var total = key
        total.phase = .total
        return !keys.contains(total)
    }

    // MARK: Separate runs

    /// Compares two runs' raw rows, each normalised by its own calibration per repetition.
    package func compare(baseline: [RawResultRow], candidate: [RawResultRow],
                        baselinePath: String = "baseline", candidatePath: String = "candidate") -> GateReport {
        var report = GateReport(gate: self, outcome: .passed)
        if let problem = badValue(in: baseline, path: baselinePath) ?? badValue(in: candidate, path: candidatePath) {
            report.outcome = .badInput(problem)
            return report
        }
        // A two-build file given as one side: its candidate rows are the run's code.
        let baseline = baseline.filter { $0.build != .baseline }, candidate = candidate.filter { $0.build != .baseline }
        if let failed = Self.everyRunFailed(baseline, side: "baseline", path: baselinePath) ?? Self.everyRunFailed(candidate, side: "candidate", path: candidatePath) {
            report.outcome = .badInput(failed)
            return report
        }
        if let disjoint = Self.nothingInCommon(baseline, candidate, baselinePath: baselinePath, candidatePath: candidatePath) {
            let measured = { (rows: [RawResultRow]) in Set(rows.filter { $0.status == .ok }.map(\.configurationKey)).sorted() }
            (report.onlyInBaseline, report.onlyInCandidate) = (measured(baseline), measured(candidate))
            report.outcome = .badInput(disjoint)
            return report
        }
        if let differ = Self.buildConfigurationsDiffer(baseline, candidate) { report.warnings.append(differ) }
        report.machines = (Self.machineText(baseline), Self.machineText(candidate))
        SeparateRunsEngine(gate: self, paths: (baselinePath, candidatePath)).judge(baseline: baseline, candidate: candidate, into: &report)
        return report
    }

    // MARK: Pieces

    /// A separate-runs comparison: decided on the whole interval at `level`.
    func comparison(key: ConfigurationKey, baseline: [Double], candidate: [Double], interval: ShiftInterval) -> ConfigurationComparison {
        let ratio = exp(interval.estimate), low = exp(interval.low), high = exp(interval.high)
        var result = ConfigurationComparison(
            key: key, baselineMedian: Quantile.median(sorted: baseline.sorted()),
            candidateMedian: Quantile.median(sorted: candidate.sorted()), count: interval.count,
            ratio: ratio, ratioLow: low, ratioHigh: high, coverage: interval.coverage,
            verdict: interval.coverage < level ? .undecided : verdict(ratio: ratio, low: low, high: high))
        result.metric = metric
        return result
    }

    /// Separate runs: the null "same code" cannot be told from a day's speed the calibration
    /// missed, so a change needs the estimate and the whole interval beyond the threshold, and
    /// `same` the whole interval within it; anything between is undecided.
    func verdict(ratio: Double, low: Double, high: Double) -> Verdict {
        if ratio > 1 + threshold && low > 1 + threshold { return metric.lowerIsBetter ? .slower : .faster }
        if ratio < 1 - threshold && high < 1 - threshold { return metric.lowerIsBetter ? .faster : .slower }
        if low > 1 - threshold && high < 1 + threshold { return .same }
        return .undecided
    }

    /// Why `rows` (one build's, or one run's) hold nothing to judge: none of them, or every run
    /// failed (quoting the first failure, e.g. valgrind refusing an executable); nil when some ran.
    static func everyRunFailed(_ rows: [RawResultRow], side: String, path: String) -> String? {
        if rows.isEmpty { return "\(path): no \(side) rows" }
        guard !rows.contains(where: { $0.status == .ok }) else { return nil }
        let reason = rows.first { !$0.error.isEmpty }.map { ": the first says \"\($0.error.prefix(200).split(whereSeparator: \.isNewline).joined(separator: " "))\"" } ?? ""
        return "\(path): every one of the \(rows.count) \(side) run(s) failed, nothing to compare\(reason)"
    }

    /// Why two runs that each measured something cannot be compared: no configuration measured in
    /// one was measured in the other (another suite, other videos); nil when some was.
    static func nothingInCommon(_ baseline: [RawResultRow], _ candidate: [RawResultRow], baselinePath: String, candidatePath: String) -> String? {
        let measured = { (rows: [RawResultRow]) in Set(rows.filter { $0.status == .ok && $0.phase != .calibration }.map(\.configurationKey)) }
        let before = measured(baseline), after = measured(candidate)
        guard !before.isEmpty, !after.isEmpty, before.isDisjoint(with: after) else { return nil }
        return "\(baselinePath) and \(candidatePath) share no configuration (\(before.count) and \(after.count) measured, none in both), nothing to compare"
    }

    /// The first `ok` row whose metric value cannot be a measurement: bad input, never a "same".
    func badValue(in rows: [RawResultRow], path: String) -> String? {
        MeasurementCheck.firstImplausibleValue(in: rows, path: path)
    }

    /// The metric of each configuration's `ok` rows by repetition.
    func valuesByRepetition(_ rows: [RawResultRow], metric: Metric) -> [ConfigurationKey: [Int: Double]] {
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

    func samples(_ rows: [RawResultRow], calibration: CalibrationTable?) -> [ConfigurationKey: Samples] {
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

    static func percentText(_ probability: Double) -> String { String(format: "%.1f %%", probability * 100) }

    static func machineText(_ rows: [RawResultRow]) -> String {
        let machines = Set(rows.map { "\($0.run.machine.name) (\($0.run.machine.logicalCores) cores)" })
        return machines.sorted().joined(separator: ", ")
    }
}
