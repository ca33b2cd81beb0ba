import Foundation

/// The formats `filmstrip export` and `bench --export` write.
package enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// hyperfine's `--export-json` shape: `{"results": [{command, mean, stddev, median, user,
    /// system, min, max, times, exit_codes, parameters}]}`, with `config_id` added per result.
    case json
    /// Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}`
    /// (https://bencher.dev/docs/reference/bencher-metric-format), measure `latency` in ns.
    case bmf
    /// github-action-benchmark's `customSmallerIsBetter` input: `[{name, unit, value, range, extra}]`.
    case githubBenchmark = "github-benchmark"
    /// A markdown table per video and phase, fastest first.
    case markdown
    /// A markdown table of the default pipeline's figures beside their bound (``BoundsTable``).
    case bounds
}

/// What an export's values are: the wall time of a timed run, or the instructions of a run
/// measured under callgrind (`bench --measure instructions`, which times nothing).
package enum ExportMeasure: String, Sendable, Hashable {
    case wallSeconds = "s"
    case instructions

    /// The unit as the exported files name it.
    package var unit: String { rawValue }

    /// A value with its unit, three significant figures: `12.3 ms`, `114 M instructions`.
    func text(_ value: Double) -> String {
        switch self {
        case .wallSeconds: ReadableSeconds.text(value)
        case .instructions:
            value >= 1e9 ? String(format: "%.3g G instructions", value / 1e9)
                : value >= 1e6 ? String(format: "%.3g M instructions", value / 1e6) : String(format: "%.0f instructions", value)
        }
    }
}

/// One configuration's repetitions from one run, summarised for export.
package struct ExportedConfiguration: Sendable {
    package var key: ConfigurationKey
    package var runID: String
    /// ``RawResultRow/executableCommit`` when recorded, else the checkout's commit.
    package var commit: String
    package var machineName: String
    /// What ``values`` measure: wall seconds, or instructions of an instruction run.
    package var measure: ExportMeasure = .wallSeconds
    /// Each repetition's value in ``measure``'s unit, in repetition order.
    package var values: [Double]
    package var statistics: SampleStatistics
    package var meanUserSeconds: Double?
    package var meanSystemSeconds: Double?
    /// Median of the repetitions' `bound_s`; nil when the rows carry no bound.
    package var medianBoundSeconds: Double? = nil
}

