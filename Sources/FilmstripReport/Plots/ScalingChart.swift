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
    /// One worker count of a line: speed-up over one worker (median and 95 % CI) and the bound.
    struct Point: Equatable {
        var workers: Int
        var speedup: PlotPoint
        var bound: Double
    }

    /// The lines `rows` (one machine) hold, each a configuration without its worker count:
    /// every one measured at one worker and at least one other count.
    static func points(_ rows: [RawResultRow]) -> [ConfigurationKey: [Point]] {
        let swept = rows.filter { $0.status == .ok && $0.phase == .total && $0.wallSeconds != nil && $0.options.workers != nil }
        let byLine = Dictionary(grouping: swept) { row in
            var key = row.configurationKey
            key.options = key.options.removing(.workers)
            return key
        }
        var result: [ConfigurationKey: [Point]] = [:]
        for (line, rows) in byLine {
            let byWorkers = Dictionary(grouping: rows) { $0.options.workers! }
            guard byWorkers.count >= 2, let one = byWorkers[1], let oneWorker = SampleStatistics(one.compactMap(\.wallSeconds))?.median,
                  oneWorker > 0 else { continue }
            let cores = rows[0].run.machine.logicalCores
            result[line] = byWorkers.keys.sorted().compactMap { workers in
                let rows = byWorkers[workers]!
                guard let wall = PlotPoint(samples: rows.compactMap(\.wallSeconds)), wall.low > 0,
                      let cpu = SampleStatistics(rows.compactMap { row in row.cpuUserSeconds.map { $0 + (row.cpuSysSeconds ?? 0) } })?.median,
                      cpu > 0 else { return nil }
                let speedup = PlotPoint(median: oneWorker / wall.median, low: oneWorker / wall.high, high: oneWorker / wall.low)
                return Point(workers: workers, speedup: speedup, bound: oneWorker / (cpu / Double(ideal(workers: workers, cores: cores))))
            }
        }
        return result.filter { $0.value.count >= 2 }
    }

    /// Speed-up with one core per worker up to the machine's cores.
    static func ideal(workers: Int, cores: Int) -> Int { min(workers, max(1, cores)) }

    static func make(_ rows: [RawResultRow], machine: String, stem: String) -> ChartOutcome {
        guard let data = ScalingChartData(rows) else {
            return .skipped(.scaling, reason: "no configuration of machine \(machine) was run at 1 worker and another worker count")
        }
        let blocks = data.lines.map { line in
            "# \(line.label): workers, speed-up median, CI low, CI high, measured bound, ideal\n" + line.points.map { point in
                "\(point.workers) \(point.speedup.columns) \(PlotText.number(point.bound)) \(ideal(workers: point.workers, cores: data.cores))\n"
            }.joined()
        }
        var plots: [String] = []
        for (index, line) in data.lines.enumerated() {
            let file = index == 0 ? PlotText.scriptString("\(stem).dat") : "''"
            plots.append("\(file) index \(index) using 1:2:3:4 with yerrorlines lw 2 pt 7 lc \(index + 1) title \(PlotText.scriptString(line.label))")
            plots.append("'' index \(index) using 1:5 with linespoints dt 2 lw 1 pt 6 lc \(index + 1) title \(PlotText.scriptString(ScalingChartData.boundLabel))")
        }
        // The ideal at the measured worker counts of the first line, joined by straight segments
        // like the measured lines (a function of x would curve between them on the log axis).
        plots.append("\(PlotText.scriptString("\(stem).dat")) index 0 using 1:6 with lines lc rgb \"#888888\" lw 1 title \(PlotText.scriptString(data.idealLabel))")
        let title = "\(data.title), machine \(machine)"
        let body = """
            set logscale x 2
            set xrange [1:\(max(2, data.workerCounts.last ?? 2))]
            set yrange [0:*]
            set grid xtics ytics
            set key below left Left reverse
            set title \(PlotText.scriptString(title))
            set xlabel "workers (log scale)"
            set ylabel "\(ScalingChartData.speedupAxis)"
            plot \(plots.joined(separator: ", \\\n     "))
            """
        return .chart(Chart(kind: .scaling, stem: stem, title: title, data: blocks.joined(separator: "\n\n"), body: body,
                            height: 620 + 20 * 2 * data.lines.count))
    }
}
