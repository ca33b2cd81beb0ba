import Foundation

/// Everything the gate found, for the `compare` command to print and exit on.
package struct GateReport: Sendable {
    /// How the samples were compared.
    package enum Form: Sendable, Hashable {
        /// One two-build run, pair by pair.
        case paired
        /// Two runs, each sample divided by its repetition's calibration.
        case separateRuns(sameMachine: Bool)
        /// Two runs, raw values (no calibration rows, or a metric that is not a time).
        case separateRunsUnnormalised
    }

    /// The settings that produced this report.
    package var gate: RegressionGate
    package var outcome: GateOutcome
    package var form: Form = .separateRunsUnnormalised
    /// One entry per configuration present in both, ordered by key.
    package var comparisons: [ConfigurationComparison] = []
    /// Counters that changed; see ``RegressionGate``.
    package var workChanges: [WorkChange] = []
    /// Instruction runs: configurations whose busiest thread's count moved beyond the threshold (``SpanChange``).
    package var spanChanges: [SpanChange] = []
    /// Things that weaken the comparison without preventing it (for stderr).
    package var warnings: [String] = []
    /// Configurations that failed on one side only (crash, non-zero exit, time limit, wrong
    /// strip); a gated one (the candidate's) fails the gate whatever its times say.
    package var failures: [ConfigurationFailure] = []
    package var onlyInBaseline: [ConfigurationKey] = []
    package var onlyInCandidate: [ConfigurationKey] = []
    /// Commits the executables were built from (paired form).
    package var baselineCommits: [String] = []
    package var candidateCommits: [String] = []
    /// Machines with core counts (separate runs).
    package var machines: (baseline: String, candidate: String)?
    /// Candidate / baseline of each calibration workload: the machines' (or days') speed ratio.
    package var calibrationChange: [(kind: CalibrationKind, ratio: Double, low: Double, high: Double)] = []

    /// `false` when counters differ for a reason other than the code (different core counts).
    package var gatesOnWork = true
    /// Paired time metrics: the configurations judged together by e-Benjamini–Hochberg (the gated ones).
    package var familySize: Int?
    /// Paired time metrics: how the pairs were collected, so how they were judged (fixed n, or
    /// anytime-valid evidence after pairs were added by looking); nil in other forms.
    package var pairCollection: PairCollection?
    /// Shows only the configurations with a verdict other than `same` (the outcome and work lines stay).
    package var onlyChanged = false
    /// Shows the sub-phases (shown, not gated) in the tables too; by default they are counted.
    package var allPhases = false
    /// The text's widest line (``TextWidth``): the terminal's columns.
    package var width = TextWidth.standard
    /// Where the gate's settings came from when not from the command line (`bench --until-decided`'s record).
    package var settingsNote: String?

    /// `true` when values are multiples of each repetition's calibration.
    package var normalizedToCalibration: Bool {
        if case .separateRuns = form { true } else { false }
    }

    package var acrossMachines: Bool {
        if case .separateRuns(sameMachine: false) = form { true } else { false }
    }

    /// Configurations whose verdict is not `same` (with every metric of such a configuration):
    /// slower first, then faster, then undecided.
    package var changed: [ConfigurationComparison] {
        let groups = configurations
        return [Verdict.slower, .faster, .undecided].flatMap { verdict in
            groups.filter { Self.verdict(of: $0.entries) == verdict }.flatMap(\.entries)
        }
    }

    /// Gated entries without a verdict: they keep the gate from passing.
    package var undecided: [ConfigurationComparison] {
        comparisons.filter { $0.gated && $0.verdict == .undecided }
    }

    /// The gated configurations with an undecided metric, each once.
    package var undecidedConfigurations: [ConfigurationKey] { Self.uniqueKeys(undecided) }

    /// The gated configurations decided slower in some metric, each once.
    package var slowerConfigurations: [ConfigurationKey] { Self.uniqueKeys(comparisons.filter { $0.gated && $0.verdict == .slower }) }

    /// `true` when each configuration is judged on more than one metric (CPU and wall time).
    package var judgesSeveralMetrics: Bool { gate.metrics.count > 1 && Set(comparisons.map(\.metric)).count > 1 }

    /// The comparisons grouped by configuration, in their order.
    var configurations: [(key: ConfigurationKey, entries: [ConfigurationComparison])] {
        var groups: [(key: ConfigurationKey, entries: [ConfigurationComparison])] = []
        var position: [ConfigurationKey: Int] = [:]
        for comparison in comparisons {
            if let index = position[comparison.key] {
                groups[index].entries.append(comparison)
            } else {
                position[comparison.key] = groups.count
                groups.append((comparison.key, [comparison]))
            }
        }
        return groups
    }

    /// A configuration's verdict from its metrics': slower when any is slower, otherwise
    /// undecided when any is, faster when any is faster, else same.
    package static func verdict(of entries: [ConfigurationComparison]) -> Verdict {
        let verdicts = Set(entries.map(\.verdict))
        for verdict in [Verdict.slower, .undecided, .faster] where verdicts.contains(verdict) { return verdict }
        return .same
    }

    /// The short name a report gives a metric: `wall`, `cpu`, else the column's name.
    package static func metricName(_ metric: Metric) -> String {
        switch metric {
        case .wallSeconds: "wall"
        case .cpuSeconds: "cpu"
        case .blockedSeconds: "blocked"
        case .cpuAndBlockedSeconds: "cpu+blocked"
        default: metric.rawValue
        }
    }

    private static func uniqueKeys(_ entries: [ConfigurationComparison]) -> [ConfigurationKey] {
        var seen = Set<ConfigurationKey>()
        return entries.map(\.key).filter { seen.insert($0).inserted }
    }

    /// Undecided configurations listed by name in the headline; the rest are counted.
    static let undecidedListed = 20

    /// The verdict first, then each changed configuration, the undecided ones and work changes,
    /// each on its own line: what a reader (or a pull-request comment) needs before the table.
    /// `name` gives a configuration's name (the text's short label, markdown's full key).
    package func headlineLines(name: (ConfigurationKey) -> String) -> [String] {
        let gated = configurations.filter { $0.entries.contains(where: \.gated) }
        // The biggest change first within each verdict: what a reader (or ci-gate.sh's first lines) should see.
        let size = { (entries: [ConfigurationComparison]) in entries.filter(\.gated).map { abs(log($0.ratio)) }.max() ?? 0 }
        let moved = [Verdict.slower, .faster].flatMap { verdict in
            gated.filter { Self.verdict(of: $0.entries) == verdict }.enumerated()
                .sorted { (size($1.element.entries), $0.offset) < (size($0.element.entries), $1.offset) }.map(\.element)
        }
        let movedLines = moved.map { group in
            "\(Self.verdict(of: group.entries).rawValue): \(name(group.key)): \(changeText(group.entries))"
                + (group.entries[0].attribution.isEmpty ? "" : ": " + group.entries[0].attribution.map(\.text).joined(separator: ", "))
        }
        let open = gated.filter { Self.verdict(of: $0.entries) == .undecided }
        let undecidedLines = open.prefix(Self.undecidedListed).map { group in
            "undecided: \(name(group.key)): \(changeText(group.entries))"
        } + (open.count > Self.undecidedListed ? ["undecided: … and \(open.count - Self.undecidedListed) more"] : [])
        // A failure leads: it is the one regression with no number to show.
        let failureLines = failures.filter(\.gated).map { $0.text(name: name($0.key)) }
        return [outcomeLine] + failureLines + movedLines + spanChanges.filter(\.gated).map(\.text) + undecidedLines + workLines(name: name, failing: true)
    }

    /// The headline with each configuration's full key.
    package var headlineLines: [String] { headlineLines(name: \.description) }

    /// Each metric named: `wall +12.3 % (+8.0 % … +16.1 %, n 20)`, or the exact change of an
    /// instruction count; with several metrics each with its own verdict, the decided ones
    /// first: `wall +31.0 % (…) slower, cpu +0.2 % (…) same`.
    private func changeText(_ entries: [ConfigurationComparison]) -> String {
        guard judgesSeveralMetrics else { return "\(Self.metricName(entries[0].metric)) \(changeText(entries[0]))" }
        let rank: [Verdict: Int] = [.slower: 0, .faster: 1, .undecided: 2, .same: 3]
        let ordered = entries.enumerated().sorted { (rank[$0.element.verdict] ?? 4, $0.offset) < (rank[$1.element.verdict] ?? 4, $1.offset) }
        return ordered.map(\.element).map { "\(Self.metricName($0.metric)) \(changeText($0)) \($0.verdict.rawValue)" }.joined(separator: ", ")
    }

    private func changeText(_ comparison: ConfigurationComparison) -> String {
        if gate.metric == .instructions { return Self.percent(comparison.ratio, digits: 2) + " (n \(comparison.count))" }
        return "\(Self.percent(comparison.ratio)) (\(Self.percent(comparison.ratioLow)) … \(Self.percent(comparison.ratioHigh)), n \(comparison.count))"
    }

    /// A sub-phase (shown, not gated) that the tables leave out unless ``allPhases``.
    func isHidden(_ comparison: ConfigurationComparison) -> Bool {
        !allPhases && !comparison.gated && !comparison.key.kind.isReference
    }

    /// The rows the tables show: sub-phases only when asked for, the changed ones only when asked for.
    package var shown: [ConfigurationComparison] { (onlyChanged ? changed : comparisons).filter { !isHidden($0) } }

    /// The line that counts the sub-phase rows left out, if any.
    package var hiddenLines: [String] {
        let hidden = (onlyChanged ? changed : comparisons).filter(isHidden)
        guard !hidden.isEmpty else { return [] }
        return ["\(hidden.count) sub-phase row(s) left out (judged, never gated: `--all-phases` lists them)"]
    }

    /// A Markdown report (for a pull-request comment): the verdict and what changed, warnings, a table.
    package var markdown: String {
        let headline = headlineLines
        var lines = ["**\(headline[0])**"] + (headline.count > 1 ? [""] + headline.dropFirst().map { "- \($0)" } : [])
        lines.append("")
        lines += warnings.map { "- ⚠️ \($0)" } + contextLines.map { "- \($0)" }
        if !warnings.isEmpty || !contextLines.isEmpty { lines.append("") }
        let rows = tableRows
        if !rows.isEmpty {
            let escape = { (cell: String) in cell.replacingOccurrences(of: "|", with: "\\|") }
            lines.append("| " + tableHeader.joined(separator: " | ") + " |")
            lines.append("|" + tableHeader.map { _ in "---" }.joined(separator: "|") + "|")
            lines += rows.map { "| " + $0.map(escape).joined(separator: " | ") + " |" }
            lines.append("")
        }
        lines += (extrasLines + hiddenLines).map { "- \($0)" }
        return lines.joined(separator: "\n")
    }

    /// The outcome line: on stdout for a verdict, on stderr for bad input.
    package var outcomeLine: String {
        let threshold = String(format: "%g", gate.threshold * 100)
        switch outcome {
        case .passed:
            return "passed: no configuration slower by more than \(threshold) %, no work added (exit 0)"
        case .regressed:
            let count = slowerConfigurations.count
            let added = gatesOnWork ? workChanges.filter { $0.grew && $0.gated }.count : 0
            let spans = spanChanges.filter(\.gated).count
            let failed = failures.filter(\.gated).count
            let slower = "\(count) configuration(s) slower by more than \(threshold) %"
            return "regressed: " + (failed == 0 ? slower : "\(failed) configuration(s) failed in the candidate only (\(failedKindsText))"
                + (count > 0 ? ", " + slower : ""))
                + (added > 0 ? ", \(added) counter(s) of work grew" : "")
                + (spans > 0 ? ", \(spans) span(s) grew (the busiest thread's instructions)" : "") + " (exit 2)"
        case .undecided:
            return "undecided: \(undecidedConfigurations.count) configuration(s) could not be decided, none slower so far; not a pass: \(undecidedAdvice) (exit 3)"
        case .badInput(let reason):
            return "bad input: \(reason) (exit 1)"
        }
    }

    /// What was done and what would decide an undecided gate.
    var undecidedAdvice: String {
        let pairs = undecided.map(\.count)
        let counted = pairs.min().map { low in pairs.max() == low ? "\(low) pair(s)" : "\(low)–\(pairs.max()!) pairs" } ?? "the pairs"
        switch pairCollection {
        case .fixed?:
            return "judged at the fixed \(counted) measured; more pairs would decide them (`bench --until-decided` adds them where needed, or more --repetitions)"
        case .addedByLooking?:
            // Pairs were added until the budget or the cap stopped them: more of the same will not do.
            let widest = undecided.map { ($0.ratioHigh / $0.ratioLow).squareRoot() - 1 }.max() ?? 0
            return "pairs were added by looking (`bench --until-decided`) until its budget or pair cap stopped it at \(counted); "
                + "this runner could not show a change smaller than about ±\(String(format: "%.1f", widest * 100)) % (the widest undecided interval's half-width) "
                + "against the ±\(String(format: "%g", gate.threshold * 100)) % threshold: a quieter runner, a larger --threshold, or the instruction gate (`bench --measure instructions`) would decide it"
        case nil:
            return "add pairs: `bench --until-decided`, or more --repetitions"
        }
    }

    package var contextLines: [String] {
        var lines: [String] = []
        switch form {
        case .paired where gate.metric == .instructions:
            lines.append("paired instruction counts (callgrind): candidate / baseline of each configuration and phase, decided exactly at ±\(String(format: "%g", gate.threshold * 100)) %; a change names the functions whose own counts moved most (pp of the baseline phase)")
        case .paired:
            lines.append("paired: candidate / baseline of the same repetition; Hodges–Lehmann ratio, exact Wilcoxon signed-rank \(Int(gate.level * 100)) % interval")
            if let familySize, pairCollection == .fixed {
                let family = judgesSeveralMetrics ? "\(familySize) gated configuration-metric pairs (\(gate.metrics.map(Self.metricName).joined(separator: " and ")) of each)" : "\(familySize) gated configurations"
                let threshold = String(format: "%g", gate.threshold * 100)
                lines.append("verdict at fixed n (every pair planned, none added by looking): exact one-sided Wilcoxon signed-rank tests per configuration, Benjamini–Hochberg over the \(family) at \(Int((1 - gate.level) * 100 + 0.5)) %: slower needs a rejected \"not larger\" and an estimate beyond +\(threshold) %, same needs both \"not within ±\(threshold) %\" tests rejected, otherwise undecided (sub-phases shown, not gated)")
            } else if let familySize {
                let family = judgesSeveralMetrics
                    ? "\(familySize) gated configuration-metric pairs (\(gate.metrics.map(Self.metricName).joined(separator: " and ")) of each configuration in one family; a configuration is slower when either is decided slower, same when both are)"
                    : "\(familySize) gated configurations"
                lines.append("verdict: pairs added by looking (`bench --until-decided`), so anytime-valid betting evidence per configuration, e-Benjamini–Hochberg over the \(family) at \(Int((1 - gate.level) * 100 + 0.5)) %: slower needs evidence of a change and an estimate beyond +\(String(format: "%g", gate.threshold * 100)) %, same needs evidence of a change within ±\(String(format: "%g", gate.threshold * 100)) %, otherwise undecided (sub-phases shown, not gated)")
            }
            lines.append("baseline built from \(baselineCommits.joined(separator: ", ")), candidate from \(candidateCommits.joined(separator: ", "))")
        case .separateRuns:
            lines.append("separate runs: each time divided by its repetition's calibration (decode for extraction and totals, copy for composition); Hodges–Lehmann ratio, exact Mann–Whitney \(Int(gate.level * 100)) % interval")
        case .separateRunsUnnormalised:
            if !comparisons.isEmpty { lines.append("separate runs, raw values; Hodges–Lehmann ratio, exact Mann–Whitney \(Int(gate.level * 100)) % interval") }
        }
        if let settingsNote { lines.append(settingsNote) }
        if let machines { lines.append("machines: baseline \(machines.baseline), candidate \(machines.candidate)") }
        for change in calibrationChange {
            lines.append("calibration \(change.kind.rawValue): candidate / baseline \(Self.ratio(change.ratio)) (\(Self.ratio(change.low)) … \(Self.ratio(change.high)))")
        }
        return lines
    }

    var tableHeader: [String] {
        let unit = normalizedToCalibration ? "× calibration" : gate.metric.rawValue
        let unitText = judgesSeveralMetrics && !normalizedToCalibration ? "s" : unit
        var header = ["configuration", "baseline (\(unitText))", "candidate (\(unitText))", "change", "\(Int(gate.level * 100)) % CI", "n", "verdict"]
        if judgesSeveralMetrics { header.insert("metric", at: 3) }
        if acrossMachines { header.append("speedup (CI)") }
        if comparisons.contains(where: { $0.unnormalised != nil }) { header.append("raw change, parallel (CI)") }
        return header
    }

    var tableRows: [[String]] {
        let showRaw = comparisons.contains { $0.unnormalised != nil }
        return shown.map { comparison in
            var cells = [
                comparison.key.description + (comparison.normalisedBy.map { " /\($0.rawValue)" } ?? ""),
                number(comparison.baselineMedian),
                number(comparison.candidateMedian),
                Self.percent(comparison.ratio),
                "\(Self.percent(comparison.ratioLow)) … \(Self.percent(comparison.ratioHigh))",
                "\(comparison.count)",
                comparison.verdict.rawValue + (comparison.gated ? "" : comparison.key.kind.isReference ? " (reference)" : " (sub-phase)"),
            ]
            if judgesSeveralMetrics { cells.insert(Self.metricName(comparison.metric), at: 3) }
            // Speedup of the candidate machine: baseline / candidate, so its interval is the inverse one.
            if acrossMachines {
                cells.append("\(Self.ratio(1 / comparison.ratio)) (\(Self.ratio(1 / comparison.ratioHigh)) … \(Self.ratio(1 / comparison.ratioLow)))")
            }
            if showRaw {
                cells.append(comparison.unnormalised.map { "\(Self.percent($0.ratio)) (\(Self.percent($0.low)) … \(Self.percent($0.high)))" } ?? "")
            }
            return cells
        }
    }

    /// The work changes that fail the gate (`failing`), which lead, or the others, which follow the table.
    private func workLines(name: (ConfigurationKey) -> String, failing: Bool) -> [String] {
        workChanges.filter { (gatesOnWork && $0.grew && $0.gated) == failing }.map { change in
            "work changed: \(name(change.key)): \(change.counter.rawValue) \(Self.range(change.baseline)) → \(Self.range(change.candidate))"
                + (!gatesOnWork ? " (not gated: the machines have different core counts)"
                    : !change.gated ? " (not gated: work shared by several workers moves with the scheduling; no evidence of more over the pairs)"
                    : change.scheduled ? " (work shared by several workers: evidence over the pairs that it grew)" : "")
        }
    }

    package var extrasLines: [String] {
        // Spans and work changes that cannot fail the gate: after the table, so they never read as a verdict.
        var lines = failures.filter { !$0.gated }.map { $0.text(name: $0.key.description) }
            + spanChanges.filter { !$0.gated }.map(\.text) + workLines(name: \.description, failing: false)
        if !onlyInBaseline.isEmpty { lines.append("only in baseline: \(onlyInBaseline.count) configuration(s)") }
        if !onlyInCandidate.isEmpty { lines.append("only in candidate: \(onlyInCandidate.count) configuration(s)") }
        return lines
    }

    /// The kinds of the gated failures, each once: `crashed, timed out`.
    private var failedKindsText: String {
        let kinds = Set(failures.filter(\.gated).map(\.kind))
        return ConfigurationFailure.Kind.allCases.filter(kinds.contains).map(\.words).joined(separator: ", ")
    }

    mutating func decideOutcome(gateOnWork: Bool) {
        gatesOnWork = gateOnWork
        if comparisons.contains(where: { $0.gated && $0.verdict == .slower }) || (gateOnWork && workChanges.contains { $0.grew && $0.gated })
            || spanChanges.contains(where: \.gated) || failures.contains(where: \.gated) {
            outcome = .regressed
        } else if !undecided.isEmpty {
            outcome = .undecided
        }
    }

    /// Times in µs, ms or s with three significant digits; counts of a million or more in M
    /// or G and multiples of a calibration with four: enough to see a 5 % change, short
    /// enough for a table, never in e-notation.
    package func number(_ value: Double) -> String {
        if normalizedToCalibration { return String(format: "%.4g×", value) }
        if Self.secondsMetrics.contains(gate.metric) { return ReadableSeconds.text(value) }
        let magnitude = abs(value)
        return magnitude >= 1e9 ? String(format: "%.4g G", value / 1e9) : magnitude >= 1e6 ? String(format: "%.4g M", value / 1e6)
            : String(format: "%.0f", value)
    }

    private static let secondsMetrics: Set<Metric> = [.wallSeconds, .cpuSeconds, .cpuUserSeconds, .cpuSysSeconds, .blockedSeconds, .cpuAndBlockedSeconds]

    /// A ratio as a signed percent change, `1.123` → `+12.3 %`.
    package static func percent(_ ratio: Double, digits: Int = 1) -> String {
        String(format: "%+.\(digits)f %%", (ratio - 1) * 100)
    }

    package static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }

    private static func range(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)"
    }
}
