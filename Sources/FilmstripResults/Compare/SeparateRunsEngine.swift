import Foundation

/// Two separate runs: each sample over its repetition's calibration (when both runs have
/// one), compared on the whole interval of the ratio (``RegressionGate/judgeSeparateRuns(_:_:scale:paths:report:)``).
struct SeparateRunsEngine: GateEngine {
    var gate: RegressionGate
    /// The two runs' files, for the messages.
    var paths: (baseline: String, candidate: String)

    func judge(baseline: [RawResultRow], candidate: [RawResultRow], into report: inout GateReport) {
        guard let scale = gate.separateRunsScale(baseline, candidate, report: &report) else { return }
        gate.judgeSeparateRuns(baseline, candidate, scale: scale, paths: paths, report: &report)
    }
}

extension RegressionGate {
    /// What two separate runs' samples are divided by: each repetition's own calibration, or nothing.
    enum SeparateRunsScale {
        case calibrated(baseline: CalibrationTable, candidate: CalibrationTable)
        /// Raw values: a metric that is not a time, or runs without calibration rows on one machine.
        case raw

        /// Each run's calibrations, when its samples are divided by them.
        var calibrations: (baseline: CalibrationTable, candidate: CalibrationTable)? {
            if case .calibrated(let baseline, let candidate) = self { (baseline, candidate) } else { nil }
        }
    }

    /// How two runs are compared: by their calibrations when the metric is a time (or throughput)
    /// and both runs have calibration rows, else raw, which only the same machine allows. Sets
    /// the report's form, warnings and calibration change; nil, with the outcome bad input, when
    /// runs of different machines cannot be calibrated.
    func separateRunsScale(_ baseline: [RawResultRow], _ candidate: [RawResultRow], report: inout GateReport) -> SeparateRunsScale? {
        let baselineMachines = Set(baseline.map(\.run.machine.name)), candidateMachines = Set(candidate.map(\.run.machine.name))
        let machines = "baseline \(baselineMachines.sorted().joined(separator: ",")), candidate \(candidateMachines.sorted().joined(separator: ","))"
        let sameMachine = Set(baseline.map(\.run.machine.id)) == Set(candidate.map(\.run.machine.id))
        let normalises = metric.isTime || metric == .thumbnailsPerSecond
        let baselineCalibration = CalibrationTable(baseline, metric: .wallSeconds)
        let candidateCalibration = CalibrationTable(candidate, metric: .wallSeconds)
        guard normalises, !baselineCalibration.isEmpty, !candidateCalibration.isEmpty else {
            guard sameMachine || !normalises else {
                report.outcome = .badInput("runs come from different machines (\(machines)) and do not both have calibration rows")
                return nil
            }
            report.warnings.append("separate runs compared without calibration rows: the verdicts include the difference in the machine's speed between the two runs")
            return .raw
        }
        report.form = .separateRuns(sameMachine: sameMachine)
        report.warnings.append((sameMachine ? "separate runs on the same machine kind" : "runs from different machines (\(machines))")
            + ": each time is divided by the calibration of its own repetition (decode for extraction, copy for composition); what the calibration does not capture of the day's machine speed is still in the verdicts. A two-build run (`bench --baseline-binary`) compared with `compare FILE` is not exposed to it")
        report.calibrationChange = calibrationChange(baselineCalibration, candidateCalibration)
        return .calibrated(baseline: baselineCalibration, candidate: candidateCalibration)
    }

    /// The configurations two separate runs share, each judged on its interval (``separateComparison``),
    /// with the failures, work changes and the outcome.
    func judgeSeparateRuns(_ baseline: [RawResultRow], _ candidate: [RawResultRow], scale: SeparateRunsScale,
                                   paths: (baseline: String, candidate: String), report: inout GateReport) {
        let calibrations = scale.calibrations
        let normalised = calibrations != nil
        let baselineSamples = samples(baseline, calibration: calibrations?.baseline)
        let candidateSamples = samples(candidate, calibration: calibrations?.candidate)
        let shared = Set(baselineSamples.keys).intersection(candidateSamples.keys)
            .filter { !normalised || $0.phase != .calibration }
        report.onlyInBaseline = Set(baselineSamples.keys).subtracting(candidateSamples.keys).sorted()
        report.onlyInCandidate = Set(candidateSamples.keys).subtracting(baselineSamples.keys).sorted()
        report.failures = ConfigurationFailure.between(baseline: baseline, candidate: candidate)
        guard !shared.isEmpty else {
            report.outcome = .badInput("\(paths.baseline) and \(paths.candidate): the runs have no configuration with \(metric.rawValue) samples in common")
            return
        }
        for key in shared.sorted() {
            let entry = separateComparison(key, before: baselineSamples[key]!, after: candidateSamples[key]!, normalised: normalised,
                                           warnings: &report.warnings)
            report.comparisons.append(entry)
        }
        report.workChanges = workChanges(baseline: baseline, candidate: candidate, paired: false)
        // Parallel work depends on the number of cores (workers per core), so counters gate only on equal machines.
        report.decideOutcome(gateOnWork: Set(baseline.map(\.run.machine.logicalCores)) == Set(candidate.map(\.run.machine.logicalCores)))
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
