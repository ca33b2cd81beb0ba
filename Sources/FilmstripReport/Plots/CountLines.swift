import FilmstripResults
/// What the charts against the thumbnail count share: the line a configuration belongs to
/// (itself without its count), and the gnuplot data and script of lines on a log count axis.
enum CountLines {
    /// `key` without its count: what the points of one line share.
    static func lineKey(_ key: ConfigurationKey) -> ConfigurationKey {
        var key = key
        key.thumbnailCount = 0
        return key
    }

    /// One data block per line in `labels` order, separated by two blank lines so that the
    /// script's `index i` selects it: a `# LABEL: frame count, COLUMNS` header, then a row per
    /// count in increasing order with the point's median and interval.
    static func data(_ points: [String: [Int: PlotPoint]], labels: [String], columns: String) -> String {
        labels.map { label in
            var block = "# \(label): frame count, \(columns)\n"
            for (count, point) in points[label]!.sorted(by: { $0.key < $1.key }) {
                block += "\(count) \(point.columns)\n"
            }
            return block
        }.joined(separator: "\n\n")
    }

    /// The chart: `axes` (scales and grid commands), the legend below (headed `keyTitle`), the titles, and
    /// `plots`, one clause per line; taller by a legend row for every two lines. `yLabel` is
    /// the chart's own text (no data in it), written double-quoted.
    static func chart(_ kind: ChartKind, stem: String, title: String, data: String, axes: String, yLabel: String,
                      plots: [String], keyTitle: String = "pipeline") -> Chart {
        let body = """
            \(axes)
            set key below left Left reverse title \(PlotText.scriptString(keyTitle))
            set title \(PlotText.scriptString(title))
            set xlabel "thumbnails per strip, N (log scale)"
            set ylabel "\(yLabel)"
            plot \(plots.joined(separator: ", \\\n     "))
            """
        return Chart(kind: kind, stem: stem, title: title, data: data, body: body, height: 500 + 20 * ((plots.count + 1) / 2))
    }
}
