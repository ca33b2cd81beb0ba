import FilmstripResults
import Filmstrip

extension HTMLReport {
    /// The slider's sessions of each machine's latest run, as the other charts and `plot` draw them
    /// (rows of kind `interactive`, `bench --suite interactive`): per
    /// machine, video and N, a row per configuration with the medians over its sessions of
    /// what the user sees at each step, then the soak's leftovers. Empty without such rows.
    var interactiveSection: String {
        let interactive = currentRows.filter { $0.kind == .interactive && $0.status == .ok && $0.build != .baseline }
        guard !interactive.isEmpty else { return "" }
        var html = """
            <h2>Interactive: the trimming slider's sessions</h2>
            <p>Medians over the sessions: open (N across the clip), zoom into its second quarter, a drag of 20 \
            superseding requests 16 ms apart, zoom back (the cache's case), and the drag's last position asked \
            of a fresh generator (the cold reference for the drag's latency).</p>

            """
        func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : Quantile.median(values) }
        func cell(_ value: Double?, _ format: (Double) -> String = ReadableSeconds.text) -> String {
            "<td class=\"n\">\(value.map(format) ?? "—")</td>"
        }
        let severalMachines = Set(interactive.map(\.run.machine.name)).count > 1
        // Ordered as the chart's panels (``InteractiveChartData``): by machine, video, then N.
        let groups = Dictionary(grouping: interactive) { "\($0.run.machine.name)\u{0}\($0.video.id)\u{0}\($0.thumbnailCount)" }.values
            .sorted { ($0[0].run.machine.name, $0[0].video.id, $0[0].thumbnailCount) < ($1[0].run.machine.name, $1[0].video.id, $1[0].thumbnailCount) }
        for groupRows in groups {
            let first = groupRows[0]
            html += "<h3>\(severalMachines ? HTMLText.escape(first.run.machine.name) + ": " : "")\(HTMLText.escape(first.video.id)), N = \(first.thumbnailCount)</h3>\n"
            html += "<table><tr><th>configuration</th><th>open: first image</th><th>open: all</th><th>zoom-in: all</th>"
                + "<th>drag: p95 latency</th><th>cold single</th><th>drag p95 / cold</th><th>drag: wasted frames</th>"
                + "<th>zoom-back: all</th><th>zoom-back: cache hits</th></tr>\n"
            let sessions = groupRows.filter { $0.phase != .soak }
            // Named as the chart names them (``InteractiveChartData``).
            let labeler = ConfigurationLabeler(sessions.map(\.configurationKey))
            let configurations = Dictionary(grouping: sessions) { labeler.label($0.pipeline, for: $0.configurationKey) }
            for name in configurations.keys.sorted() {
                let steps = Dictionary(grouping: configurations[name]!, by: \.phase)
                func values(_ phase: Phase, _ value: (InteractiveMeasures) -> Double?) -> Double? {
                    median((steps[phase] ?? []).compactMap { $0.interactive.flatMap(value) })
                }
                let dragP95 = values(.drag) { $0.latencyP95Seconds }, cold = values(.coldSingle) { $0.allThumbnailsSeconds }
                html += "<tr><td>\(HTMLText.escape(name))</td>" + cell(values(.open) { $0.firstThumbnailSeconds })
                    + cell(values(.open) { $0.allThumbnailsSeconds }) + cell(values(.zoomIn) { $0.allThumbnailsSeconds })
                    + cell(dragP95) + cell(cold) + cell(dragP95.flatMap { p95 in cold.map { p95 / $0 } }, HTMLText.ratio)
                    + cell(values(.drag) { $0.wastedFrames.map(Double.init) }) { String(format: "%.0f", $0) }
                    + cell(values(.zoomBack) { $0.allThumbnailsSeconds })
                    + cell(values(.zoomBack) { $0.cacheHits.map(Double.init) }) { String(format: "%.0f", $0) } + "</tr>\n"
            }
            html += "</table>\n" + InteractiveChartData.panels(PlotSamples(rows: groupRows)).map {
                Self.relativeChart($0, title: $0.title, axisTitle: "step wall time / the reference's (log scale), dot median, line 95 % CI")
            }.joined()
            for soak in groupRows.filter({ $0.phase == .soak }).prefix(1) {
                let soaks = groupRows.filter { $0.phase == .soak }.compactMap(\.interactive)
                let growth = soaks.compactMap(\.residentGrowthBytes).map(Double.init)
                html += "<p>Soak (\(HTMLText.escape(soak.options[.requests] ?? "?")) superseding requests, \(soaks.count) run(s)): "
                    + "resident memory change \(median(growth).map { HTMLText.mebibytes($0) } ?? "—") (median), "
                    + "threads left \(soaks.compactMap(\.threadsLeft).max() ?? 0) and busy decoders \(soaks.compactMap(\.busyDecoders).max() ?? 0) at most.</p>\n"
            }
        }
        return html
    }
}
