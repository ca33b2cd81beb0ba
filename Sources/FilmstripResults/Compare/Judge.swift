import Foundation

/// What the command line says over the judge's defaults (`--metric`, `--threshold`, `--gate`);
/// everything else is read from the files.
package struct JudgeSettings: Sendable, Hashable {
    /// The metric to judge; nil: what `bench --until-decided` recorded for the run, else the
    /// file's kind (instruction counts, or CPU and wall time together).
    package var metric: Metric?
    /// The relative change treated as noise; nil: as recorded, else the metric's default.
    package var threshold: Double?
    /// Two machines' runs judged as a regression gate instead of answering the hardware question.
    package var gateAcrossMachines: Bool

    package init(metric: Metric? = nil, threshold: Double? = nil, gateAcrossMachines: Bool = false) {
        self.metric = metric
        self.threshold = threshold
        self.gateAcrossMachines = gateAcrossMachines
    }
}

/// One answer about results files, made by ``Judge`` and nowhere else: `compare` (text,
/// Markdown, JSON), `report`, `plot` and `export` render it; none of them picks rows, a run, a
/// gate or a metric of its own.
package struct Judgement: Sendable {
    /// What was answered.
    package enum Answer: Sendable {
        /// The regression gate's verdict (two builds of one run, or two runs of one machine).
        case gate(GateReport)
        /// Two machines' runs: how much faster, and whether the ranking changed (no verdict).
        case hardware(HardwareComparison)
    }

    package var answer: Answer
    /// What was judged, in words: `wall and CPU time, two builds in results/x-raw.csv`.
    package var title: String
    /// Where the gate's settings came from when not from the command line.
    package var settingsNote: String?

    /// The gate's report; nil for the hardware answer.
    package var gateReport: GateReport? {
        if case .gate(let report) = answer { report } else { nil }
    }

    /// The outcome: the gate's, or passed for the hardware answer (it is no gate).
    package var outcome: GateOutcome { gateReport?.outcome ?? .passed }

    /// The process exit status, one per meaning (``GateOutcome/exitCode``).
    package var exitCode: Int32 { outcome.exitCode }

    /// The answer's first line: the gate's outcome line, or the hardware summary.
    package var headline: String {
        switch answer {
        case .gate(let report): report.outcomeLine
        case .hardware(let comparison): comparison.headlineLines[0]
        }
    }

    /// `passed`, `regressed`, `undecided`, `bad input` or `hardware`: the word every output leads with.
    package var verdictWord: String {
        switch answer {
        case .hardware: "hardware"
        case .gate(let report): Self.word(report.outcome)
        }
    }

    /// The outcome's word as every output prints it.
    package static func word(_ outcome: GateOutcome) -> String {
        switch outcome {
        case .passed: "passed"
        case .regressed: "regressed"
        case .undecided: "undecided"
        case .badInput: "bad input"
        }
    }

    /// The most severe of several judgements' outcomes: a regression, then input that could not
    /// be judged, then undecided; passed only when every one passed (the report over a CI run's
    /// two gates).
    package static func overallOutcome(_ judgements: [Judgement]) -> GateOutcome {
        let outcomes = judgements.map(\.outcome)
        if outcomes.contains(.regressed) { return .regressed }
        if let bad = outcomes.first(where: { if case .badInput = $0 { true } else { false } }) { return bad }
        return outcomes.contains(.undecided) ? .undecided : .passed
    }
}

