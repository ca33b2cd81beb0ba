import Foundation

/// Everything the gate found, for the `compare` command to print and exit on.
public struct GateReport: Sendable {
    /// The settings that produced this report.
    public var gate: RegressionGate
    public var outcome: GateOutcome
    /// `true` when values are multiples of each run's calibration median
    /// because the runs come from different machines.
    public var normalizedToCalibration = false
    /// One entry per configuration present in both runs, ordered by key.
    public var comparisons: [ConfigurationComparison] = []
    /// Things that weaken the comparison without preventing it.
    public var warnings: [String] = []
    public var onlyInBaseline: [ConfigurationKey] = []
    public var onlyInCandidate: [ConfigurationKey] = []

    public init(gate: RegressionGate, outcome: GateOutcome) {
        self.gate = gate
        self.outcome = outcome
    }

    /// A plain-text report: warnings, an aligned table, and the outcome line.
    public var text: String {
        var lines = warnings.map { "warning: \($0)" }
        let rows = tableRows
        if !rows.isEmpty {
            let widths = tableHeader.indices.map { column in
                (rows + [tableHeader]).map { $0[column].count }.max()!
            }
            let render = { (cells: [String]) in
                zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
            }
            lines.append(render(tableHeader))
            lines.append(render(widths.map { String(repeating: "-", count: $0) }))
            lines += rows.map(render)
        }
        lines += extrasLines
        lines.append(outcomeLine)
        return lines.joined(separator: "\n")
    }

    /// A Markdown report (for a pull-request comment): warnings as a list, a table, the outcome.
    public var markdown: String {
        var lines = warnings.map { "- ⚠️ \($0)" }
        if !lines.isEmpty { lines.append("") }
        let rows = tableRows
        if !rows.isEmpty {
            let escape = { (cell: String) in cell.replacingOccurrences(of: "|", with: "\\|") }
            lines.append("| " + tableHeader.joined(separator: " | ") + " |")
            lines.append("|" + tableHeader.map { _ in "---" }.joined(separator: "|") + "|")
            lines += rows.map { "| " + $0.map(escape).joined(separator: " | ") + " |" }
            lines.append("")
        }
        lines += extrasLines
        lines.append("**\(outcomeLine)**")
        return lines.joined(separator: "\n")
    }

    private var tableHeader: [String] {
        let unit = normalizedToCalibration ? "× calibration" : gate.metric.rawValue
        return ["configuration", "baseline (\(unit))", "candidate (\(unit))", "change", "\(Int(gate.level * 100)) % CI", "n", "verdict"]
    }

    private var tableRows: [[String]] {
        comparisons.map { comparison in
            [
                comparison.key.description,
                Self.number(comparison.baselineMedian),
                Self.number(comparison.candidateMedian),
                Self.percent(comparison.ratio),
                "\(Self.percent(comparison.ratioLow)) … \(Self.percent(comparison.ratioHigh))",
                "\(comparison.baselineCount)/\(comparison.candidateCount)",
                comparison.verdict.rawValue,
            ]
        }
    }

    private var extrasLines: [String] {
        var lines: [String] = []
        if !onlyInBaseline.isEmpty { lines.append("only in baseline: \(onlyInBaseline.count) configuration(s)") }
        if !onlyInCandidate.isEmpty { lines.append("only in candidate: \(onlyInCandidate.count) configuration(s)") }
        return lines
    }

    private var outcomeLine: String {
        let threshold = String(format: "%g", gate.threshold * 100)
        switch outcome {
        case .passed:
            return "passed: no configuration slower by more than \(threshold) % (exit 0)"
        case .regressed:
            let count = comparisons.filter { $0.verdict == .slower }.count
            return "regressed: \(count) configuration(s) slower by more than \(threshold) % (exit 2)"
        case .badInput(let reason):
            return "bad input: \(reason) (exit 3)"
        }
    }

    /// Four significant digits: enough to see a 5 % change, short enough for a table.
    private static func number(_ value: Double) -> String {
        String(format: "%.4g", value)
    }

    /// A ratio as a signed percent change, `1.123` → `+12.3 %`.
    private static func percent(_ ratio: Double) -> String {
        String(format: "%+.1f %%", (ratio - 1) * 100)
    }
}
