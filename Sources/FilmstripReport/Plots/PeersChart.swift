import FilmstripResults
/// Chart 6: filmstrip against the peers (the ffmpeg CLI, ffmpegthumbnailer, the decode
/// floors), whole processes: one chart per panel of ``PeersChartData`` (accuracy mode and
/// thumbnail count), the videos along x and each tool's time relative to the fastest tool on
/// that video, log scale.
enum PeersChart {
    static func make(_ samples: PlotSamples, machine: String, stem: String) -> [ChartOutcome] {
        let panels = PeersChartData.panels(samples)
        guard !panels.isEmpty else {
            return [.skipped(.peers, reason: "no peer rows for machine \(machine) (bench --peers adds them)")]
        }
        return panels.map { panel in
            .chart(panel.chart(.peers, stem: stem, title: "\(panel.title), machine \(machine)", xLabel: "video",
                               yLabel: "wall time / fastest tool on the video (log scale; 95 % CI)", keyTitle: "tool"))
        }
    }
}
