import FilmstripResults
/// The charts `filmstrip plot` draws, named by their file stem.
package enum ChartKind: String, Sendable, Hashable, CaseIterable {
    /// Wall time per pipeline, one bar per reference video (phase `total`, else `extract`).
    case timePerPipeline = "time-per-pipeline"
    /// Wall time against the number of thumbnails, one line per pipeline, log-log.
    case timeVersusFrameCount = "time-vs-frame-count"
    /// Composition throughput in GB/s of strip bytes per composer, with the memcpy floor.
    case compositionThroughput = "composition-throughput"
    /// Speed-up against workers with the ideal line and the bound from the runs' CPU time.
    case scaling = "scaling"
    /// The same configurations on each machine, side by side.
    case machineComparison = "machine-comparison"
    /// filmstrip against the ffmpeg CLI and ffmpegthumbnailer, per mode and thumbnail count.
    case peers = "peers"
    /// Peak resident memory against the number of thumbnails, one line per pipeline.
    case memory = "memory-vs-frame-count"
    /// The regression gate's candidate / baseline ratios with intervals and the threshold band.
    case gate = "gate"
    /// The slider's session steps per configuration against the standard strategy (`bench --suite interactive`).
    case interactive = "interactive-sessions"
}

/// A chart ready for gnuplot: its data file and the part of its script after the terminal set-up.
struct Chart: Sendable {
    var kind: ChartKind
    /// File stem of the `.dat`, `.gp`, `.svg` and `.png` files, e.g. `time-per-pipeline-xeon-2c`.
    var stem: String
    var title: String
    /// Whitespace-separated columns; strings double-quoted (see `PlotText.dataString`).
    var data: String
    /// gnuplot commands that draw from `\(stem).dat`.
    var body: String
    /// Image size in pixels (PNG) or points (SVG), wide enough for the chart's labels.
    var width: Int = 1100
    var height: Int = 620
}

/// Either a chart, or the reason it cannot be drawn from the data given.
enum ChartOutcome: Sendable {
    case chart(Chart)
    case skipped(ChartKind, reason: String)
}

/// Commands every bar chart shares: clustered bars with the 95 % CI of the median as whiskers.
enum BarStyle {
    static let commands = """
        set style data histogram
        set style histogram errorbars gap 2 lw 1
        set style fill solid 0.75 border -1
        set boxwidth 0.9
        set grid ytics
        set yrange [0:*]
        set xtics rotate by -35 left nomirror
        set key outside right top
        """
}
