import FilmstripFixtures
import Foundation

/// One executable's run in a history: a run id, and in a two-build run which build.
public struct TrendRun: Sendable, Hashable {
    public var runID: String
    public var build: BuildRole?
    /// ``RawResultRow/executableCommit`` when recorded, else the checkout's commit.
    public var commit: String
    /// When the run's first repetition finished.
    public var started: Date

    /// Time first, then commit, then the baseline before the candidate of a two-build run.
    static func precedes(_ lhs: TrendRun, _ rhs: TrendRun) -> Bool {
        (lhs.started, lhs.commit, lhs.runID, lhs.build == .candidate ? 1 : 0)
            < (rhs.started, rhs.commit, rhs.runID, rhs.build == .candidate ? 1 : 0)
    }
}

/// A step in one configuration's history.
public struct TrendStep: Sendable, Hashable {
    /// The first run after the step.
    public var run: TrendRun
    /// The last run before it.
    public var previousRun: TrendRun
    /// Quantile.median(after) / Quantile.median(before) − 1 of the run medians on either side, up to the next steps.
    public var relativeChange: Double
    /// 95 % percentile-bootstrap interval of ``relativeChange``.
    public var low: Double
    public var high: Double
}

/// One configuration's runs on one machine and the steps found in them.
public struct ConfigurationTrend: Sendable {
    public var key: ConfigurationKey
    /// Median wall seconds per run, in run order; divided by each repetition's calibration
    /// when `normalised`.
    public var runs: [(run: TrendRun, median: Double)]
    /// True when every run's times were divided by the calibration of their repetition
    /// (decode for extraction and totals, copy for composition), as `compare` does with two
    /// files: a machine's slower day is then not a step.
    public var normalised = false
    public var steps: [TrendStep]

    /// The latest step made it slower, so the latest run sits on a step up.
    public var endsOnStepUp: Bool { (steps.last?.relativeChange ?? 0) > 0 }
}

/// The runs of one machine (same fingerprint id and build configuration) and their trends.
public struct MachineHistory: Sendable {
    public var machineID: String
    public var machineName: String
    public var buildConfiguration: String
    public var runs: [TrendRun]
    /// Empty when there are fewer runs than ``TrendAnalysis/minimumRuns``.
    public var trends: [ConfigurationTrend]
}

/// Finds when configurations got slower or faster across a series of runs.
public struct TrendAnalysis: Sendable {
    public var detector: EDivisive
    /// Fewest runs for a search: two segments of ``EDivisive/minimumSegment`` each.
    public var minimumRuns: Int { 2 * detector.minimumSegment }
    /// Steps smaller than this (as a fraction) are not reported: noise a rerun would not repeat.
    public var minimumChange: Double
    public var bootstrapResamples = 1000

    public init(detector: EDivisive = EDivisive(), minimumChange: Double = 0.03) {
        self.detector = detector
        self.minimumChange = minimumChange
    }

    /// The histories in `rows` (successful timed repetitions only), one per machine, by machine name.
    public func histories(of rows: [RawResultRow]) -> [MachineHistory] {
        let timed = rows.filter { $0.status == .ok && $0.wallSeconds != nil }
        let byMachine = Dictionary(grouping: timed) { "\($0.run.machine.id)|\($0.run.machine.buildConfiguration)" }
        return byMachine.values.map(history).sorted { ($0.machineName, $0.machineID) < ($1.machineName, $1.machineID) }
    }

    /// The runs in `rows` (a run id, and in a two-build run each build apart), in order.
    static func orderedRuns(of rows: [RawResultRow]) -> [TrendRun] {
        Dictionary(grouping: rows) { RunKey($0) }.map { key, runRows in
            let first = runRows.min { $0.timestamp < $1.timestamp }!
            return TrendRun(
                runID: key.runID, build: key.build,
                commit: first.executableCommit.isEmpty ? first.run.gitCommit : first.executableCommit,
                started: first.timestamp)
        }.sorted(by: TrendRun.precedes)
    }

