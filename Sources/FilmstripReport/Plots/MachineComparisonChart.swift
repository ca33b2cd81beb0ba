import FilmstripResults
/// Chart 4: the configurations run on two or more machines, as a dot plot in small multiples:
/// one panel per video, one row per pipeline and thumbnail count, one dot per machine (median
/// wall time with its 95 % interval as a horizontal bar), on an axis of time fitted to the
/// intervals: log where they span a decade or more, linear within one.
///
/// Wall time, not time divided by each machine's calibration: the chart answers "how much
/// sooner does the other machine finish, and does the order of the pipelines change?", and a
/// single-threaded calibration hides what more cores give. A log scale makes equal ratios equal
/// distances, so a 4× speed-up looks the same at 10 ms and at 10 s (on a linear scale most dots
/// of a suite that spans 1 ms to 30 s sit on the axis); within one decade a log axis has hardly
/// a tic, and a linear one reads better. Labels are horizontal, beside their rows.
enum MachineComparisonChart {
    /// Panels side by side; more videos wrap onto further rows of panels.
    static let columns = 2
    static let rowHeight = 17
    static let panelPadding = 90

    static func make(_ samples: PlotSamples, stem: String) -> ChartOutcome {
        let machines = samples.machines
        guard machines.count >= 2 else {
            return .skipped(.machineComparison, reason: "the inputs come from one machine (\(machines.first ?? "none")); it needs two or more")
        }
        let machinesByKey = Dictionary(grouping: samples.samples, by: \.key).mapValues { Set($0.map(\.machine)) }
        let shared = machinesByKey.filter { !$0.key.kind.isReference && $0.key.phase != .calibration && $0.value.count >= 2 }.keys
        guard let phase = [Phase.total, .extract, .compose].first(where: { phase in shared.contains { $0.phase == phase } }) else {
            return .skipped(.machineComparison, reason: "no configuration was run on two or more of the machines (\(machines.joined(separator: ", ")))")
        }
        let compared = shared.filter { $0.phase == phase }
        var points: [ConfigurationKey: [String: PlotPoint]] = [:]
        for group in Dictionary(grouping: samples.samples.filter { compared.contains($0.key) }, by: { "\($0.machine)\n\($0.key.description)" }).values {
            guard let point = PlotPoint(samples: group.map(\.seconds)), let first = group.first else { continue }
            points[first.key, default: [:]][first.machine] = point
        }
        let unit = TimeUnit(forLargest: points.values.flatMap(\.values).map(\.high).max() ?? 0)
        let labeler = ConfigurationLabeler(compared)
        let videos = Dictionary(grouping: compared, by: \.videoID).sorted { $0.key < $1.key }

        let data = dataBlocks(videos.map(\.value), points: points, machines: machines, unit: unit, labeler: labeler)
        let tallest = videos.map(\.value.count).max() ?? 1
        let panelRows = (videos.count + columns - 1) / columns
        let panelHeight = tallest * rowHeight + panelPadding
        let height = panelRows * panelHeight + 60
        let axis = TimeAxis(fitting: points.values.flatMap(\.values).flatMap { [$0.low, $0.high] }.map { $0 * unit.factor })
        let panels = videos.enumerated().map { index, video in panel(index: index, video: video.key, rows: video.value.count, machines: machines, stem: stem) }
        let title = "Machine against machine: phase \(phase.rawValue), median wall time with 95 % interval\(axis.isLog ? " (log scale)" : ""), one panel per video"
        let styles = machines.indices.map { index in
            "set style line \(index + 1) lc rgb \(PlotText.scriptString(palette[index % palette.count])) pt \([7, 5, 9, 13][index % 4]) ps 0.9 lw 1.5"
        }.joined(separator: "\n")
        let body = """
            \(styles)
            \(axis.commands)
            set xlabel \(PlotText.scriptString("wall-clock time (\(unit.rawValue)\(axis.isLog ? ", log scale" : ""))"))
            set grid xtics mxtics ytics
            set ytics nomirror font ",9"
            set xtics nomirror
            set lmargin 30
            set multiplot layout \(panelRows),\(columns) title \(PlotText.scriptString(title))
            \(panels.joined(separator: "\n"))
            unset multiplot
            """
        return .chart(Chart(kind: .machineComparison, stem: stem, title: title, data: data, body: body, width: 1400, height: max(500, height)))
    }

