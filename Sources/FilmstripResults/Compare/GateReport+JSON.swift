import Foundation

extension GateReport {
    /// Version of the `compare --format json` shape; raised only when a key changes meaning
    /// or goes away (new keys may be added within a version).
    package static let jsonSchemaVersion = 2

    /// The report as one JSON object (`compare --format json`; docs/gate.md documents every key).
    /// Keys are snake_case and sorted; absent values are `null`, never missing keys.
    package var json: String {
        // Every number here is a finite ratio or time (the gate refuses other input), so this cannot fail.
        (try? JSONText.encoded(document))
            ?? #"{"schema_version":2,"outcome":"bad_input","error":"the report cannot be written as JSON"}"#
    }

    /// The report as `compare --format json` writes it.
    package var document: Document { Document(self) }

    /// `compare --format json`'s object: the report's verdicts, settings and every
    /// configuration's figures, in the units docs/gate.md gives. Each property is written under
    /// its snake_case key (``CodingKeys``), the name docs/gate.md's table documents.
    package struct Document: Encodable, Sendable {
        /// ``GateReport/jsonSchemaVersion``.
        package var schemaVersion = GateReport.jsonSchemaVersion
        /// `passed`, `regressed`, `undecided` or `bad_input`.
        package var outcome: String
        /// What `compare` exits with: 0, 2, 3 or 1, as ``GateOutcome/exitCode``.
        package var exitStatus: Int
        /// The verdict line the text starts with.
        package var summary: String
        /// Why the input could not be judged (`bad_input` only).
        @NullWhenAbsent package var error: String?
        /// `paired`, `separate_runs_same_machine`, `separate_runs_different_machines` or `separate_runs_unnormalised`.
        package var form: String
        /// The gate's first metric (a raw column name) and every metric it judges.
        package var metric: String
        package var metrics: [String]
        /// The relative change treated as noise and the confidence level.
        package var threshold: Double
        package var level: Double
        /// Paired times: the gated entries judged together (``GateReport/familySize``).
        @NullWhenAbsent package var familySize: Int?
        /// Paired times: `fixed_n` or `added_by_looking` (``PairCollection``).
        @NullWhenAbsent package var pairCollection: String?
        /// The gated configurations left undecided, by name.
        package var undecided: [String]
        package var normalisedToCalibration: Bool
        /// The commits the executables were built from (paired form).
        package var baselineCommits: [String]
        package var candidateCommits: [String]
        @NullWhenAbsent package var machines: Machines?
        package var calibration: [Calibration]
        package var warnings: [String]
        /// Comparisons made, whether or not ``configurations`` lists them all.
        package var configurationsCompared: Int
        package var onlyChanged: Bool
        /// Every comparison, or only the changed ones with `onlyChanged`.
        package var configurations: [Configuration]
        package var workChanges: [Work]
        package var spanChanges: [Span]
        package var failures: [Failure]
        /// Configurations one side measured and the other did not, by name.
        package var onlyInBaseline: [String]
        package var onlyInCandidate: [String]

        enum CodingKeys: String, CodingKey {
            case schemaVersion = "schema_version", outcome, exitStatus = "exit_status", summary, error, form, metric, metrics
            case threshold, level, familySize = "family_size", pairCollection = "pair_collection", undecided
            case normalisedToCalibration = "normalised_to_calibration", baselineCommits = "baseline_commits"
            case candidateCommits = "candidate_commits", machines, calibration, warnings
            case configurationsCompared = "configurations_compared", onlyChanged = "only_changed", configurations
            case workChanges = "work_changes", spanChanges = "span_changes", failures
            case onlyInBaseline = "only_in_baseline", onlyInCandidate = "only_in_candidate"
        }

        /// The two runs' machines with core counts (separate runs).
        package struct Machines: Encodable, Sendable {
            package var baseline: String
            package var candidate: String
        }

        /// One calibration workload's candidate / baseline time with its interval (separate runs).
        package struct Calibration: Encodable, Sendable {
            package var kind: String
            package var ratio: Double
            package var ratioLow: Double
            package var ratioHigh: Double

            enum CodingKeys: String, CodingKey {
                case kind, ratio, ratioLow = "ratio_low", ratioHigh = "ratio_high"
            }
        }

        init(_ report: GateReport) {
            outcome = Self.outcomeName(report.outcome)
            exitStatus = Int(report.outcome.exitCode)
            summary = report.outcomeLine
            error = if case .badInput(let reason) = report.outcome { reason } else { nil }
            form = Self.formName(report.form)
            metric = report.gate.metric.rawValue
            metrics = report.gate.metrics.map(\.rawValue)
            threshold = report.gate.threshold
            level = report.gate.level
            familySize = report.familySize
            pairCollection = report.pairCollection?.rawValue
            undecided = report.undecidedConfigurations.map(\.description)
            normalisedToCalibration = report.normalizedToCalibration
            baselineCommits = report.baselineCommits
            candidateCommits = report.candidateCommits
            machines = report.machines.map { Machines(baseline: $0.baseline, candidate: $0.candidate) }
            calibration = report.calibrationChange.map { Calibration(kind: $0.kind.rawValue, ratio: $0.ratio, ratioLow: $0.low, ratioHigh: $0.high) }
            warnings = report.warnings
            configurationsCompared = report.comparisons.count
            onlyChanged = report.onlyChanged
            configurations = (report.onlyChanged ? report.changed : report.comparisons).map(Configuration.init)
            workChanges = report.workChanges.map { Work($0, gatesOnWork: report.gatesOnWork) }
            spanChanges = report.spanChanges.map(Span.init)
            failures = report.failures.map(Failure.init)
            onlyInBaseline = report.onlyInBaseline.map(\.description)
            onlyInCandidate = report.onlyInCandidate.map(\.description)
        }

        private static func outcomeName(_ outcome: GateOutcome) -> String {
            switch outcome {
            case .passed: "passed"
            case .regressed: "regressed"
            case .undecided: "undecided"
            case .badInput: "bad_input"
            }
        }

        private static func formName(_ form: Form) -> String {
            switch form {
            case .paired: "paired"
            case .separateRuns(sameMachine: true): "separate_runs_same_machine"
            case .separateRuns(sameMachine: false): "separate_runs_different_machines"
            case .separateRunsUnnormalised: "separate_runs_unnormalised"
            }
        }
    }
}