/// The one place that decides what results files answer: which rows (each configuration's
/// newest run, ``NewestRun``; a failed run stays a fact), which question (the two builds of a
/// file; two runs of one machine; two machines), which gate (the command line's metric and
/// threshold, else what `bench --until-decided` recorded beside the file, else the file's kind)
/// and which labels. Every command renders its ``Judgement``s.
package enum Judge {
    /// `compare`'s question: one file, its two builds pair by pair; two files, two machines'
    /// hardware answer (unless ``JudgeSettings/gateAcrossMachines``), else the gate over two runs.
    package static func compare(_ files: [RawResultsFile], settings: JudgeSettings = JudgeSettings()) -> Judgement {
        precondition((1...2).contains(files.count), "compare judges one file or two")
        if files.count == 1 { return twoBuilds(files[0], settings: settings) }
        if !settings.gateAcrossMachines, let hardware = hardware(files[0], files[1]) { return hardware }
        return separateRuns(files[0], files[1], settings: settings)
    }

    /// Everything the files answer, for `report` and `plot`: the two builds of each file that
    /// holds both (a CI run's instruction and time files are two such gates); otherwise, for
    /// two files, `compare`'s answer; otherwise, when the files' newest runs come from exactly
    /// two machines, the hardware answer; else nothing (a single run has no verdict).
    package static func judgements(of files: [RawResultsFile], settings: JudgeSettings = JudgeSettings()) -> [Judgement] {
        let twoBuildFiles = files.filter { file in
            let rows = file.rows ?? []
            return rows.contains { $0.build == .baseline } && rows.contains { $0.build == .candidate }
        }
        if !twoBuildFiles.isEmpty { return twoBuildFiles.map { twoBuilds($0, settings: settings) } }
        if files.count == 2 { return [compare(files, settings: settings)] }
        let rows = files.compactMap { try? $0.measurements.get() }.flatMap { $0 }
        guard !rows.contains(where: { $0.build != nil }), let split = HardwareComparison.splitByMachine(newestRunPerMachine(rows)) else { return [] }
        let sources = files.map(\.path).joined(separator: ", ")
        let comparison = HardwareComparison(baseline: split.baseline, candidate: split.candidate, baselinePath: sources, candidatePath: sources)
        return [Judgement(answer: .hardware(comparison), title: "wall time, \(comparison.candidate.name) against \(comparison.baseline.name)")]
    }

    /// The rows of each machine's newest run (by fingerprint id; ``NewestRun``'s order): what a
    /// report's tables and charts describe when the files hold several runs.
    package static func newestRunPerMachine(_ rows: [RawResultRow]) -> [RawResultRow] {
        let starts = NewestRun.starts(of: rows)
        var newest: [String: String] = [:]
        for row in rows {
            if let current = newest[row.run.machine.id], !NewestRun.precedes(current, row.run.runID, starts: starts) { continue }
            newest[row.run.machine.id] = row.run.runID
        }
        return rows.filter { newest[$0.run.machine.id] == $0.run.runID }
    }

    /// The gate for a file: each of metric and threshold from the command line, else as
    /// `bench --until-decided` recorded it beside the file for a run the file holds, else the
    /// defaults for the file's kind; and the line that says where recorded settings came from.
    /// Recorded settings that cannot be read are input that cannot be judged (thrown).
    package static func gate(for file: RawResultsFile, settings: JudgeSettings) throws(ResultsFileError) -> (RegressionGate, String?) {
        let rows = file.rows ?? []
        let recorded = try GateSettings.read(besideRaw: file.path)
        let usable = recorded.flatMap { recorded in rows.contains { $0.run.runID == recorded.runID } ? recorded : nil }
        var gate = settings.metric.map { RegressionGate(metric: $0) } ?? usable?.gate ?? RegressionGate.automatic(for: rows)
        // Pairs added by `--until-decided` were added by looking, whatever metric judges them now.
        if usable != nil { gate.pairCollection = .addedByLooking }
        if let threshold = settings.threshold {
            gate.threshold = threshold
        } else if let usable, settings.metric != nil, gate.metric != .instructions {
            gate.threshold = usable.threshold
        }
        guard let usable else {
            gate.pairCollection = nil
            return (gate, recorded.map { "gate settings beside the file are of run \($0.runID), which it does not hold: not used" })
        }
        let used = [settings.metric == nil ? "metrics" : nil, settings.threshold == nil ? "threshold" : nil].compactMap { $0 }
        let note = "gate settings recorded by `bench --until-decided` (run \(usable.runID)): \(usable.metrics.map(\.rawValue).joined(separator: " and ")) at \(String(format: "%g", usable.threshold * 100)) %"
            + (used.isEmpty ? "; overridden by --metric and --threshold" : "; used: \(used.joined(separator: ", "))")
        return (gate, note)
    }

    /// The two builds of one file, pair by pair.
    static func twoBuilds(_ file: RawResultsFile, settings: JudgeSettings) -> Judgement {
        let gate: RegressionGate, note: String?
        do {
            (gate, note) = try Self.gate(for: file, settings: settings)
        } catch {
            let fallback = RegressionGate.automatic(for: file.rows ?? [], threshold: settings.threshold)
            return Judgement(answer: .gate(GateReport(gate: fallback, outcome: .badInput(error.description))), title: "two builds in \(file.path)")
        }
        var report = gate.compareFile(file)
        report.settingsNote = note
        return Judgement(answer: .gate(report), title: "\(metricsTitle(gate)), two builds in \(file.path)", settingsNote: note)
    }

    /// Two runs of one machine (or two machines judged as a gate), each sample over its repetition's calibration.
    static func separateRuns(_ baseline: RawResultsFile, _ candidate: RawResultsFile, settings: JudgeSettings) -> Judgement {
        let rows = (baseline.rows ?? []) + (candidate.rows ?? [])
        var gate = settings.metric.map { RegressionGate(metric: $0) } ?? RegressionGate.automatic(for: rows)
        if let threshold = settings.threshold { gate.threshold = threshold }
        // The report's gate: separate runs judge the times they can (not the program's waiting).
        let report = gate.compareFiles(baseline, candidate)
        return Judgement(answer: .gate(report), title: "\(metricsTitle(report.gate)), \(candidate.path) against \(baseline.path)")
    }

    /// Two machines' files, answered as the hardware question; nil when the files are one
    /// machine's, cannot be read, or share no measured configuration (the gate then says why).
    static func hardware(_ baseline: RawResultsFile, _ candidate: RawResultsFile) -> Judgement? {
        guard let before = baseline.rows, let after = candidate.rows,
              HardwareComparison.differentMachines(before, after),
              HardwareComparison.haveCommonMeasurement(before, after) else { return nil }
        let comparison = HardwareComparison(baseline: before, candidate: after, baselinePath: baseline.path, candidatePath: candidate.path)
        return Judgement(answer: .hardware(comparison), title: "wall time, \(comparison.candidate.name) against \(comparison.baseline.name)")
    }

    /// `wall and CPU time`, `instruction counts`: what a gate judges, in words.
    package static func metricsTitle(_ gate: RegressionGate) -> String {
        gate.metric == .instructions ? "instruction counts" : gate.metrics.map(metricName).joined(separator: " and ")
    }

    /// A metric in words: `wall time`, `CPU time`, `instructions`.
    package static func metricName(_ metric: Metric) -> String {
        switch metric {
        case .wallSeconds: "wall time"
        case .cpuSeconds: "CPU time"
        case .cpuAndBlockedSeconds: "CPU plus blocked time"
        case .blockedSeconds: "blocked time"
        case .cpuUserSeconds: "user CPU time"
        case .cpuSysSeconds: "system CPU time"
        case .instructions: "instructions"
        default: metric.rawValue
        }
    }
}