    /// The gnuplot commands of one video's panel: each machine's dots a little above or below the
    /// row's line, so intervals do not hide each other; the key once, in the first panel (an
    /// empty box would show in the others).
    static func panel(index: Int, video: String, rows: Int, machines: [String], stem: String) -> String {
        let plots = machines.enumerated().map { machineIndex, machine in
            let first = 2 + 3 * machineIndex
            let offset = (Double(machineIndex) - Double(machines.count - 1) / 2) * 0.22
            let source = machineIndex == 0 ? PlotText.scriptString("\(stem).dat") : "''"
            let tics = machineIndex == 0 ? ":ytic(1)" : ""
            return "\(source) index \(index) using \(first):($0+\(PlotText.number(offset))):\(first + 1):\(first + 2)\(tics) with xerrorbars ls \(machineIndex + 1) title \(index == 0 ? PlotText.scriptString(machine) : "''")"
        }
        return """
            \(index == 0 ? "set key top right vertical opaque box" : "unset key")
            set title \(PlotText.scriptString(video))
            set yrange [-0.7:\(rows)-0.3]
            plot \(plots.joined(separator: ", \\\n     "))
            """
    }

    /// One data block per video (gnuplot's `index`): label, then median, low, high per machine.
    static func dataBlocks(_ videos: [[ConfigurationKey]], points: [ConfigurationKey: [String: PlotPoint]], machines: [String],
                           unit: TimeUnit, labeler: ConfigurationLabeler) -> String {
        var data = "# per video (one block each): configuration, then per machine (\(machines.joined(separator: ", "))): median, CI low, CI high in \(unit.rawValue)\n"
        for keys in videos {
            // Fastest on the first machine at the top: gnuplot counts rows from the bottom.
            let ordered = keys.sorted { (points[$0]?[machines[0]]?.median ?? .infinity, $0) > (points[$1]?[machines[0]]?.median ?? .infinity, $1) }
            for key in ordered {
                let label = labeler.label("\(key.pipeline) ×\(key.thumbnailCount)", for: key)
                let columns = machines.map { points[key]?[$0]?.scaled(by: unit.factor).columns ?? PlotPoint.missingColumns }
                data += ([PlotText.dataString(label)] + columns).joined(separator: " ") + "\n"
            }
            data += "\n\n"
        }
        return data
    }

    /// Colours apart for people with the common colour-vision deficiencies (Okabe–Ito).
    static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]

    /// The time axis of every panel: the range holds every interval whole (no whisker ends at the
    /// frame), with room on the right of the slowest for the key (rows are fastest first, so
    /// the top right is empty).
    struct TimeAxis: Equatable {
        var low: Double, high: Double
        /// A log scale when the intervals span a decade or more.
        var isLog: Bool

        init(fitting values: [Double]) {
            let finite = values.filter { $0.isFinite && $0 > 0 }
            let smallest = finite.min() ?? 1, largest = finite.max() ?? 1
            isLog = largest / smallest >= 10
            if isLog {
                low = smallest / 1.5
                high = largest * 8
            } else {
                let span = max(largest - smallest, largest * 0.05)
                low = max(0, smallest - span * 0.1)
                high = largest + span * 0.6
            }
        }

        var commands: String {
            (isLog ? "set logscale x 10\n" : "unset logscale x\n") + "set xrange [\(PlotText.number(low)):\(PlotText.number(high))]"
        }
    }
}
