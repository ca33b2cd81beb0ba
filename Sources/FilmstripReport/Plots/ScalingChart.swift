import FilmstripResults
/// Chart 5: speed-up against workers, one line per configuration swept over worker counts
/// (the seed study's `taskgroup` at 1, 2, 4, … workers), with the ideal line (one core per
/// worker up to the machine's cores) and, dashed, the measured bound: the one-worker time
/// over the time the run's own CPU time would take spread evenly over the cores it could use.
/// The gap between a line and its bound is balance and waiting; the gap between the bound
/// and the ideal is CPU time that grew with workers (the machine's shared caches and
/// memory, or duplicated decoding).
///
/// Rows with `workers=auto` are left out: what `auto` means depends on the commit.
enum ScalingChart {
    /// A configuration without its worker count: the points of one line.
    struct Series: Hashable, Comparable {
        var pipeline: PipelineName
        var options: RunOptions
        var video: String
        var thumbnailCount: Int
        var accuracy: RowAccuracy

        static func < (lhs: Series, rhs: Series) -> Bool { lhs.label < rhs.label }

        var label: String {
            let options = options.keeping([.skipNonReference, .threads, .skipLoopFilter])
            return "\(pipeline) [\(options)] \(video) ×\(thumbnailCount) \(accuracy)"
        }
    }

    /// One worker count of a series: speed-up over one worker (median and 95 % CI) and the bound.
    struct Point: Equatable {
        var workers: Int
        var speedup: PlotPoint
        var bound: Double
    }

    /// The lines `rows` (one machine) hold: every series measured at one worker and at least one other count.
    static func points(_ rows: [RawResultRow]) -> [Series: [Point]] {
        let swept = rows.filter { $0.status == .ok && $0.phase == .total && $0.wallSeconds != nil && $0.options.workers != nil }
        let bySeries = Dictionary(grouping: swept) { row in
            Series(pipeline: row.pipeline, options: row.options.removing(.workers), video: row.video.id,
                   thumbnailCount: row.thumbnailCount, accuracy: row.accuracy)
        }
        var result: [Series: [Point]] = [:]
        for (series, rows) in bySeries {
            let byWorkers = Dictionary(grouping: rows) { $0.options.workers! }
            guard byWorkers.count >= 2, let one = byWorkers[1], let oneWorker = SampleStatistics(one.compactMap(\.wallSeconds))?.median,
                  oneWorker > 0 else { continue }
            let cores = rows[0].run.machine.logicalCores
            result[series] = byWorkers.keys.sorted().compactMap { workers in
                let rows = byWorkers[workers]!
                guard let wall = PlotPoint(samples: rows.compactMap(\.wallSeconds)), wall.low > 0,
                      let cpu = SampleStatistics(rows.compactMap { row in row.cpuUserSeconds.map { $0 + (row.cpuSysSeconds ?? 0) } })?.median,
                      cpu > 0 else { return nil }
                let speedup = PlotPoint(median: oneWorker / wall.median, low: oneWorker / wall.high, high: oneWorker / wall.low)
                return Point(workers: workers, speedup: speedup, bound: oneWorker / (cpu / Double(min(workers, max(1, cores)))))
            }
        }
        return result.filter { $0.value.count >= 2 }
    }

    /// Legend entries naming only what varies among the lines (the pipeline always), so a
    /// single line's legend is short and several lines' differences stand out.
    static func legendLabels(_ series: [Series]) -> [Series: String] {
        let varyingOptions = RunOptions.varyingKeys(among: series.map(\.options))
        func varies(_ part: (Series) -> String) -> Bool { Set(series.map(part)).count > 1 }
        let video = varies(\.video), count = varies { "\($0.thumbnailCount)" }, accuracy = varies(\.accuracy.description)
        var labels: [Series: String] = [:]
        for line in series {
            var parts = [line.pipeline.description]
            let options = line.options.filter { varyingOptions.contains($0.key) }
            if !options.isEmpty { parts.append("[\(options)]") }
            if video { parts.append(line.video) }
            if count { parts.append("×\(line.thumbnailCount)") }
            if accuracy { parts.append(line.accuracy.description) }
            labels[line] = parts.joined(separator: " ")
        }
        return labels
    }

    /// Speed-up with one core per worker up to the machine's cores.
    static func ideal(workers: Int, cores: Int) -> Int { min(workers, max(1, cores)) }

    static func make(_ rows: [RawResultRow], machine: String, stem: String) -> ChartOutcome {
        let lines = points(rows)
        guard !lines.isEmpty, let cores = rows.first?.run.machine.logicalCores else {
            return .skipped(.scaling, reason: "no configuration of machine \(machine) was run at 1 worker and another worker count")
        }
        let series = lines.keys.sorted()
        var blocks: [String] = []
        for line in series {
            var block = "# \(line.label): workers, speed-up median, CI low, CI high, measured bound, ideal\n"
            for point in lines[line]! {
                block += "\(point.workers) \(point.speedup.columns) \(PlotText.number(point.bound)) \(Self.ideal(workers: point.workers, cores: cores))\n"
            }
            blocks.append(block)
        }
        let legend = Self.legendLabels(series)
        let largest = lines.values.flatMap { $0.map(\.workers) }.max()!
        var plots: [String] = []
        for (index, line) in series.enumerated() {
            let file = index == 0 ? PlotText.scriptString("\(stem).dat") : "''"
            plots.append("\(file) index \(index) using 1:2:3:4 with yerrorlines lw 2 pt 7 lc \(index + 1) title \(PlotText.scriptString(legend[line]!))")
            plots.append("'' index \(index) using 1:5 with linespoints dt 2 lw 1 pt 6 lc \(index + 1) title \(PlotText.scriptString("bound: CPU time over the cores"))")
        }
        // The ideal at the measured worker counts of the first line, joined by straight segments
        // like the measured lines (a function of x would curve between them on the log axis).
        plots.append("\(PlotText.scriptString("\(stem).dat")) index 0 using 1:6 with lines lc rgb \"#888888\" lw 1 title \(PlotText.scriptString("ideal: min(workers, \(cores) cores)"))")
        let common = series.count == 1 ? ": \(series[0].video) ×\(series[0].thumbnailCount) \(series[0].accuracy)" : ""
        let title = "Speed-up against workers over one worker, machine \(machine) (\(cores) cores)\(common)"
        let body = """
            set logscale x 2
            set xrange [1:\(max(2, largest))]
            set yrange [0:*]
            set grid xtics ytics
            set key below left Left reverse
            set title \(PlotText.scriptString(title))
            set xlabel "workers (log scale)"
            set ylabel "speed-up: one-worker median / median (95 % CI)"
            plot \(plots.joined(separator: ", \\\n     "))
            """
        return .chart(Chart(kind: .scaling, stem: stem, title: title, data: blocks.joined(separator: "\n\n"), body: body,
                            height: 620 + 20 * 2 * series.count))
    }
}