/// Turns a raw results file's rows into the export formats.
package enum ResultsExport {
    /// The configurations of `rows` with at least one successful timed repetition, in key order;
    /// for a file measured under callgrind, which times nothing, their instruction counts.
    /// For each configuration only its newest run's rows count (``NewestRun``: a file may hold
    /// several runs of different commits); in a two-build run only the candidate's.
    package static func configurations(from rows: [RawResultRow]) -> [ExportedConfiguration] {
        let hasCandidate = rows.contains { $0.build == .candidate }
        let candidate = NewestRun.rows(rows).filter { $0.status == .ok && (!hasCandidate || $0.build == .candidate) }
        let measure: ExportMeasure = candidate.contains { $0.wallSeconds != nil } || !candidate.contains { $0.instructions != nil }
            ? .wallSeconds : .instructions
        let value = { (row: RawResultRow) -> Double? in measure == .wallSeconds ? row.wallSeconds : row.instructions.map(Double.init) }
        let timed = candidate.filter { value($0) != nil }
        var result: [ExportedConfiguration] = []
        for (key, keyRows) in Dictionary(grouping: timed, by: \.configurationKey) {
            let latestRun = keyRows[0].run.runID
            let runRows = keyRows.sorted { $0.repetition < $1.repetition }
            let times = runRows.compactMap(value)
            guard let statistics = SampleStatistics(times) else { continue }
            let first = runRows[0]
            result.append(ExportedConfiguration(
                key: key, runID: latestRun,
                commit: first.executableCommit.isEmpty ? first.run.gitCommit : first.executableCommit,
                machineName: first.run.machine.name, measure: measure, values: times, statistics: statistics,
                meanUserSeconds: mean(runRows.compactMap(\.cpuUserSeconds)),
                meanSystemSeconds: mean(runRows.compactMap(\.cpuSysSeconds)),
                medianBoundSeconds: SampleStatistics(runRows.compactMap(\.bound?.boundSeconds))?.median))
        }
        return result.sorted { $0.key < $1.key }
    }

    /// The text of `configurations` in `format`.
    /// Throws when a value cannot be JSON (a non-finite time read from a hand-edited file).
    package static func render(_ configurations: [ExportedConfiguration], as format: ExportFormat) throws -> String {
        if format == .bounds, configurations.contains(where: { $0.measure != .wallSeconds }) { throw ExportError.boundsNeedTimes }
        return switch format {
        case .json: try json(hyperfine(configurations))
        case .bmf: try json(bencherMetricFormat(configurations))
        case .githubBenchmark: try json(githubBenchmark(configurations))
        case .markdown: markdown(configurations)
        case .bounds: BoundsTable.markdown(configurations)
        }
    }

    static func hyperfine(_ configurations: [ExportedConfiguration]) -> HyperfineDocument {
        HyperfineDocument(results: configurations.map(HyperfineDocument.Result.init))
    }

    /// Bencher's built-in measures: `latency` in nanoseconds, `instructions` as counted.
    static func bencherMetricFormat(_ configurations: [ExportedConfiguration]) -> [String: [String: BencherMetric]] {
        var benchmarks: [String: [String: BencherMetric]] = [:]
        for configuration in configurations {
            let statistics = configuration.statistics
            let (measure, scale) = configuration.measure == .wallSeconds ? ("latency", 1e9) : ("instructions", 1.0)
            benchmarks[configuration.key.exportName] = [
                measure: BencherMetric(value: statistics.median * scale, lowerValue: statistics.medianCI.low * scale,
                                       upperValue: statistics.medianCI.high * scale),
            ]
        }
        return benchmarks
    }

    static func githubBenchmark(_ configurations: [ExportedConfiguration]) -> [GitHubBenchmarkEntry] {
        configurations.map { configuration in
            let statistics = configuration.statistics
            let halfWidth = max(statistics.medianCI.high - statistics.median, statistics.median - statistics.medianCI.low)
            return GitHubBenchmarkEntry(
                name: configuration.key.exportName,
                unit: configuration.measure.unit,
                value: statistics.median,
                range: "± \(seconds(halfWidth))",
                extra: "config_id \(configuration.key.configID); median of \(statistics.count); "
                    + "95% CI [\(seconds(statistics.medianCI.low)), \(seconds(statistics.medianCI.high))]; "
                    + "machine \(configuration.machineName); commit \(configuration.commit.prefix(12))")
        }
    }

    static func markdown(_ configurations: [ExportedConfiguration]) -> String {
        var lines: [String] = []
        let groups = Dictionary(grouping: configurations) { "\($0.key.videoID) · \($0.key.phase.rawValue)" }
        for title in groups.keys.sorted() {
            let ranked = groups[title]!.sorted { $0.statistics.median < $1.statistics.median }
            let fastest = ranked[0]
            let text = fastest.measure.text
            let least = fastest.measure == .wallSeconds ? "fastest" : "fewest instructions"
            lines.append("### \(MarkdownText.escaped(title)): \(least) \(MarkdownText.escaped(fastest.key.shortName)) at \(text(fastest.statistics.median))")
            lines.append("")
            lines.append("| rank | config_id | configuration | median | 95% CI | × \(least) | n |")
            lines.append("|---:|---|---|---:|---|---:|---:|")
            for (index, configuration) in ranked.enumerated() {
                let statistics = configuration.statistics
                let name = MarkdownText.escaped(configuration.key.shortName)
                let ratio = statistics.median / fastest.statistics.median
                // Times with their unit, three significant figures (`95.0 µs`), never in e-notation.
                lines.append("| \(index + 1) | `\(configuration.key.configID)` | \(name) | \(text(statistics.median)) | "
                    + "\(text(statistics.medianCI.low)) – \(text(statistics.medianCI.high)) | "
                    + "\(String(format: "%.2f", ratio)) | \(statistics.count) |")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// Four significant digits: enough to tell configurations apart, short enough to read.
    static func seconds(_ value: Double) -> String { String(format: "%.4g", value) }

    static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    static func json(_ document: some Encodable) throws(ExportError) -> String {
        do {
            return try JSONText.encoded(document) + "\n"
        } catch {
            // The encoder's only refusal here: a non-finite number.
            throw ExportError.notRepresentable
        }
    }
}

/// Why an export could not be written.
package enum ExportError: Error, Sendable, CustomStringConvertible {
    /// A value (e.g. a time of `nan`) has no JSON form.
    case notRepresentable
    /// The file holds no successful timed repetition (nor instruction count) to export.
    case nothingToExport
    /// The bounds table compares times with their bound; an instruction run has none.
    case boundsNeedTimes

    package var description: String {
        switch self {
        case .notRepresentable: "a value in the file (e.g. a non-finite time) has no JSON form"
        case .nothingToExport: "no successful timed repetition or instruction count to export"
        case .boundsNeedTimes: "the bounds table needs times; an instruction run exports as json, bmf, github-benchmark or markdown"
        }
    }
}
