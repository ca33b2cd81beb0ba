import Foundation

extension GateReport {
    /// Version of the `compare --format json` shape; raised only when a key changes meaning
    /// or goes away (new keys may be added within a version).
    package static let jsonSchemaVersion = 2

    /// The report as one JSON object (`compare --format json`; the README documents every key).
    /// Keys are snake_case and sorted; absent values are `null`, never missing keys.
    package var json: String {
        let object = jsonObject
        // Every number here is a finite ratio or time (the gate refuses other input), so this cannot fail.
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return #"{"schema_version":2,"outcome":"bad_input","error":"the report cannot be written as JSON"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    var jsonObject: [String: Any] {
        let error: Any = if case .badInput(let reason) = outcome { reason } else { NSNull() }
        return [
            "schema_version": Self.jsonSchemaVersion,
            "outcome": Self.outcomeName(outcome),
            "exit_status": Int(outcome.exitCode),
            "summary": outcomeLine,
            "error": error,
            "form": formName,
            "metric": gate.metric.rawValue,
            "metrics": gate.metrics.map(\.rawValue),
            "threshold": gate.threshold,
            "level": gate.level,
            "family_size": familySize as Any? ?? NSNull(),
            "pair_collection": pairCollection?.rawValue as Any? ?? NSNull(),
            "undecided": undecidedConfigurations.map(\.description),
            "normalised_to_calibration": normalizedToCalibration,
            "baseline_commits": baselineCommits,
            "candidate_commits": candidateCommits,
            "machines": machines.map { ["baseline": $0.baseline, "candidate": $0.candidate] as Any } ?? NSNull(),
            "calibration": calibrationChange.map {
                ["kind": $0.kind.rawValue, "ratio": $0.ratio, "ratio_low": $0.low, "ratio_high": $0.high] as [String: Any]
            },
            "warnings": warnings,
            "configurations_compared": comparisons.count,
            "only_changed": onlyChanged,
            "configurations": (onlyChanged ? changed : comparisons).map(Self.jsonObject),
            "work_changes": workChanges.map { change in
                [
                    "configuration": change.key.description, "config_id": change.key.configID,
                    "counter": change.counter.rawValue,
                    "baseline_min": change.baseline.lowerBound, "baseline_max": change.baseline.upperBound,
                    "candidate_min": change.candidate.lowerBound, "candidate_max": change.candidate.upperBound,
                    "grew": change.grew, "gated": gatesOnWork && change.gated, "scheduled": change.scheduled,
                ] as [String: Any]
            },
            "span_changes": spanChanges.map { change in
                [
                    "configuration": change.key.description, "config_id": change.key.configID, "phase": change.key.phase.rawValue,
                    "baseline_span": change.baseline, "candidate_span": change.candidate, "ratio": change.ratio, "grew": change.grew, "gated": change.gated,
                    "baseline_instructions": change.baselineWork as Any? ?? NSNull(),
                    "candidate_instructions": change.candidateWork as Any? ?? NSNull(),
                ] as [String: Any]
            },
            "failures": failures.map { failure in
                [
                    "configuration": failure.key.description, "config_id": failure.key.configID,
                    "failed_build": failure.side.rawValue, "failure": failure.kind.rawValue, "error": failure.reason,
                    "failed_runs": failure.failedRuns, "other_build_runs": failure.otherSideRuns, "gated": failure.gated,
                ] as [String: Any]
            },
            "only_in_baseline": onlyInBaseline.map(\.description),
            "only_in_candidate": onlyInCandidate.map(\.description),
        ]
    }

    private static func jsonObject(_ comparison: ConfigurationComparison) -> [String: Any] {
        let key = comparison.key
        return [
            "configuration": key.description, "config_id": key.configID, "metric": comparison.metric.rawValue,
            "pipeline": key.pipeline.description, "extractor": key.pipeline.extractor, "composer": key.pipeline.composer,
            "options": key.options.values,
            "video_id": key.videoID, "frame_count": key.thumbnailCount, "thumb_width": key.thumbWidth,
            "thumb_height": key.thumbHeight, "accuracy": key.accuracy.description, "phase": key.phase.rawValue,
            "baseline_median": comparison.baselineMedian, "candidate_median": comparison.candidateMedian,
            "ratio": comparison.ratio, "ratio_low": comparison.ratioLow, "ratio_high": comparison.ratioHigh,
            "coverage": comparison.coverage,
            "decision_low": comparison.decisionLow, "decision_high": comparison.decisionHigh,
            "n": comparison.count, "verdict": comparison.verdict.rawValue, "gated": comparison.gated,
            "evidence_grew": comparison.evidenceGrew, "evidence_shrank": comparison.evidenceShrank,
            "evidence_within": comparison.evidenceWithin,
            "p_grew": comparison.pGrew, "p_shrank": comparison.pShrank, "p_within": comparison.pWithin,
            "attribution": comparison.attribution.map {
                ["function": $0.function.name, "object": $0.function.object, "instructions": $0.instructions,
                 "percentage_points": $0.percentagePoints] as [String: Any]
            },
            "normalised_by": comparison.normalisedBy?.rawValue as Any? ?? NSNull(),
            "unnormalised": comparison.unnormalised.map { ["ratio": $0.ratio, "ratio_low": $0.low, "ratio_high": $0.high] as Any } ?? NSNull(),
        ]
    }

    private static func outcomeName(_ outcome: GateOutcome) -> String {
        switch outcome {
        case .passed: "passed"
        case .regressed: "regressed"
        case .undecided: "undecided"
        case .badInput: "bad_input"
        }
    }

    private var formName: String {
        switch form {
        case .paired: "paired"
        case .separateRuns(sameMachine: true): "separate_runs_same_machine"
        case .separateRuns(sameMachine: false): "separate_runs_different_machines"
        case .separateRunsUnnormalised: "separate_runs_unnormalised"
        }
    }
}
