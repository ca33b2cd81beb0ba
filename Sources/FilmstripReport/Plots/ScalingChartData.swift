import FilmstripResults

/// The scaling chart, once: one machine's lines of speed-up against workers (``ScalingChart/points``),
/// labelled by ``ConfigurationLabeler`` and in label order, each with its bound from the run's
/// CPU time, and the ideal line. The report draws it as SVG (``LineChart``) and `plot` as a
/// gnuplot script (``ScalingChart``) from this one data set.
struct ScalingChartData {
    static let boundLabel = "bound: CPU time over the cores"
    static let speedupAxis = "speed-up: one-worker median / median (95 % CI)"

    var cores: Int
    var lines: [(label: String, points: [ScalingChart.Point])]
    /// Every worker count measured, in increasing order.
    var workerCounts: [Int]
    var title: String

    /// One machine's rows; nil when no configuration was swept over workers.
    init?(_ rows: [RawResultRow]) {
        let points = ScalingChart.points(rows)
        guard !points.isEmpty, let cores = rows.first?.run.machine.logicalCores else { return nil }
        let label = ConfigurationLabeler(points.keys).fullLabel
        lines = points.map { (label($0.key), $0.value) }.sorted { $0.label < $1.label }
        self.cores = cores
        workerCounts = Set(points.values.flatMap { $0.map(\.workers) }).sorted()
        // One line: what it measured in the title, since its label names the pipeline only.
        let common = points.count == 1 ? points.keys.first.map { ": \($0.videoID) ×\($0.thumbnailCount) \($0.accuracy)" } ?? "" : ""
        title = "Speed-up against workers over one worker (\(cores) cores)\(common)"
    }

    var idealLabel: String { "ideal: min(workers, \(cores) cores)" }
}
