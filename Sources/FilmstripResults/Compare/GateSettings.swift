import Foundation

/// The metrics and threshold `bench --until-decided` decided on, kept beside its raw results file
/// (`NAME-gate.json` next to `NAME-raw.csv`), so `compare` of that file judges it the same way
/// without being told again. A sidecar, not columns: the raw file's schema and every file
/// written before stay as they are, and a file without one is judged at `compare`'s defaults.
package struct GateSettings: Sendable, Hashable, Codable {
    /// The run whose pairs were added under these settings (the raw file's `run_id`).
    package var runID: String
    /// The metrics judged, the first being the gate's ``RegressionGate/metric``.
    package var metrics: [Metric]
    /// Relative change treated as noise, e.g. 0.05.
    package var threshold: Double
    package var level: Double

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", metrics, threshold, level
    }

    package init(runID: String, gate: RegressionGate) {
        self.runID = runID
        metrics = gate.metrics
        threshold = gate.threshold
        level = gate.level
    }

    /// The gate these settings describe.
    package var gate: RegressionGate {
        var gate = RegressionGate(metric: metrics[0], threshold: threshold, level: level, otherMetrics: Array(metrics.dropFirst()))
        gate.pairCollection = .addedByLooking
        return gate
    }

    /// `NAME-gate.json` for `NAME-raw.csv`, else the raw file's path with `.gate.json` added.
    package static func path(besideRaw rawPath: String) -> String {
        rawPath.hasSuffix("-raw.csv") ? String(rawPath.dropLast("-raw.csv".count)) + "-gate.json" : rawPath + ".gate.json"
    }

    package func write(besideRaw rawPath: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: URL(fileURLWithPath: Self.path(besideRaw: rawPath)), options: .atomic)
    }

    /// The settings beside `rawPath`: nil when there is no such file; an error naming the file
    /// when it cannot be read or holds settings no gate can use.
    package static func read(besideRaw rawPath: String) throws(ResultsFileError) -> GateSettings? {
        let path = path(besideRaw: rawPath)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { throw .io(path: path, operation: "read the gate's settings", errno: EACCES) }
        let settings: GateSettings
        do {
            settings = try JSONDecoder().decode(GateSettings.self, from: data)
        } catch {
            throw .malformed(path: path, reason: "not the gate's settings (`bench --until-decided` writes run_id, metrics, threshold, level)")
        }
        guard !settings.metrics.isEmpty, settings.metrics.count <= Metric.allCases.count, settings.threshold > 0, settings.threshold < 1,
              settings.level > 0, settings.level < 1 else {
            throw .malformed(path: path, reason: "metrics \(settings.metrics.map(\.rawValue)), threshold \(settings.threshold), level \(settings.level): not a gate's settings")
        }
        return settings
    }
}
