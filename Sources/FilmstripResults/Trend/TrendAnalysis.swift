import Foundation

/// One executable's run in a history: a run id, and in a two-build run which build.
package struct TrendRun: Sendable, Hashable {
    package var runID: String
    package var build: BuildRole?
    /// ``RawResultRow/executableCommit`` when recorded, else the checkout's commit.
    package var commit: String
    /// When the run's first repetition finished (either build's: ``NewestRun/starts(of:)``).
    package var started: Date

    /// ``NewestRun``'s order, the one every reader uses (the run's start, then its id), then
    /// the baseline before the candidate of a two-build run.
    static func precedes(_ lhs: TrendRun, _ rhs: TrendRun) -> Bool {
        (lhs.started, lhs.runID, lhs.build == .candidate ? 1 : 0) < (rhs.started, rhs.runID, rhs.build == .candidate ? 1 : 0)
    }
}

/// A step in one configuration's history.
package struct TrendStep: Sendable, Hashable {
    /// The first run after the step.
    package var run: TrendRun
    /// The last run before it.
    package var previousRun: TrendRun
    /// Quantile.median(after) / Quantile.median(before) − 1 of the run medians on either side, up to the next steps.
    package var relativeChange: Double
    /// 95 % percentile-bootstrap interval of ``relativeChange``; for a step at the newest run
    /// alone, a 95 % interval from the runs' noise.
    package var low: Double
    package var high: Double
    /// The newest run judged alone against the runs since the last step (``TrendAnalysis/newestRunStep(_:series:changes:)``):
    /// E-divisive needs ``EDivisive/minimumSegment`` runs after a step, so it never sees one there.
    package var newestRunAlone = false
}

/// One configuration's runs on one machine and the steps found in them.
package struct ConfigurationTrend: Sendable {
    package var key: ConfigurationKey
    /// Median wall seconds per run, in run order; divided by each repetition's calibration
    /// when `normalised`.
    package var runs: [(run: TrendRun, median: Double)]
    /// True when every run's times were divided by the calibration of their repetition
    /// (decode for extraction and totals, copy for composition), as `compare` does with two
    /// files: a machine's slower day is then not a step.
    package var normalised = false
    package var steps: [TrendStep]

    /// The latest step made it slower, so the latest run sits on a step up.
    package var endsOnStepUp: Bool { (steps.last?.relativeChange ?? 0) > 0 }
}

/// The runs of one machine (same fingerprint id and build configuration) and their trends.
package struct MachineHistory: Sendable {
    package var machineID: String
    package var machineName: String
    package var buildConfiguration: String
    package var runs: [TrendRun]
    /// Empty when there are fewer runs than ``TrendAnalysis/minimumRuns``.
    package var trends: [ConfigurationTrend]
    /// Configurations of the newest run with fewer runs than ``TrendAnalysis/minimumRuns``:
    /// not searched, so their newest run is undecided.
    package var tooShort: [ConfigurationKey] = []
}

extension MachineHistory {
    /// The configurations whose newest run sits on a step up and that the gate would judge: a
    /// pipeline's `total`, not its `extract` and `compose` sub-phases (sub-millisecond phases
    /// whose timer noise the gate shows and never gates), nor a peer or calibration.
    package var gatedEndingOnStepUp: [ConfigurationTrend] {
        let keys = Set(trends.map(\.key))
        return trends.filter { $0.endsOnStepUp && RegressionGate.isGated($0.key, among: keys) }
    }
}