    func history(of rows: [RawResultRow]) -> MachineHistory {
        let ordered = Self.orderedRuns(of: rows)
        let machine = rows[0].run.machine
        var trends: [ConfigurationTrend] = []
        if ordered.count >= minimumRuns {
            let position = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { (RunKey($1), $0) })
            let calibration = CalibrationTable(rows, metric: .wallSeconds)
            for (key, keyRows) in Dictionary(grouping: rows, by: \.configurationKey) {
                // Each time over its repetition's calibration where every row has one, so that a
                // day on which the whole machine ran slower is not taken for a step of the code;
                // the calibrations themselves measure the day, not the code, and are left out.
                let calibrated = keyRows.map { row in row.wallSeconds.flatMap { wall in
                    calibration.seconds(CalibrationKind(for: key), row: row).map { wall / $0 } } }
                let normalised = !calibration.isEmpty && calibrated.allSatisfy { $0 != nil }
                if normalised && key.phase == .calibration { continue }
                let values = normalised ? calibrated.map { $0! } : keyRows.map { $0.wallSeconds! }
                let samplesByRun = Dictionary(grouping: zip(keyRows, values)) { RunKey($0.0) }
                let series = samplesByRun.map { runKey, samples in
                    (position: position[runKey]!, median: Quantile.median(samples.map(\.1)))
                }.sorted { $0.position < $1.position }
                guard series.count >= minimumRuns else { continue }
                var found = trend(of: key, series: series.map { (ordered[$0.position], $0.median) })
                found.normalised = normalised
                trends.append(found)
            }
        }
        return MachineHistory(
            machineID: machine.id, machineName: machine.name, buildConfiguration: machine.buildConfiguration,
            runs: ordered, trends: trends.sorted { $0.key < $1.key })
    }

    /// The steps of one configuration's run medians; seeded from its ``ConfigurationKey/configID``
    /// so the same history always gives the same answer.
    public func trend(of key: ConfigurationKey, series: [(run: TrendRun, median: Double)]) -> ConfigurationTrend {
        var generator = SeededGenerator(seed: UInt64(key.configID, radix: 16) ?? 0)
        let medians = series.map(\.median)
        let changes = detector.changePoints(in: medians, using: &generator)
        let boundaries = [0] + changes + [medians.count]
        var steps: [TrendStep] = []
        for (index, change) in changes.enumerated() {
            let before = Array(medians[boundaries[index]..<change])
            let after = Array(medians[change..<boundaries[index + 2]])
            let relativeChange = Quantile.median(after) / Quantile.median(before) - 1
            guard abs(relativeChange) >= minimumChange else { continue }
            let interval = bootstrapInterval(before: before, after: after, using: &generator)
            steps.append(TrendStep(run: series[change].run, previousRun: series[change - 1].run,
                                   relativeChange: relativeChange, low: interval.low, high: interval.high))
        }
        return ConfigurationTrend(key: key, runs: series, steps: steps)
    }

    /// 2.5 and 97.5 percentiles of Quantile.median(after*)/Quantile.median(before*) − 1 over resamples of each side.
    func bootstrapInterval(before: [Double], after: [Double], using generator: inout some RandomNumberGenerator) -> (low: Double, high: Double) {
        var ratios: [Double] = []
        ratios.reserveCapacity(bootstrapResamples)
        for _ in 0..<bootstrapResamples {
            let resampledBefore = before.indices.map { _ in before.randomElement(using: &generator)! }
            let resampledAfter = after.indices.map { _ in after.randomElement(using: &generator)! }
            ratios.append(Quantile.median(resampledAfter) / Quantile.median(resampledBefore) - 1)
        }
        ratios.sort()
        let lowIndex = Int((Double(ratios.count - 1) * 0.025).rounded())
        let highIndex = Int((Double(ratios.count - 1) * 0.975).rounded())
        return (ratios[lowIndex], ratios[highIndex])
    }

    struct RunKey: Hashable {
        var runID: String
        var build: BuildRole?

        init(runID: String, build: BuildRole?) {
            self.runID = runID
            self.build = build
        }

        init(_ run: TrendRun) { self.init(runID: run.runID, build: run.build) }

        init(_ row: RawResultRow) { self.init(runID: row.run.runID, build: row.build) }
    }
}