/// The judgement's JSON form and its rendering choices (its text forms are `FilmstripReport`'s).
extension Judgement: Encodable {
    /// How a gate lists its configurations, and the text's width: rendering choices that
    /// change no verdict (`--only-changed`, `--all-phases`, the terminal's columns).
    package mutating func render(onlyChanged: Bool, allPhases: Bool, width: Int) {
        switch answer {
        case .gate(var report):
            (report.onlyChanged, report.allPhases, report.width) = (onlyChanged, allPhases, width)
            answer = .gate(report)
        case .hardware(var comparison):
            comparison.width = width
            answer = .hardware(comparison)
        }
    }

    /// `compare --format json`: the gate's object or the hardware one (docs/gate.md documents both).
    package var json: String {
        switch answer {
        case .gate(let report): report.json
        case .hardware(let comparison): comparison.json
        }
    }

    /// The same object as ``json``, for a caller that embeds the judgement in a document of its own.
    package func encode(to encoder: any Encoder) throws {
        switch answer {
        case .gate(let report): try report.document.encode(to: encoder)
        case .hardware(let comparison): try comparison.document.encode(to: encoder)
        }
    }
}

/// What a series of runs answers (`trend`): each machine's history and the one outcome, with
/// the exit statuses every judging command uses (0 passed, 2 a configuration ends on a step up,
/// 3 undecided, 1 input that cannot be judged).
package struct TrendJudgement: Sendable {
    package var histories: [MachineHistory]
    package var outcome: GateOutcome
    /// The closing line: the step-ups, or why nothing was decided; nil when every history passed.
    package var closingLine: String?
}

extension Judge {
    /// The runs of `files` as histories (``TrendAnalysis``): a configuration of the newest run on
    /// a step up is a regression; a machine or configuration with too few runs for the search
    /// leaves the newest run unjudged (undecided, never passed); an unreadable file or one with
    /// no timed repetition is bad input.
    package static func trend(_ files: [RawResultsFile], analysis: TrendAnalysis) -> TrendJudgement {
        var rows: [RawResultRow] = []
        for file in files {
            switch file.measurements {
            case .success(let fileRows): rows += fileRows
            case .failure(let error): return TrendJudgement(histories: [], outcome: .badInput(error.description))
            }
        }
        let histories = analysis.histories(of: rows)
        guard !histories.isEmpty else {
            return TrendJudgement(histories: [], outcome: .badInput("\(files.map(\.path).joined(separator: ", ")): no successful timed repetitions"))
        }
        let slower = histories.map(\.gatedEndingOnStepUp.count).reduce(0, +)
        let undecided = histories.filter { $0.runs.count < analysis.minimumRuns }.count + histories.map(\.tooShort.count).reduce(0, +)
        if slower > 0 {
            return TrendJudgement(histories: histories, outcome: .regressed, closingLine: "\(slower) configuration(s) end on a step up (slower)")
        }
        if undecided > 0 {
            return TrendJudgement(histories: histories, outcome: .undecided, closingLine: "undecided: \(undecided) machine(s) or configuration(s) have fewer than \(analysis.minimumRuns) runs, "
                + "too few for any step to reach p ≤ \(analysis.detector.significance)")
        }
        return TrendJudgement(histories: histories, outcome: .passed)
    }
}