extension GateReport.Document {
    /// One configuration and metric: the key's parts, both medians, the ratio with its interval,
    /// the evidence and p-values behind the verdict (``ConfigurationComparison``'s figures under
    /// the keys docs/gate.md lists for `configurations`).
    package struct Configuration: Encodable, Sendable {
        package var configuration: String
        package var configID: String
        package var metric: String
        package var pipeline: String
        package var extractor: String
        package var composer: String
        package var options: [String: String]
        package var videoID: String
        package var frameCount: Int
        package var thumbWidth: Int
        package var thumbHeight: Int
        package var accuracy: String
        package var phase: String
        package var baselineMedian: Double
        package var candidateMedian: Double
        package var ratio: Double
        package var ratioLow: Double
        package var ratioHigh: Double
        package var coverage: Double
        /// The interval the verdict used: the ratio's own, written again under the name readers
        /// of schema 2 know.
        package var decisionLow: Double
        package var decisionHigh: Double
        /// Pairs, or the smaller run's samples.
        package var n: Int
        package var verdict: String
        package var gated: Bool
        package var evidenceGrew: Double
        package var evidenceShrank: Double
        package var evidenceWithin: Double
        package var pGrew: Double
        package var pShrank: Double
        package var pWithin: Double
        package var attribution: [Attribution]
        @NullWhenAbsent package var normalisedBy: String?
        @NullWhenAbsent package var unnormalised: Ratio?

        enum CodingKeys: String, CodingKey {
            case configuration, configID = "config_id", metric, pipeline, extractor, composer, options
            case videoID = "video_id", frameCount = "frame_count", thumbWidth = "thumb_width", thumbHeight = "thumb_height"
            case accuracy, phase, baselineMedian = "baseline_median", candidateMedian = "candidate_median"
            case ratio, ratioLow = "ratio_low", ratioHigh = "ratio_high", coverage
            case decisionLow = "decision_low", decisionHigh = "decision_high", n, verdict, gated
            case evidenceGrew = "evidence_grew", evidenceShrank = "evidence_shrank", evidenceWithin = "evidence_within"
            case pGrew = "p_grew", pShrank = "p_shrank", pWithin = "p_within"
            case attribution, normalisedBy = "normalised_by", unnormalised
        }

        /// A function whose own instruction count moved (instruction gate).
        package struct Attribution: Encodable, Sendable {
            package var function: String
            package var object: String
            package var instructions: Int
            package var percentagePoints: Double

            enum CodingKeys: String, CodingKey {
                case function, object, instructions, percentagePoints = "percentage_points"
            }
        }

        /// A ratio with its interval: the raw one beside a normalised ratio (separate runs, parallel work).
        package struct Ratio: Encodable, Sendable {
            package var ratio: Double
            package var ratioLow: Double
            package var ratioHigh: Double

            enum CodingKeys: String, CodingKey {
                case ratio, ratioLow = "ratio_low", ratioHigh = "ratio_high"
            }
        }

        init(_ comparison: ConfigurationComparison) {
            let key = comparison.key
            configuration = key.description
            configID = key.configID
            metric = comparison.metric.rawValue
            pipeline = key.pipeline.description
            extractor = key.pipeline.extractor
            composer = key.pipeline.composer
            options = key.options.values
            videoID = key.videoID
            frameCount = key.thumbnailCount
            thumbWidth = key.thumbWidth
            thumbHeight = key.thumbHeight
            accuracy = key.accuracy.description
            phase = key.phase.rawValue
            baselineMedian = comparison.baselineMedian
            candidateMedian = comparison.candidateMedian
            ratio = comparison.ratio
            ratioLow = comparison.ratioLow
            ratioHigh = comparison.ratioHigh
            coverage = comparison.coverage
            decisionLow = comparison.ratioLow
            decisionHigh = comparison.ratioHigh
            n = comparison.count
            verdict = comparison.verdict.rawValue
            gated = comparison.gated
            evidenceGrew = comparison.evidenceGrew
            evidenceShrank = comparison.evidenceShrank
            evidenceWithin = comparison.evidenceWithin
            pGrew = comparison.pGrew
            pShrank = comparison.pShrank
            pWithin = comparison.pWithin
            attribution = comparison.attribution.map {
                Attribution(function: $0.function.name, object: $0.function.object, instructions: $0.instructions, percentagePoints: $0.percentagePoints)
            }
            normalisedBy = comparison.normalisedBy?.rawValue
            unnormalised = comparison.unnormalised.map { Ratio(ratio: $0.ratio, ratioLow: $0.low, ratioHigh: $0.high) }
        }
    }

