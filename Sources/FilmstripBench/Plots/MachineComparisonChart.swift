/// Chart 4: the configurations run on two or more machines, one bar per machine. To stay
/// readable it shows one phase (`total`, else `extract`, else `compose`) at the most common
/// frame count of the shared configurations: one cluster per pipeline and video.
///
/// When every machine has `calibration` rows of a configuration they all share, each
/// machine's medians and CI bounds are divided by that machine's calibration median
/// (the shared calibration configurations pooled), so the bars compare the code's speed
/// relative to each machine rather than the machines themselves. The calibration
/// median's own uncertainty is not propagated into the whiskers.
enum MachineComparisonChart {
    static func make(_ samples: PlotSamples, stem: String) -> ChartOutcome {
        let machines = samples.machines
        guard machines.count >= 2 else {
            return .skipped(.machineComparison, reason: "the inputs come from one machine (\(machines.first ?? "none")); it needs two or more")
        }
        let machinesByKey = Dictionary(grouping: samples.samples, by: \.key).mapValues { Set($0.map(\.machine)) }
        let sharedCalibration = Set(machinesByKey.filter { $0.key.phase == .calibration && $0.value.count == machines.count }.keys)
        let shared = machinesByKey.filter { $0.key.phase != .calibration && $0.value.count >= 2 }.keys
        guard let phase = [Phase.total, .extract, .compose].first(where: { phase in shared.contains { $0.phase == phase } }) else {
            return .skipped(.machineComparison, reason: "no configuration was run on two or more of the machines (\(machines.joined(separator: ", ")))")
        }
        let thumbnailCount = samples.filter { $0.key.phase == phase && shared.contains($0.key) }.mostCommon { $0.key.thumbnailCount }!
        let compared = Set(shared.filter { $0.phase == phase && $0.thumbnailCount == thumbnailCount })

        var calibrationMedian: [String: Double] = [:]
        if !sharedCalibration.isEmpty {
            for machine in machines {
                let seconds = samples.samples.filter { $0.machine == machine && sharedCalibration.contains($0.key) }.map(\.seconds)
                calibrationMedian[machine] = SampleStatistics(seconds)?.median
            }
        }
        let normalized = !sharedCalibration.isEmpty && calibrationMedian.values.allSatisfy { $0 > 0 }

        var points: [ConfigurationKey: [String: PlotPoint]] = [:]
        let grouped = Dictionary(grouping: samples.samples.filter { compared.contains($0.key) }) { "\($0.machine)\n\($0.key.description)" }
        for group in grouped.values {
            let first = group[0]
            guard let point = PlotPoint(samples: group.map(\.seconds)) else { continue }
            points[first.key, default: [:]][first.machine] = normalized ? point.scaled(by: 1 / calibrationMedian[first.machine]!) : point
        }
        let unit = TimeUnit(forLargest: points.values.flatMap(\.values).map(\.high).max() ?? 0)
        let factor = normalized ? 1 : unit.factor
        let yUnit = normalized ? "multiples of the machine's calibration median" : unit.rawValue

        let labeler = ConfigurationLabeler(compared)
        let keys = compared.sorted()
        var data = "# configuration, then per machine (\(machines.joined(separator: ", "))): median, CI low, CI high in \(yUnit)\n"
        for key in keys {
            let label = labeler.label("\(key.pipeline) \(key.videoID)", for: key)
            let columns = machines.map { points[key]?[$0]?.scaled(by: factor).columns ?? PlotPoint.missingColumns }
            data += ([PlotText.dataString(label)] + columns).joined(separator: " ") + "\n"
        }
        let plots = machines.enumerated().map { index, machine in
            let first = 2 + 3 * index
            let tics = index == 0 ? ":xtic(1)" : ""
            return "\(index == 0 ? PlotText.scriptString("\(stem).dat") : "''") using \(first):\(first + 1):\(first + 2)\(tics) title \(PlotText.scriptString(machine))"
        }
        let how = normalized ? "normalised to each machine's calibration median" : "absolute wall-clock time (no calibration rows shared by every machine)"
        let title = "Machine against machine: phase \(phase.rawValue), N = \(thumbnailCount) thumbnails, \(how)"
        let yLabel = normalized ? "wall-clock time / calibration median (ratio)" : "wall-clock time, median and 95 % CI (\(unit.rawValue))"
        let body = """
            \(BarStyle.commands)
            set title \(PlotText.scriptString(title))
            set xlabel "pipeline and video"
            set ylabel \(PlotText.scriptString(yLabel))
            set key title "machine"
            plot \(plots.joined(separator: ", \\\n     "))
            """
        return .chart(Chart(kind: .machineComparison, stem: stem, title: title, data: data, body: body,
                            width: min(CategoryPoints.maximumWidth, max(1100, 50 * keys.count * machines.count + 300)), height: 700))
    }
}