/// Finds when configurations got slower or faster across a series of runs.
package struct TrendAnalysis: Sendable {
    package var detector: EDivisive
    /// Fewest runs searched for a step: two segments of ``EDivisive/minimumSegment`` (6 at the
    /// defaults); a shorter history is undecided. From ``permutationSearchRuns`` on, E-divisive
    /// searches; below it, the one-step test of ``shortSeriesChange(_:)``.
    package var minimumRuns: Int { 2 * detector.minimumSegment }
    /// Fewest runs where E-divisive's permutation test can make any step significant
    /// (``EDivisive/shortestDecidableSeries``: 10 at the defaults).
    package var permutationSearchRuns: Int { detector.shortestDecidableSeries }
    /// Steps smaller than this (as a fraction) are not reported: noise a rerun would not repeat.
    package var minimumChange: Double
    package var bootstrapResamples = 1000

    package init(detector: EDivisive = EDivisive(), minimumChange: Double = 0.03) {
        self.detector = detector
        self.minimumChange = minimumChange
    }

    /// The histories in `rows` (successful timed repetitions only), one per machine, by machine name.
    package func histories(of rows: [RawResultRow]) -> [MachineHistory] {
        let timed = rows.filter { $0.status == .ok && $0.wallSeconds != nil }
        let byMachine = Dictionary(grouping: timed) { "\($0.run.machine.id)|\($0.run.machine.buildConfiguration)" }
        return byMachine.values.map(history).sorted { ($0.machineName, $0.machineID) < ($1.machineName, $1.machineID) }
    }

    /// The runs in `rows` (a run id, and in a two-build run each build apart), in order.
    package static func orderedRuns(of rows: [RawResultRow]) -> [TrendRun] {
        let starts = NewestRun.starts(of: rows)
        return Dictionary(grouping: rows) { RunKey($0) }.map { key, runRows in
            let first = runRows.min { $0.timestamp < $1.timestamp }!
            return TrendRun(
                runID: key.runID, build: key.build,
                commit: first.executableCommit.isEmpty ? first.run.gitCommit : first.executableCommit,
                started: starts[key.runID] ?? first.timestamp)
        }.sorted(by: TrendRun.precedes)
    }

    func history(of rows: [RawResultRow]) -> MachineHistory {
        let ordered = Self.orderedRuns(of: rows)
        let machine = rows[0].run.machine
        var trends: [ConfigurationTrend] = [], tooShort: [ConfigurationKey] = []
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
                guard series.count >= minimumRuns else {
                    if series.last?.position == ordered.count - 1 { tooShort.append(key) }
                    continue
                }
                var found = trend(of: key, series: series.map { (ordered[$0.position], $0.median) })
                found.normalised = normalised
                trends.append(found)
            }
        }
        return MachineHistory(
            machineID: machine.id, machineName: machine.name, buildConfiguration: machine.buildConfiguration,
            runs: ordered, trends: trends.sorted { $0.key < $1.key }, tooShort: tooShort.sorted())
    }

    /// The steps of one configuration's run medians; seeded from its ``ConfigurationKey/configID``
    /// so the same history always gives the same answer.
    package func trend(of key: ConfigurationKey, series: [(run: TrendRun, median: Double)]) -> ConfigurationTrend {
        var generator = SeededGenerator(seed: UInt64(key.configID, radix: 16) ?? 0)
        let medians = series.map(\.median)
        let changes = medians.count >= permutationSearchRuns ? detector.changePoints(in: medians, using: &generator)
            : shortSeriesChange(medians).map { [$0] } ?? []
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
        if let newest = newestRunStep(medians, series: series, changes: changes) { steps.append(newest) }
        return ConfigurationTrend(key: key, runs: series, steps: steps)
    }

    /// One step in a history too short for the permutation test (``minimumRuns`` up to
    /// ``permutationSearchRuns``: 6 to 9 runs at the defaults, where even a perfect step is
    /// matched by too many shuffles): the split, each side at least ``EDivisive/minimumSegment``
    /// runs, whose two-sample t statistic of the log medians (pooled variance, n − 2 degrees of
    /// freedom) is largest, kept when it passes Student's t at the detector's significance
    /// divided among the splits tried (Bonferroni), so a flat history with Gaussian noise shows
    /// a step with probability at most the significance. The run medians are each several
    /// repetitions' median, which makes them close to Gaussian; what it gives up against the
    /// permutation test is robustness to one wild run, which a history this short cannot afford.
    /// Returns the first run after the step.
    func shortSeriesChange(_ medians: [Double]) -> Int? {
        let segment = detector.minimumSegment, count = medians.count
        guard count >= 2 * segment, medians.allSatisfy({ $0 > 0 }) else { return nil }
        let logs = medians.map { Foundation.log($0) }
        let splits = Array(segment...(count - segment))
        let critical = StudentT.quantile(1 - detector.significance / (2 * Double(splits.count)), degrees: count - 2)
        var best: (split: Int, t: Double)?
        for split in splits {
            let before = logs[..<split], after = logs[split...]
            let meanBefore = before.reduce(0, +) / Double(before.count), meanAfter = after.reduce(0, +) / Double(after.count)
            let squares = before.map { ($0 - meanBefore) * ($0 - meanBefore) }.reduce(0, +) + after.map { ($0 - meanAfter) * ($0 - meanAfter) }.reduce(0, +)
            let scale = (squares / Double(count - 2) * (1 / Double(before.count) + 1 / Double(after.count))).squareRoot()
            let t = scale > 0 ? abs(meanAfter - meanBefore) / scale : (meanAfter == meanBefore ? 0 : .infinity)
            if t > (best?.t ?? 0) { best = (split, t) }
        }
        guard let best, best.t > critical else { return nil }
        return best.split
    }

    /// The newest run judged alone: the question CI asks, and one E-divisive cannot answer (it
    /// needs ``EDivisive/minimumSegment`` runs after a step). Its log median is compared with
    /// the runs since the last change point by a prediction interval: the centre is their
    /// median (m runs), the noise σ is 1.4826 × the median absolute difference between
    /// successive runs within each segment ÷ √2 (robust to outliers, blind to the steps),
    /// the standard error σ·√(1 + π/(2m)), and the bound Student's t at 1 − significance/2
    /// with half the differences as degrees of freedom (the median's estimate of σ is worth
    /// about half as many samples; 20,000 simulated flat histories of 8 to 40 runs with
    /// Gaussian noise: 0.6 to 1.1 % flagged in either direction at 0.01). A step is returned
    /// when the run is beyond the bound and at least ``minimumChange`` from the centre.
    func newestRunStep(_ medians: [Double], series: [(run: TrendRun, median: Double)], changes: [Int]) -> TrendStep? {
        let count = medians.count
        guard count >= 3, medians.allSatisfy({ $0 > 0 }) else { return nil }
        let logs = medians.map { Foundation.log($0) }
        let start = changes.last ?? 0
        let baseline = Array(medians[start..<(count - 1)])
        guard baseline.count >= 2 else { return nil }
        let bounds = [0] + changes + [count - 1]
        var differences: [Double] = []
        for (low, high) in zip(bounds, bounds.dropFirst()) where high - low >= 2 {
            for index in (low + 1)..<high { differences.append(abs(logs[index] - logs[index - 1])) }
        }
        guard differences.count >= 2 else { return nil }
        let sigma = SampleStatistics.madScale * Quantile.median(differences) / 2.0.squareRoot()
        let center = Quantile.median(Array(logs[start..<(count - 1)]))
        let shift = logs[count - 1] - center
        let relativeChange = medians[count - 1] / Quantile.median(baseline) - 1
        guard abs(relativeChange) >= minimumChange else { return nil }
        let standardError = sigma * (1 + Double.pi / (2 * Double(baseline.count))).squareRoot()
        let degrees = max(1, differences.count / 2)
        if standardError > 0 {
            guard abs(shift) / standardError > StudentT.quantile(1 - detector.significance / 2, degrees: degrees) else { return nil }
        }
        let margin = StudentT.quantile(0.975, degrees: degrees) * standardError
        return TrendStep(run: series[count - 1].run, previousRun: series[count - 2].run, relativeChange: relativeChange,
                         low: Foundation.exp(shift - margin) - 1, high: Foundation.exp(shift + margin) - 1, newestRunAlone: true)
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

    package struct RunKey: Hashable {
        package var runID: String
        package var build: BuildRole?

        package init(runID: String, build: BuildRole?) {
            self.runID = runID
            self.build = build
        }

        package init(_ run: TrendRun) { self.init(runID: run.runID, build: run.build) }

        package init(_ row: RawResultRow) { self.init(runID: row.run.runID, build: row.build) }
    }
}