    /// A work counter that changed between the builds: each build's range over its repetitions.
    package struct Work: Encodable, Sendable {
        package var configuration: String
        package var configID: String
        package var counter: String
        package var baselineMin: Int
        package var baselineMax: Int
        package var candidateMin: Int
        package var candidateMax: Int
        package var grew: Bool
        /// Whether it fails the gate: more work, on machines whose counters compare (`gatesOnWork`).
        package var gated: Bool
        package var scheduled: Bool

        enum CodingKeys: String, CodingKey {
            case configuration, configID = "config_id", counter, baselineMin = "baseline_min", baselineMax = "baseline_max"
            case candidateMin = "candidate_min", candidateMax = "candidate_max", grew, gated, scheduled
        }

        init(_ change: WorkChange, gatesOnWork: Bool) {
            configuration = change.key.description
            configID = change.key.configID
            counter = change.counter.rawValue
            baselineMin = change.baseline.lowerBound
            baselineMax = change.baseline.upperBound
            candidateMin = change.candidate.lowerBound
            candidateMax = change.candidate.upperBound
            grew = change.grew
            gated = gatesOnWork && change.gated
            scheduled = change.scheduled
        }
    }

    /// An instruction run's span (busiest thread) that moved beyond the threshold (``SpanChange``).
    package struct Span: Encodable, Sendable {
        package var configuration: String
        package var configID: String
        package var phase: String
        package var baselineSpan: Double
        package var candidateSpan: Double
        package var ratio: Double
        package var grew: Bool
        package var gated: Bool
        @NullWhenAbsent package var baselineInstructions: Double?
        @NullWhenAbsent package var candidateInstructions: Double?

        enum CodingKeys: String, CodingKey {
            case configuration, configID = "config_id", phase, baselineSpan = "baseline_span", candidateSpan = "candidate_span"
            case ratio, grew, gated, baselineInstructions = "baseline_instructions", candidateInstructions = "candidate_instructions"
        }

        init(_ change: SpanChange) {
            configuration = change.key.description
            configID = change.key.configID
            phase = change.key.phase.rawValue
            baselineSpan = change.baseline
            candidateSpan = change.candidate
            ratio = change.ratio
            grew = change.grew
            gated = change.gated
            baselineInstructions = change.baselineWork
            candidateInstructions = change.candidateWork
        }
    }

    /// A configuration that failed in one build only (``ConfigurationFailure``).
    package struct Failure: Encodable, Sendable {
        package var configuration: String
        package var configID: String
        /// `baseline` or `candidate`.
        package var failedBuild: String
        package var failure: String
        package var error: String
        package var failedRuns: Int
        package var otherBuildRuns: Int
        package var gated: Bool

        enum CodingKeys: String, CodingKey {
            case configuration, configID = "config_id", failedBuild = "failed_build", failure, error
            case failedRuns = "failed_runs", otherBuildRuns = "other_build_runs", gated
        }

        init(_ failure: ConfigurationFailure) {
            configuration = failure.key.description
            configID = failure.key.configID
            failedBuild = failure.side.rawValue
            self.failure = failure.kind.rawValue
            error = failure.reason
            failedRuns = failure.failedRuns
            otherBuildRuns = failure.otherSideRuns
            gated = failure.gated
        }
    }
}
