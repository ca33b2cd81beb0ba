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
///   (``sequentialComparisons``), so pairs may be added until each is decided (`UntilDecided`).
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

    /// The paired comparison of the two builds in the raw results file at `path`.
    package func compareFile(path: String) -> GateReport { compareFile(RawResultsFile(path: path)) }

    /// The same for a file already read.
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
        if let problem = badValue(in: rows, path: path) {
            report.outcome = .badInput(problem)
            return report
        }
        let baseline = rows.filter { $0.build == .baseline }, candidate = rows.filter { $0.build == .candidate }
        guard !baseline.isEmpty, !candidate.isEmpty else {
            report.outcome = .badInput("\(path): no rows of both builds (the `build` column); a one-file comparison needs a two-build run (`bench --baseline-binary` or `--baseline-rev`); give two files to compare separate runs")
            return report
        }
        if let failed = Self.everyRunFailed(baseline, side: "baseline", path: path) ?? Self.everyRunFailed(candidate, side: "candidate", path: path) {
            report.outcome = .badInput(failed)
            return report
        }
        let baselineBuilds = Set(baseline.map(\.run.machine.buildConfiguration)), candidateBuilds = Set(candidate.map(\.run.machine.buildConfiguration))
        if baselineBuilds != candidateBuilds {
            report.warnings.append("build configurations differ: baseline \(baselineBuilds.sorted().joined(separator: ",")), candidate \(candidateBuilds.sorted().joined(separator: ",")); the ratios measure the compiler settings too")
        }
        // A failed run of an executable given by path has no commit to record (it never said).
        report.baselineCommits = Set(baseline.map(\.executableCommit)).subtracting([""]).sorted()
        report.candidateCommits = Set(candidate.map(\.executableCommit)).subtracting([""]).sorted()
        let baselineByKey = valuesByRepetition(baseline, metric: metric), candidateByKey = valuesByRepetition(candidate, metric: metric)
        report.onlyInBaseline = Set(baselineByKey.keys).subtracting(candidateByKey.keys).sorted()
        report.onlyInCandidate = Set(candidateByKey.keys).subtracting(baselineByKey.keys).sorted()
        report.failures = ConfigurationFailure.between(baseline: baseline, candidate: candidate)
        let paired = Self.pairs(baselineByKey, candidateByKey)
        guard !paired.isEmpty else {
            // A failure is a verdict even when it left no pair to time.
            if report.failures.contains(where: \.gated) {
                report.decideOutcome(gateOnWork: true)
                return report
            }
            let instrumented = metric != .instructions && rows.contains { $0.instructions != nil }
            report.outcome = .badInput("\(path): no configuration has \(metric.rawValue) in both builds in the same repetition"
                + (instrumented ? " (the file counts instructions under callgrind: compare it with --metric instructions)" : ""))
            return report
        }
        if metric == .instructions {
            report.comparisons = instructionComparisons(paired, baselineRows: baseline, candidateRows: candidate, profileRoot: profileRoot)
            report.spanChanges = spanChanges(baseline: baseline, candidate: candidate)
        } else {
            var entries = metrics.flatMap { judged -> [ConfigurationComparison] in
                let pairs = judged == metric ? paired
                    : Self.pairs(valuesByRepetition(baseline, metric: judged), valuesByRepetition(candidate, metric: judged))
                return sequentialEntries(pairs, metric: judged)
            }
            // On a loaded machine wall time is mostly other tenants' waiting: where the program's
            // own is judged, wall time is left to the configurations measured on a quiet one.
            if metrics.contains(.cpuAndBlockedSeconds), metrics.contains(.wallSeconds) {
                let loaded = Self.measuredUnderLoad(baseline + candidate).intersection(entries.filter { $0.metric == .wallSeconds }.map(\.key))
                if !loaded.isEmpty {
                    entries.removeAll { $0.metric == .wallSeconds && loaded.contains($0.key) }
                    report.warnings.append("wall time not judged for \(loaded.count) configuration(s) measured on a loaded machine (their runs waited for a core longer than \(Int(Self.loadedRunQueueShare * 100)) % of their CPU time): judged on CPU time and CPU plus blocked time")
                }
            }
            let failed = Set(report.failures.map(\.key))
            let collection = pairCollection ?? PairCollection.of(entries.filter { $0.gated && !failed.contains($0.key) })
            report.pairCollection = collection
            // Each configuration's metrics side by side, in the order of ``metrics``.
            report.comparisons = judgeFamilies(entries, fixed: collection == .fixed).sorted { lhs, rhs in
                lhs.key != rhs.key ? lhs.key < rhs.key
                    : metrics.firstIndex(of: lhs.metric)! < metrics.firstIndex(of: rhs.metric)!
            }
            report.familySize = report.comparisons.filter(\.gated).count
        }
        report.workChanges = workChanges(baseline: baseline, candidate: candidate, paired: true)
        report.decideOutcome(gateOnWork: true)
        return report
    }

    /// Time metrics, paired: each configuration's anytime-valid evidence (``BettingEvidence``)
    /// that the candidate grew, shrank, or stayed within the threshold, judged for all
    /// configurations at once by e-Benjamini–Hochberg, so a gate of unchanged code fails with
    /// probability at most `1 − level` however many configurations it holds and however the pairs
    /// were collected (`bench --until-decided` adds pairs until each is decided).
    ///
    /// - `slower`: evidence that the ratio is above 1, and the Hodges–Lehmann estimate above `1 + t`;
    /// - `same`: evidence that the ratio is below `1 + t` and evidence that it is above `1 − t`;
    /// - `undecided`: neither yet — never read as `same`.
    /// Only a configuration's top-level phase is gated (`total` of a pipeline, the one phase of
    /// the others): its sub-phases are judged and shown, but a gate of ~100 keys would otherwise
    /// wait for sub-millisecond composition phases whose timer noise is larger than any change.
    func sequentialComparisons(_ paired: [(ConfigurationKey, [Double], [Double])]) -> [ConfigurationComparison] {
        judgeFamilies(sequentialEntries(paired, metric: metric), fixed: false)
    }

    /// Pairs in the order they were measured (repetition order): the sequential evidence bets on them in turn.
    static func pairs(_ baseline: [ConfigurationKey: [Int: Double]], _ candidate: [ConfigurationKey: [Int: Double]])
        -> [(ConfigurationKey, [Double], [Double])] {
        Set(baseline.keys).intersection(candidate.keys).sorted().compactMap { key in
            let before = baseline[key]!, after = candidate[key]!
            let repetitions = before.keys.filter { after[$0] != nil }.sorted()
            guard !repetitions.isEmpty else { return nil }
            return (key, repetitions.map { before[$0]! }, repetitions.map { after[$0]! })
        }
    }

    /// One metric's estimates and e-values per configuration, not yet judged.
    func sequentialEntries(_ paired: [(ConfigurationKey, [Double], [Double])], metric: Metric) -> [ConfigurationComparison] {
        let allKeys = Set(paired.map(\.0))
        let up = log(1 + threshold), down = log(max(1e-9, 1 - threshold))
        return paired.map { key, before, after -> ConfigurationComparison in
            let logRatios = zip(before, after).map { log($1 / $0) }
            let interval = ShiftInterval.paired(logRatios, level: level)
            var entry = ConfigurationComparison(
                key: key, baselineMedian: Quantile.median(sorted: before.sorted()),
                candidateMedian: Quantile.median(sorted: after.sorted()), count: interval.count,
                ratio: exp(interval.estimate), ratioLow: exp(interval.low), ratioHigh: exp(interval.high),
                coverage: interval.coverage, verdict: .undecided)
            entry.decisionLow = entry.ratioLow
            entry.decisionHigh = entry.ratioHigh
            entry.decisionCoverage = interval.coverage
            entry.evidenceGrew = BettingEvidence.eValue(logRatios, shift: 0, direction: 1, floor: up)
            entry.evidenceShrank = BettingEvidence.eValue(logRatios, shift: 0, direction: -1, floor: up)
            entry.evidenceWithin = min(BettingEvidence.eValue(logRatios, shift: up, direction: -1, floor: up),
                                       BettingEvidence.eValue(logRatios, shift: down, direction: 1, floor: up))
            let test = SignedRankTest(logRatios)
            entry.pGrew = test.pValueAbove(0)
            entry.pShrank = test.pValueBelow(0)
            entry.pWithin = max(test.pValueBelow(up), test.pValueAbove(down))
            entry.gated = Self.isGated(key, among: allKeys)
            entry.metric = metric
            return entry
        }
    }

    /// Verdicts for entries of ``sequentialEntries(_:metric:)``, of one metric or of several: each
    /// family judged at once by e-BH (the gated entries of every metric together, the sub-phases
    /// together). One family for both metrics keeps the gate's level for the pair: e-BH holds under
    /// any dependence (CPU and wall time of a pair move together), and with `2m` hypotheses a lone
    /// rejection needs `e ≥ 2m/α`, as a Bonferroni split `α/2` per metric would ask, but several
    /// rejections ask less of each.
    ///
    /// `fixed`: the pairs were all planned (``PairCollection/fixed``), so each family is judged at
    /// this n by the exact signed-rank p-values and Benjamini–Hochberg at `1 − level` instead, the
    /// same three questions with the same threshold rule.
    func judgeFamilies(_ entries: [ConfigurationComparison], fixed: Bool) -> [ConfigurationComparison] {
        var comparisons = entries
        let up = log(1 + threshold), down = log(max(1e-9, 1 - threshold))
        for gated in [true, false] {
            let members = comparisons.indices.filter { comparisons[$0].gated == gated }
            guard !members.isEmpty else { continue }
            let alpha = 1 - level
            let rejected = { (evidence: KeyPath<ConfigurationComparison, Double>, pValue: KeyPath<ConfigurationComparison, Double>) in
                fixed ? SignedRankTest.rejected(pValues: members.map { comparisons[$0][keyPath: pValue] }, alpha: alpha)
                    : BettingEvidence.rejected(eValues: members.map { comparisons[$0][keyPath: evidence] }, alpha: alpha)
            }
            let grew = rejected(\.evidenceGrew, \.pGrew)
            let shrank = rejected(\.evidenceShrank, \.pShrank)
            let within = rejected(\.evidenceWithin, \.pWithin)
            for (position, index) in members.enumerated() {
                let estimate = log(comparisons[index].ratio)
                let verdict: Verdict
                let lowerIsBetter = comparisons[index].metric.lowerIsBetter
                if grew.contains(position) && estimate > up {
                    verdict = lowerIsBetter ? .slower : .faster
                } else if shrank.contains(position) && estimate < down {
                    verdict = lowerIsBetter ? .faster : .slower
                } else if within.contains(position) {
                    verdict = .same
                } else {
                    verdict = .undecided
                }
                comparisons[index].verdict = verdict
            }
        }
        return comparisons
    }

    /// The phase a time gate judges: `total` where a configuration has one, else its own phase.
    static func isGated(_ key: ConfigurationKey, among keys: Set<ConfigurationKey>) -> Bool {
        if key.kind.isReference { return false }
        guard key.phase == .extract || key.phase == .compose else { return true }
        var total = key
        total.phase = .total
        return !keys.contains(total)
    }

    /// Instruction counts: one run per build is a measurement, not a sample, so each
    /// configuration and phase is decided at once (the threshold is set above the counts' A/A
    /// spread, docs/gate.md), and a change names the functions whose own counts moved most.
    func instructionComparisons(_ paired: [(ConfigurationKey, [Double], [Double])], baselineRows: [RawResultRow],
                                candidateRows: [RawResultRow], profileRoot: String?) -> [ConfigurationComparison] {
        let profiles = InstructionAttribution.ProfileIndex(baseline: baselineRows, candidate: candidateRows, root: profileRoot)
        return paired.map { key, before, after in
            let baselineMedian = Quantile.median(sorted: before.sorted()), candidateMedian = Quantile.median(sorted: after.sorted())
            let ratio = candidateMedian / baselineMedian
            let large = abs(candidateMedian - baselineMedian) >= Self.instructionFloor
            var entry = ConfigurationComparison(
                key: key, baselineMedian: baselineMedian, candidateMedian: candidateMedian, count: before.count,
                ratio: ratio, ratioLow: ratio, ratioHigh: ratio, coverage: 1,
                verdict: !large ? .same : ratio > 1 + threshold ? .slower : ratio < 1 - threshold ? .faster : .same)
            entry.decisionLow = ratio
            entry.decisionHigh = ratio
            entry.decisionCoverage = 1
            entry.gated = !key.kind.isReference
            entry.metric = metric
            if entry.verdict != .same {
                entry.attribution = profiles.attribution(for: key, baselineTotal: baselineMedian, grew: entry.verdict == .slower)
            }
            return entry
        }
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
            report.calibrationChange = calibrationChange(baselineCalibration, candidateCalibration)
        }

        let baselineSamples = samples(baseline, calibration: normalised ? baselineCalibration : nil)
        let candidateSamples = samples(candidate, calibration: normalised ? candidateCalibration : nil)
        let shared = Set(baselineSamples.keys).intersection(candidateSamples.keys)
            .filter { !normalised || $0.phase != .calibration }
        report.onlyInBaseline = Set(baselineSamples.keys).subtracting(candidateSamples.keys).sorted()
        report.onlyInCandidate = Set(candidateSamples.keys).subtracting(baselineSamples.keys).sorted()
        report.failures = ConfigurationFailure.between(baseline: baseline, candidate: candidate)
        guard !shared.isEmpty else {
            report.outcome = .badInput("\(baselinePath) and \(candidatePath): the runs have no configuration with \(metric.rawValue) samples in common")
            return report
        }
        for key in shared.sorted() {
            let entry = separateComparison(key, before: baselineSamples[key]!, after: candidateSamples[key]!, normalised: normalised,
                                           warnings: &report.warnings)
            report.comparisons.append(entry)
        }
        report.workChanges = workChanges(baseline: baseline, candidate: candidate, paired: false)
        // Parallel work depends on the number of cores (workers per core), so counters gate only on equal machines.
        report.decideOutcome(gateOnWork: Set(baseline.map(\.run.machine.logicalCores)) == Set(candidate.map(\.run.machine.logicalCores)))
        return report
    }

    /// How each calibration's time changed from the baseline run to the candidate run (ratio
    /// with its interval), for the kinds both runs measured.
    private func calibrationChange(_ baseline: CalibrationTable, _ candidate: CalibrationTable)
        -> [(kind: CalibrationKind, ratio: Double, low: Double, high: Double)] {
        [CalibrationKind.decode, .copy].compactMap { kind in
            let before = baseline.values(kind), after = candidate.values(kind)
            guard !before.isEmpty, !after.isEmpty else { return nil }
            let interval = ShiftInterval.twoSample(baseline: before.map(log), candidate: after.map(log), level: level)
            return (kind, exp(interval.estimate), exp(interval.low), exp(interval.high))
        }
    }

    /// One configuration of two separate runs: the interval of its ratio (normalised by its
    /// calibration when `normalised`, with the raw ratio beside it for parallel work); a warning
    /// when too few samples leave it undecided.
    private func separateComparison(_ key: ConfigurationKey, before: Samples, after: Samples, normalised: Bool,
                                    warnings: inout [String]) -> ConfigurationComparison {
        let interval = ShiftInterval.twoSample(baseline: before.values.map(log), candidate: after.values.map(log), level: level)
        if interval.coverage < level {
            warnings.append("\(key): too few samples in a run; its interval covers only \(Self.percentText(interval.coverage)), so undecided")
        }
        var entry = comparison(key: key, baseline: before.values, candidate: after.values, interval: interval)
        entry.normalisedBy = normalised ? CalibrationKind(for: key) : nil
        if normalised, before.isParallel || after.isParallel {
            let raw = ShiftInterval.twoSample(baseline: before.raw.map(log), candidate: after.raw.map(log), level: level)
            entry.unnormalised = (exp(raw.estimate), exp(raw.low), exp(raw.high))
        }
        return entry
    }

    // MARK: Pieces

    /// A separate-runs comparison: decided on the whole interval at `level`.
    private func comparison(key: ConfigurationKey, baseline: [Double], candidate: [Double], interval: ShiftInterval) -> ConfigurationComparison {
        let ratio = exp(interval.estimate), low = exp(interval.low), high = exp(interval.high)
        var result = ConfigurationComparison(
            key: key, baselineMedian: Quantile.median(sorted: baseline.sorted()),
            candidateMedian: Quantile.median(sorted: candidate.sorted()), count: interval.count,
            ratio: ratio, ratioLow: low, ratioHigh: high, coverage: interval.coverage,
            verdict: interval.coverage < level ? .undecided : verdict(ratio: ratio, low: low, high: high))
        result.decisionLow = low
        result.decisionHigh = high
        result.decisionCoverage = interval.coverage
        result.metric = metric
        return result
    }

    /// Separate runs: the null "same code" cannot be told from a day's speed the calibration
    /// missed, so a change needs the estimate and the whole interval beyond the threshold, and
    /// `same` the whole interval within it; anything between is undecided.
    private func verdict(ratio: Double, low: Double, high: Double) -> Verdict {
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
    private func valuesByRepetition(_ rows: [RawResultRow], metric: Metric) -> [ConfigurationKey: [Int: Double]] {
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
    ///
    /// Work that several decoding workers shared (a row says `workers` > 1) is scheduled: which
    /// worker takes which GOP decides how often one seeks and what its decoder allocates (A/A on
    /// the quick suite: seeks 2 → 3, heap allocations 5923 → 6031 between two pairs). Its counters
    /// are judged like times, on evidence: in a paired run, the betting evidence
    /// (``BettingEvidence``) that the candidate's counts are higher, pair by pair, over all such
    /// counters at once by e-Benjamini–Hochberg at the gate's level; a change without that
    /// evidence is shown, not gated. Separate runs have no pairs, so there such a change is shown
    /// only. Counters of work done by one worker stay exact.
    func workChanges(baseline: [RawResultRow], candidate: [RawResultRow], paired: Bool = true) -> [WorkChange] {
        let before = Dictionary(grouping: baseline.filter { $0.status == .ok }, by: \.configurationKey)
        let after = Dictionary(grouping: candidate.filter { $0.status == .ok }, by: \.configurationKey)
        var changes: [WorkChange] = []
        // Scheduled counters: every one tested is a member of the e-BH family, changed or not.
        var scheduled: [(change: WorkChange, evidence: Double, visible: Bool)] = []
        // An interactive step's counts race with its clock (which requests a drag supersedes,
        // which pool decoder takes which frame): shown in its rows, never gated.
        for key in Set(before.keys).intersection(after.keys).sorted() where key.kind != .interactive {
            let rows = before[key]! + after[key]!
            // Under callgrind the threads run one at a time, and the allocations of parallel work
            // moved beyond their time-run tolerance (A/A: the taskgroup composer 63 → 74); the
            // instruction gate counts malloc's own instructions, so an instruction run's allocation
            // counts are shown in its rows but not gated.
            let instrumented = rows.contains { $0.instructions != nil }
            let isScheduled = rows.contains { ($0.bound?.workers ?? 0) > 1 }
            for counter in WorkCounter.allCases where !(instrumented && counter == .heapAllocations) {
                let old = before[key]!.compactMap(counter.value(in:)), new = after[key]!.compactMap(counter.value(in:))
                guard let oldLow = old.min(), let oldHigh = old.max(), let newLow = new.min(), let newHigh = new.max() else { continue }
                var change = WorkChange(key: key, counter: counter, baseline: oldLow...oldHigh, candidate: newLow...newHigh)
                let spread = max(oldHigh - oldLow, newHigh - newLow, counter.tolerance(baseline: before[key]!, candidate: after[key]!))
                let visible = newLow > oldHigh + spread || newHigh < oldLow - spread
                if isScheduled {
                    change.gated = false
                    change.scheduled = true
                    let evidence = paired ? Self.counterEvidence(counter, before: before[key]!, after: after[key]!) : 1
                    scheduled.append((change, evidence, visible))
                } else if visible {
                    changes.append(change)
                }
            }
        }
        let evidenced = BettingEvidence.rejected(eValues: scheduled.map(\.evidence), alpha: 1 - level)
        for (index, entry) in scheduled.enumerated() {
            var change = entry.change
            if evidenced.contains(index) {
                change.gated = true
                change.grew = true
            } else if !entry.visible {
                continue
            }
            changes.append(change)
        }
        let order = { (change: WorkChange) in WorkCounter.allCases.firstIndex(of: change.counter)! }
        return changes.sorted { $0.key != $1.key ? $0.key < $1.key : order($0) < order($1) }
    }

    /// The betting evidence that a scheduled counter is higher in the candidate, over the pairs of
    /// the same repetition in the order measured (log of (count + 1) ratios: a count may be 0).
    static func counterEvidence(_ counter: WorkCounter, before: [RawResultRow], after: [RawResultRow]) -> Double {
        let baseline = Dictionary(before.compactMap { row in counter.value(in: row).map { (row.repetition, $0) } }, uniquingKeysWith: { first, _ in first })
        let candidate = Dictionary(after.compactMap { row in counter.value(in: row).map { (row.repetition, $0) } }, uniquingKeysWith: { first, _ in first })
        let ratios = baseline.keys.filter { candidate[$0] != nil }.sorted().map { log(Double(candidate[$0]! + 1) / Double(baseline[$0]! + 1)) }
        return BettingEvidence.eValue(ratios, shift: 0, direction: 1, floor: log(1.01))
    }

    static func percentText(_ probability: Double) -> String { String(format: "%.1f %%", probability * 100) }

    static func machineText(_ rows: [RawResultRow]) -> String {
        let machines = Set(rows.map { "\($0.run.machine.name) (\($0.run.machine.logicalCores) cores)" })
        return machines.sorted().joined(separator: ", ")
    }
}

/// The calibration workload that matches a configuration's work.
package enum CalibrationKind: String, Sendable, Hashable {
    /// A fixed single-threaded decode: for extraction, whole pipelines and peers.
    case decode
    /// A 64 MiB copy: for composition, which moves memory.
    case copy

    init(for key: ConfigurationKey) {
        self = key.phase == .compose ? .copy : .decode
    }

    /// The workload of a `calibration` row.
    init(calibrationRow row: RawResultRow) {
        self = row.kind == .calibrationCopy ? .copy : .decode
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
package enum WorkCounter: String, Sendable, Hashable, CaseIterable {
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
    package func tolerance(baseline: [RawResultRow], candidate: [RawResultRow]) -> Int {
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
package struct WorkChange: Sendable, Hashable {
    package var key: ConfigurationKey
    package var counter: WorkCounter
    package var baseline: ClosedRange<Int>
    package var candidate: ClosedRange<Int>
    /// `true` when the candidate does more of it: all its counts above the baseline's, or, for
    /// scheduled work, evidence that they are higher.
    package var grew: Bool
    /// `false` for a change that cannot fail the gate: scheduled work without evidence.
    package var gated = true
    /// The work was shared by several workers, so its counts move with the scheduling.
    package var scheduled = false

    package init(key: ConfigurationKey, counter: WorkCounter, baseline: ClosedRange<Int>, candidate: ClosedRange<Int>) {
        self.key = key
        self.counter = counter
        self.baseline = baseline
        self.candidate = candidate
        grew = candidate.lowerBound > baseline.upperBound
    }
}

/// The change of one configuration between baseline and candidate.
package struct ConfigurationComparison: Sendable {
    package var key: ConfigurationKey
    /// What was compared: the gate's metric, or one of the others (``RegressionGate/otherMetrics``).
    package var metric: Metric = .cpuSeconds
    /// Median of the baseline samples, in the metric's unit or, normalised, in calibrations.
    package var baselineMedian: Double
    /// Median of the candidate samples, in the same unit as ``baselineMedian``.
    package var candidateMedian: Double
    /// Pairs (paired) or the smaller run's sample count.
    package var count: Int
    /// Estimated candidate / baseline ratio: 1.10 means 10 % larger.
    package var ratio: Double
    package var ratioLow: Double
    package var ratioHigh: Double
    /// Exact coverage of the interval.
    package var coverage: Double
    package var verdict: Verdict
    /// The interval the verdict was decided on: paired, at the Bonferroni level of
    /// ``GateReport/decisionLevel``; separate runs, the interval above.
    package var decisionLow = 1.0
    package var decisionHigh = 1.0
    package var decisionCoverage = 0.0
    /// The calibration the samples were divided by; nil when not normalised.
    package var normalisedBy: CalibrationKind?
    /// For parallel pipelines in a normalised comparison: the ratio of raw times with its interval.
    package var unnormalised: (ratio: Double, low: Double, high: Double)?
    /// Paired time metrics: the e-values (``BettingEvidence``) that the ratio is above 1, below
    /// 1, and within the threshold; 1 (no evidence) elsewhere.
    package var evidenceGrew = 1.0
    package var evidenceShrank = 1.0
    package var evidenceWithin = 1.0
    /// Paired time metrics: the exact one-sided signed-rank p-values (``SignedRankTest``) of the
    /// same three questions, which a run with a fixed number of pairs is judged on; 1 elsewhere.
    package var pGrew = 1.0
    package var pShrank = 1.0
    package var pWithin = 1.0
    /// Whether the verdict counts towards the gate's outcome (a time gate judges each
    /// configuration's top-level phase; sub-phases are shown only).
    package var gated = true
    /// Instruction metric: the functions whose own counts moved most, largest first.
    package var attribution: [FunctionChange] = []
}

/// How the pairs of a two-build time run came to be, which decides how they may be judged.
package enum PairCollection: String, Sendable, Hashable {
    /// Every pair was planned (`bench --no-until-decided`, or `--until-decided` stopping at its
    /// first look): judged at that n by exact signed-rank tests (``SignedRankTest``).
    case fixed = "fixed_n"
    /// Pairs were added to the undecided configurations after looking (`bench --until-decided`):
    /// only anytime-valid evidence (``BettingEvidence``) keeps its level under such stopping.
    case addedByLooking = "added_by_looking"

    /// Read from the pairs when nothing records it: `--until-decided` adds pairs only to the
    /// configurations still undecided, so gated configurations with different numbers of pairs
    /// had pairs added by looking; equal numbers are a plan that ran as planned (or a first look
    /// that stopped it, where the fixed-n verdict at that n keeps its level too).
    static func of(_ gatedEntries: [ConfigurationComparison]) -> PairCollection {
        Set(gatedEntries.map(\.count)).count <= 1 ? .fixed : .addedByLooking
    }
}
