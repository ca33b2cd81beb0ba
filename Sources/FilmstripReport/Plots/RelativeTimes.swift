import FilmstripResults

/// One panel of times relative to a reference, by category and series: the peers (videos ×
/// tools, each relative to the fastest tool on its video, ``PeersChartData``) and the slider's
/// sessions (steps × configurations, relative to the standard strategy, ``InteractiveChartData``).
/// `plot` draws it with the categories along x and a colour per series (``CategoryPoints``), the
/// report as a dot chart of the same points in the same order (``HTMLReport/relativeChart(_:title:axisTitle:)``).
struct RelativeTimes {
    struct Point {
        var category: String
        var series: String
        /// The median and its 95 % interval over the reference's median.
        var ratio: PlotPoint
        /// The median wall time, in seconds.
        var seconds: Double
    }

    var title: String
    /// What the panel adds to its chart's file stem, e.g. `-exact-n10`.
    var stemSuffix: String
    var categories: [String]
    /// In name order; the series' colours follow it.
    var series: [String]
    /// Categories in order, each category's series in order; a pair not measured is absent.
    var points: [Point]

    /// `times[category][series]` in seconds over `reference(category, medians of the category)`; a category without a reference is left out.
    init(title: String, stemSuffix: String, categories: [String], times: [String: [String: [Double]]],
         reference: (String, [String: Double]) -> Double?) {
        var points: [Point] = []
        for category in categories {
            let medians = (times[category] ?? [:]).compactMapValues { PlotPoint(samples: $0) }
            guard let base = reference(category, medians.mapValues(\.median)), base > 0 else { continue }
            points += medians.keys.sorted().map { Point(category: category, series: $0, ratio: medians[$0]!.scaled(by: 1 / base), seconds: medians[$0]!.median) }
        }
        self.title = title
        self.stemSuffix = stemSuffix
        self.categories = categories.filter { category in points.contains { $0.category == category } }
        series = Set(points.map(\.series)).sorted()
        self.points = points
    }

    /// The gnuplot chart of the panel: categories along x, a series each.
    func chart(_ kind: ChartKind, stem: String, title: String, xLabel: String, yLabel: String, keyTitle: String) -> Chart {
        CategoryPoints(categories: categories, series: series,
                       values: categories.map { category in series.map { name in points.first { $0.category == category && $0.series == name }?.ratio } },
                       title: title, xLabel: xLabel, yLabel: yLabel, keyTitle: keyTitle).chart(kind, stem: stem + stemSuffix)
    }
}
