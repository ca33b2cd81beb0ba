import FilmstripResults

/// Chart 1: wall time per configuration relative to the fastest at its request, one chart per
/// video (``FastestChartData``, the report's chart of the fastest pipelines): every count the
/// video was measured at (a colour each), the configurations fastest first, whiskers at the
/// 95 % CI of the median, log scale. Phase `total` (extract + compose), else `extract`.
enum TimePerPipelineChart {
    static func make(_ rows: [RawResultRow], machine: String, stem: String) -> [ChartOutcome] {
        let measured = rows.filter { $0.status == .ok && $0.wallSeconds != nil }
        guard let phase = [Phase.total, .extract].first(where: { phase in measured.contains { $0.phase == phase } }) else {
            return [.skipped(.timePerPipeline, reason: "no rows with phase total or extract for machine \(machine)")]
        }
        let panels = FastestChartData(FastestChartData.requests(measured.filter { $0.phase == phase })).panels
        return panels.map { panel in
            let chart = CategoryPoints(
                categories: panel.rows.map(\.label), series: panel.requests,
                values: panel.rows.map { row in panel.requests.indices.map { $0 == row.request ? row.ratio : nil } },
                title: "Wall time over the fastest at each N: video \(panel.video), phase \(phase.rawValue), machine \(machine)",
                xLabel: "configuration, fastest first at each N (★ the default pipeline)",
                yLabel: "wall time / fastest median at that N (log scale; 95 % CI)", keyTitle: "N, mode")
            return .chart(chart.chart(.timePerPipeline, stem: panels.count == 1 ? stem : "\(stem)-\(PlotText.fileStem(panel.video))"))
        }
    }
}
