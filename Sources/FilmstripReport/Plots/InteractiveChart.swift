import FilmstripResults

/// The slider's sessions (rows of kind `interactive`): one chart per panel of
/// ``InteractiveChartData`` (video and thumbnail count), the session's steps along x and each
/// configuration's step time relative to the standard strategy's, log scale. Nothing when
/// there are no interactive rows, so strip runs list no skipped chart for it.
enum InteractiveChart {
    static func make(_ samples: PlotSamples, machine: String, stem: String) -> [ChartOutcome] {
        InteractiveChartData.panels(samples).map { panel in
            .chart(panel.chart(.interactive, stem: stem, title: "\(panel.title), machine \(machine)", xLabel: "session step",
                               yLabel: "step time / \(InteractiveChartData.referenceName) (log; 95 % CI)", keyTitle: "configuration"))
        }
    }
}
