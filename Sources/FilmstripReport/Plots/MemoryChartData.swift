import FilmstripResults

/// The memory chart, once: one machine's peak resident memory (MiB, median and 95 % interval)
/// against the thumbnail count, for the video run at the most counts, a panel per accuracy mode
/// so that each holds a few lines. A line is a configuration without its count measured at two
/// counts or more, or the default pipeline wherever it was measured; lines are labelled by
/// ``ConfigurationLabeler``, in label order. The report draws it as SVG (``LineChart``) and
/// `plot` as gnuplot scripts (``MemoryChart``) from this one data set.
struct MemoryChartData {
    struct Line {
        /// The label, `(default)` after the default pipeline's.
        var label: String
        /// Peak RSS in MiB per thumbnail count.
        var points: [Int: PlotPoint]
    }

    struct Panel {
        var accuracy: RowAccuracy
        var lines: [Line]
        /// Configurations of the panel measured at one count only, not drawn.
        var leftOut: Int
    }

    var video: String
    var panels: [Panel]

    /// One machine's rows; nil when no configuration has peak RSS of phase total at two counts or more.
    init?(_ rows: [RawResultRow]) {
        func lineKey(_ row: RawResultRow) -> ConfigurationKey { CountLines.lineKey(row.configurationKey) }
        let measured = rows.filter { $0.status == .ok && $0.phase == .total && $0.peakRSSBytes != nil }
        // Configurations at one count make no line: the video is chosen among those that do.
        let countsPerLine = Dictionary(grouping: measured, by: lineKey).mapValues { Set($0.map(\.thumbnailCount)).count }
        let onLines = measured.filter { countsPerLine[lineKey($0)]! >= 2 }
        // The video with the most counts, so its lines have the most points; ties to the first by name.
        let countsByVideo = Dictionary(grouping: onLines, by: \.video.id).mapValues { Set($0.map(\.thumbnailCount)).count }
        guard let video = countsByVideo.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else { return nil }
        self.video = video
        let videoRows = measured.filter { $0.video.id == video }
        panels = Set(videoRows.map(\.accuracy)).sorted().compactMap { accuracy in
            let panelRows = videoRows.filter { $0.accuracy == accuracy }
            let label = ConfigurationLabeler(panelRows.map(lineKey)).fullLabel
            var mebibytes: [String: [Int: [Double]]] = [:]
            for row in panelRows {
                let name = label(lineKey(row)) + (HTMLReport.isDefault(row.configurationKey) ? " (default)" : "")
                mebibytes[name, default: [:]][row.thumbnailCount, default: []].append(Double(row.peakRSSBytes!) / 1_048_576)
            }
            let drawn = mebibytes.keys.sorted().filter { mebibytes[$0]!.count >= 2 || $0.hasSuffix(" (default)") }
            guard drawn.contains(where: { mebibytes[$0]!.count >= 2 }) else { return nil }
            return Panel(accuracy: accuracy, lines: drawn.map { Line(label: $0, points: mebibytes[$0]!.compactMapValues { PlotPoint(samples: $0) }) },
                         leftOut: mebibytes.count - drawn.count)
        }
    }

    /// The panel's title: what it draws.
    func title(_ panel: Panel) -> String { "Peak resident memory against thumbnail count: video \(video), \(panel.accuracy)" }
}
