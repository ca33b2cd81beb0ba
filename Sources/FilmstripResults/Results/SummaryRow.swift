/// Statistics of one metric of one configuration in one run: a row of the summary file.
package struct SummaryRow: ResultRecord, Hashable {
    package var runID: String
    package var gitCommit: String
    package var buildConfiguration: String
    package var machineID: String
    package var machineName: String
    package var configurationKey: ConfigurationKey
    package var metric: Metric
    /// Number of `ok` repetitions summarized.
    package var n: Int
    // The statistics below are in the unit of `metric`.
    package var min: Double
    package var median: Double
    package var mad: Double
    package var madScaled: Double
    package var p90: Double
    package var mean: Double
    package var stddev: Double
    package var ciLow: Double
    package var ciHigh: Double
    /// Exact coverage probability of `ciLow...ciHigh`.
    package var ciCoverage: Double
    package var warnings: [SampleWarning]

    /// The row for `statistics` of `metric` over the repetitions of `configurationKey` in `run`.
    package init(run: RunContext, configurationKey: ConfigurationKey, metric: Metric, statistics: SampleStatistics) {
        self.init(
            runID: run.runID, gitCommit: run.gitCommit, buildConfiguration: run.machine.buildConfiguration,
            machineID: run.machine.id, machineName: run.machine.name, configurationKey: configurationKey,
            metric: metric, n: statistics.count, min: statistics.min, median: statistics.median, mad: statistics.mad,
            madScaled: statistics.scaledMAD, p90: statistics.p90, mean: statistics.mean,
            stddev: statistics.standardDeviation, ciLow: statistics.medianCI.low, ciHigh: statistics.medianCI.high,
            ciCoverage: statistics.medianCI.coverage,
            warnings: statistics.warnings(shortRunThreshold: metric.isTime ? SampleWarning.shortRunSeconds : nil)
        )
    }

    package init(
        runID: String, gitCommit: String, buildConfiguration: String, machineID: String, machineName: String,
        configurationKey: ConfigurationKey, metric: Metric, n: Int, min: Double, median: Double, mad: Double,
        madScaled: Double, p90: Double, mean: Double, stddev: Double, ciLow: Double, ciHigh: Double,
        ciCoverage: Double, warnings: [SampleWarning]
    ) {
        self.runID = runID
        self.gitCommit = gitCommit
        self.buildConfiguration = buildConfiguration
        self.machineID = machineID
        self.machineName = machineName
        self.configurationKey = configurationKey
        self.metric = metric
        self.n = n
        self.min = min
        self.median = median
        self.mad = mad
        self.madScaled = madScaled
        self.p90 = p90
        self.mean = mean
        self.stddev = stddev
        self.ciLow = ciLow
        self.ciHigh = ciHigh
        self.ciCoverage = ciCoverage
        self.warnings = warnings
    }

    /// Summary rows of `rows` (one run's raw rows): one per configuration and
    /// metric that has at least one `ok` repetition measuring it, ordered by
    /// configuration then metric.
    package static func summarize(_ rows: [RawResultRow], metrics: [Metric] = Metric.allCases) -> [SummaryRow] {
        let groups = Dictionary(grouping: rows.filter { $0.status == .ok }, by: \.configurationKey)
        return groups.keys.sorted().flatMap { key -> [SummaryRow] in
            let group = groups[key]!.sorted { $0.repetition < $1.repetition }
            return metrics.compactMap { metric in
                SampleStatistics(group.compactMap(metric.value(in:))).map {
                    SummaryRow(run: group[0].run, configurationKey: key, metric: metric, statistics: $0)
                }
            }
        }
    }

    package func cell(_ column: SummaryColumn) -> String {
        let key = configurationKey
        return switch column {
        case .runID: runID
        case .gitCommit: gitCommit
        case .buildConfig: buildConfiguration
        case .machineID: machineID
        case .machineName: machineName
        case .pipeline: key.pipeline.description
        case .extractor: key.pipeline.extractor
        case .composer: key.pipeline.composer
        case .options: key.options.cell
        case .videoID: key.videoID
        case .thumbnailCount: Cell.text(key.thumbnailCount)
        case .thumbWidth: Cell.text(key.thumbWidth)
        case .thumbHeight: Cell.text(key.thumbHeight)
        case .accuracy: key.accuracy.description
        case .phase: key.phase.rawValue
        case .kind: key.kind.rawValue
        case .metric: metric.rawValue
        case .n: Cell.text(n)
        case .min: Cell.text(min)
        case .median: Cell.text(median)
        case .mad: Cell.text(mad)
        case .madScaled: Cell.text(madScaled)
        case .p90: Cell.text(p90)
        case .mean: Cell.text(mean)
        case .stddev: Cell.text(stddev)
        case .ciLow: Cell.text(ciLow)
        case .ciHigh: Cell.text(ciHigh)
        case .ciCoverage: Cell.text(ciCoverage)
        case .warnings: warnings.map(\.description).joined(separator: ";")
        }
    }

    package init(cells: (SummaryColumn) -> String) throws(CellError) {
        var warnings: [SampleWarning] = []
        for token in cells(.warnings).split(separator: ";") {
            guard let warning = SampleWarning(token: String(token)) else {
                throw CellError(column: SummaryColumn.warnings.rawValue, text: cells(.warnings))
            }
            warnings.append(warning)
        }
        self.init(
            runID: cells(.runID), gitCommit: cells(.gitCommit), buildConfiguration: cells(.buildConfig),
            machineID: cells(.machineID), machineName: cells(.machineName),
            configurationKey: ConfigurationKey(
                pipeline: PipelineName(pipeline: cells(.pipeline), extractor: cells(.extractor), composer: cells(.composer)),
                options: try Cell.options(SummaryColumn.options, cells(.options)),
                videoID: cells(.videoID),
                thumbnailCount: try Cell.int(SummaryColumn.thumbnailCount, cells(.thumbnailCount)),
                thumbWidth: try Cell.int(SummaryColumn.thumbWidth, cells(.thumbWidth)),
                thumbHeight: try Cell.int(SummaryColumn.thumbHeight, cells(.thumbHeight)),
                accuracy: try Cell.accuracy(SummaryColumn.accuracy, cells(.accuracy)),
                phase: try Cell.enumeration(SummaryColumn.phase, cells(.phase), as: Phase.self),
                kind: cells(.kind).isEmpty ? nil : try Cell.enumeration(SummaryColumn.kind, cells(.kind), as: RunKind.self)
            ),
            metric: try Cell.enumeration(SummaryColumn.metric, cells(.metric), as: Metric.self),
            n: try Cell.int(SummaryColumn.n, cells(.n)),
            min: try Cell.double(SummaryColumn.min, cells(.min)),
            median: try Cell.double(SummaryColumn.median, cells(.median)),
            mad: try Cell.double(SummaryColumn.mad, cells(.mad)),
            madScaled: try Cell.double(SummaryColumn.madScaled, cells(.madScaled)),
            p90: try Cell.double(SummaryColumn.p90, cells(.p90)),
            mean: try Cell.double(SummaryColumn.mean, cells(.mean)),
            stddev: try Cell.double(SummaryColumn.stddev, cells(.stddev)),
            ciLow: try Cell.double(SummaryColumn.ciLow, cells(.ciLow)),
            ciHigh: try Cell.double(SummaryColumn.ciHigh, cells(.ciHigh)),
            ciCoverage: try Cell.double(SummaryColumn.ciCoverage, cells(.ciCoverage)),
            warnings: warnings
        )
    }
}
