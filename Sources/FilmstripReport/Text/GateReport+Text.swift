import FilmstripResults
import Foundation

/// `compare`'s plain text, laid out for reading in a terminal of ``GateReport/width``
/// columns: the verdict and the changes first, then one table per video and thumbnail count
/// with the phase a column and each pipeline a short label whose options are listed once.
extension GateReport {
    /// A pipeline with its options: what a label stands for.
    struct PipelineVariant: Hashable, Comparable {
        var pipeline: PipelineName
        var options: RunOptions

        init(_ key: ConfigurationKey) {
            pipeline = key.pipeline
            options = key.options
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.pipeline.description, lhs.options.cell) < (rhs.pipeline.description, rhs.options.cell)
        }
    }

    /// Each pipeline's label: its name when it ran with one set of options, else the name
    /// with a letter per option set (`forward+fused(a)`), explained in the legend.
    var pipelineLabels: [PipelineVariant: String] {
        let variants = Set(comparisons.map { PipelineVariant($0.key) }).sorted()
        let byPipeline = Dictionary(grouping: variants, by: \.pipeline)
        var labels: [PipelineVariant: String] = [:]
        for (pipeline, sets) in byPipeline {
            for (index, variant) in sets.enumerated() {
                labels[variant] = sets.count == 1 ? pipeline.description : "\(pipeline)(\(Self.letter(index)))"
            }
        }
        return labels
    }

    private static func letter(_ index: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return index < letters.count ? String(letters[index]) : "\(index + 1)"
    }

    /// Options every configuration that has options shares (a calibration has none): said
    /// once instead of in each label's legend line.
    private var commonOptions: RunOptions {
        RunOptions.common(among: comparisons.map(\.key.options).filter { !$0.isEmpty })
    }

    /// A configuration in a line of text: `forward+fused(a) h264-180p-3s ×50 114x64 exact total`.
    func shortName(_ key: ConfigurationKey, labels: [PipelineVariant: String]) -> String {
        [labels[PipelineVariant(key)] ?? key.pipeline.description, StripRequest(key).text, key.phase.rawValue].joined(separator: " ")
    }

    /// The legend: the options of every pipeline once, then each label's own.
    private func legendLines(labels: [PipelineVariant: String]) -> [String] {
        let common = commonOptions
        var lines: [String] = []
        if !common.isEmpty { lines.append("options of every configuration: \(common.spaced)") }
        let shownVariants = Set(shown.map { PipelineVariant($0.key) })
        let own = labels.filter { shownVariants.contains($0.key) }.compactMap { variant, label -> (String, String)? in
            let options = variant.options.filter { common[$0.key] != $0.value }
            return options.isEmpty ? nil : (label, options.spaced)
        }.sorted { $0.0 < $1.0 }
        if !own.isEmpty { lines += ["options of each pipeline beside those:"] + own.map { "  \($0.0): \($0.1)" } }
        return lines
    }

    /// A plain-text report for stdout: the verdict and what changed, context, the legend, a
    /// table per request, the outcome line; no line over ``width``.
    package var text: String {
        let labels = pipelineLabels
        var lines = headlineLines(name: { shortName($0, labels: labels) }) + [""] + contextLines + legendLines(labels: labels)
        let rows = shown
        if !rows.isEmpty {
            let measured = judgesSeveralMetrics
                ? "each row's metric (" + gate.metrics.map { "\(Self.metricName($0)): \($0.rawValue)" }.joined(separator: ", ") + ")"
                : gate.metric.rawValue
            lines.append("baseline and candidate: medians of \(measured)" + (normalizedToCalibration ? " in multiples of the calibration" : "")
                + "; change: candidate / baseline")
            lines += textTables(rows, labels: labels)
            lines.append("")
            if rows.contains(where: { !$0.gated }) { lines.append("(verdict): shown, not gated (a sub-phase or a reference)") }
        }
        lines += extrasLines + hiddenLines
        lines.append(outcomeLine)
        return TextWidth.wrapped(lines: lines, width: width).joined(separator: "\n")
    }

    /// One aligned table per request, all with the same columns; where the pipeline column
    /// would not fit ``width`` beside the numbers, each pipeline's name on its own line above its
    /// rows instead (names are never cut).
    private func textTables(_ rows: [ConfigurationComparison], labels: [PipelineVariant: String]) -> [String] {
        var header = ["pipeline", "phase"] + (judgesSeveralMetrics ? ["metric"] : [])
            + ["baseline", "candidate", "change", "\(Int(gate.level * 100)) % CI", "n", "verdict"]
        if acrossMachines { header.append("speed-up (CI)") }
        let showRaw = comparisons.contains { $0.unnormalised != nil }
        if showRaw { header.append("raw change (CI)") }
        // A process's phases in the order they run; the others after them.
        let runOrder: [Phase] = [.startup, .extract, .compose, .total, .process]
        let phaseOrder = Dictionary(uniqueKeysWithValues: (runOrder + Phase.allCases.filter { !runOrder.contains($0) }).enumerated().map { ($1, $0) })
        let requests = Dictionary(grouping: rows) { StripRequest($0.key) }
        var tables: [(StripRequest, [[String]])] = []
        for request in requests.keys.sorted() {
            let ordered = requests[request]!.enumerated().sorted { a, b in
                let left = (labels[PipelineVariant(a.element.key)] ?? "", phaseOrder[a.element.key.phase] ?? 0, a.offset)
                let right = (labels[PipelineVariant(b.element.key)] ?? "", phaseOrder[b.element.key.phase] ?? 0, b.offset)
                return left < right
            }.map(\.element)
            tables.append((request, ordered.map { textCells($0, label: labels[PipelineVariant($0.key)] ?? $0.key.pipeline.description, showRaw: showRaw) }))
        }
        let all = tables.flatMap(\.1) + [header]
        let widths = header.indices.map { column in all.map { $0[column].count }.max()! }
        let others = widths.dropFirst().reduce(0, +) + 2 * (widths.count - 1)
        // A pipeline's name is never cut: when it does not fit beside the numbers, it heads its
        // rows on a line of its own and the rows start at the phase, indented under it.
        let stacked = widths[0] + 2 + others > width
        let firstNumber = judgesSeveralMetrics ? 3 : 2
        let numbers = firstNumber..<(firstNumber + 5)
        let render = { (cells: [String]) -> String in
            var line = (stacked ? "  " : "") + zip(cells.indices, cells).dropFirst(stacked ? 1 : 0).map { column, cell in
                // Numbers right-aligned, so their magnitudes line up.
                numbers.contains(column) ? cell.rightAligned(width: widths[column]) : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
        var lines: [String] = []
        for (request, rows) in tables {
            lines += ["", request.text] + (stacked ? [header[0]] : [])
            lines += [render(header), render(widths.map { String(repeating: "-", count: $0) })]
            var previous: String?
            for row in rows {
                if stacked, row[0] != previous { lines.append(row[0]) }
                previous = row[0]
                lines.append(render(row))
            }
        }
        return lines
    }

    private func textCells(_ comparison: ConfigurationComparison, label: String, showRaw: Bool) -> [String] {
        let verdict = comparison.gated ? comparison.verdict.rawValue : "(\(comparison.verdict.rawValue))"
        var cells = [label, comparison.key.phase.rawValue + (comparison.normalisedBy.map { " /\($0.rawValue)" } ?? "")]
            + (judgesSeveralMetrics ? [Self.metricName(comparison.metric)] : [])
        cells += [number(comparison.baselineMedian), number(comparison.candidateMedian), Self.percent(comparison.ratio),
                  "\(Self.percent(comparison.ratioLow)) … \(Self.percent(comparison.ratioHigh))", "\(comparison.count)", verdict]
        if acrossMachines {
            cells.append("\(Self.ratio(1 / comparison.ratio)) (\(Self.ratio(1 / comparison.ratioHigh)) … \(Self.ratio(1 / comparison.ratioLow)))")
        }
        if showRaw {
            cells.append(comparison.unnormalised.map { "\(Self.percent($0.ratio)) (\(Self.percent($0.low)) … \(Self.percent($0.high)))" } ?? "")
        }
        return cells
    }
}
