/// hyperfine's `--export-json` shape (`{"results": [...]}`), so tools that read hyperfine's
/// files read ours; `config_id` is added per result, and `unit` where the values are not seconds.
package struct HyperfineDocument: Encodable, Sendable {
    package var results: [Result]

    /// One configuration as hyperfine writes one command: times in seconds (instructions for
    /// an instruction run), summarised over the repetitions of its newest run.
    package struct Result: Encodable, Sendable {
        /// The configuration's export name (``ConfigurationKey/exportName``).
        package var command: String
        package var configID: String
        package var mean: Double
        /// Null when one run gives no spread, as hyperfine writes it.
        @NullWhenAbsent package var stddev: Double?
        package var median: Double
        /// Mean user and system CPU seconds, where the rows carry them.
        @NullWhenAbsent package var user: Double?
        @NullWhenAbsent package var system: Double?
        package var min: Double
        package var max: Double
        /// Each repetition's value, in repetition order.
        package var times: [Double]
        /// One 0 per repetition: only successful repetitions are exported.
        package var exitCodes: [Int]
        package var parameters: Parameters
        /// Not hyperfine's: an instruction run's numbers are instructions, which its shape cannot
        /// say; absent (not null) for times, so hyperfine's readers see hyperfine's keys only.
        package var unit: String?

        enum CodingKeys: String, CodingKey {
            case command, configID = "config_id", mean, stddev, median, user, system, min, max, times
            case exitCodes = "exit_codes", parameters, unit
        }

        init(_ configuration: ExportedConfiguration) {
            let statistics = configuration.statistics
            command = configuration.key.exportName
            configID = configuration.key.configID
            mean = statistics.mean
            stddev = statistics.count > 1 ? statistics.standardDeviation : nil
            median = statistics.median
            user = configuration.meanUserSeconds
            system = configuration.meanSystemSeconds
            min = statistics.min
            max = statistics.max
            times = configuration.values
            exitCodes = configuration.values.map { _ in 0 }
            parameters = Parameters(configuration)
            unit = configuration.measure == .wallSeconds ? nil : configuration.measure.unit
        }
    }

    /// hyperfine's `parameters`: every value a string, as its `--parameter-list` writes them.
    package struct Parameters: Encodable, Sendable {
        package var pipeline: String
        package var options: String
        package var videoID: String
        package var frameCount: String
        package var thumbWidth: String
        package var thumbHeight: String
        package var accuracy: String
        package var phase: String
        package var runID: String
        package var commit: String
        package var machine: String

        enum CodingKeys: String, CodingKey {
            case pipeline, options, videoID = "video_id", frameCount = "frame_count", thumbWidth = "thumb_width"
            case thumbHeight = "thumb_height", accuracy, phase, runID = "run_id", commit, machine
        }

        init(_ configuration: ExportedConfiguration) {
            let key = configuration.key
            pipeline = key.pipeline.description
            options = key.options.cell
            videoID = key.videoID
            frameCount = String(key.thumbnailCount)
            thumbWidth = String(key.thumbWidth)
            thumbHeight = String(key.thumbHeight)
            accuracy = key.accuracy.description
            phase = key.phase.rawValue
            runID = configuration.runID
            commit = configuration.commit
            machine = configuration.machineName
        }
    }
}

/// One measure of one benchmark in Bencher Metric Format: the value with its interval.
package struct BencherMetric: Encodable, Sendable {
    /// The median, and its 95 % order-statistic interval.
    package var value: Double
    package var lowerValue: Double
    package var upperValue: Double

    enum CodingKeys: String, CodingKey {
        case value, lowerValue = "lower_value", upperValue = "upper_value"
    }
}

/// One entry of github-action-benchmark's `customSmallerIsBetter` input.
package struct GitHubBenchmarkEntry: Encodable, Sendable {
    package var name: String
    /// `s`, or `instructions` for an instruction run.
    package var unit: String
    /// The median.
    package var value: Double
    /// `± HALF-WIDTH` of the median's interval, as text (the action shows it as given).
    package var range: String
    /// The configuration's id, sample size, interval, machine and commit, as text.
    package var extra: String
}
