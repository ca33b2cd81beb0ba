import Foundation

/// A configuration that failed on one side of a comparison and not on the other: its child
/// crashed, exited non-zero or ran past the time limit (an `error` row), or its strip disagreed
/// with the other pipelines' for the same request (an `ok` row marked `disagreement`).
///
/// `bench` drops a configuration from later repetitions, for both builds, once a run of it
/// fails, so a failed configuration has few or no pairs: judged on its times alone it would
/// vanish from the comparison and the gate would pass what it never saw. Failing where the
/// baseline did not is the worst regression a candidate can have, so the gate judges it here,
/// beside the times.
package struct ConfigurationFailure: Sendable, Hashable {
    /// How a run failed, read from the row.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Killed by a signal (a crash: SIGSEGV, SIGABRT, a trap).
        case crashed
        /// Exited with a status other than 0.
        case exited
        /// Ran past the run's time limit and was killed.
        case timedOut = "timed_out"
        /// Made a strip that differs from the other pipelines' for the same exact request, or
        /// showed another frame than the one planned.
        case wrongOutput = "wrong_output"
        /// Any other failure (the child could not start, printed no measurement, ...).
        case failed

        /// The kind of a failed row: its `error` text as `bench` writes it, or its `disagreement` flag.
        init(_ row: RawResultRow) {
            if row.status == .ok {
                self = .wrongOutput
            } else if row.error.contains("killed by signal") {
                self = .crashed
            } else if row.error.contains("exit status") {
                self = .exited
            } else if row.error.contains("time limit") {
                self = .timedOut
            } else {
                self = .failed
            }
        }

        /// In words, for a headline: `crashed`, `exited non-zero`, `timed out`, `wrong output`, `failed`.
        package var words: String {
            switch self {
            case .crashed: "crashed"
            case .exited: "exited non-zero"
            case .timedOut: "timed out"
            case .wrongOutput: "wrong output"
            case .failed: "failed"
            }
        }
    }

    /// The configuration, at the phase the gate judges (a pipeline's `total`).
    package var key: ConfigurationKey
    /// Which side failed: the candidate (a regression) or the baseline (fixed by the candidate).
    package var side: BuildRole
    package var kind: Kind
    /// The first failure's text (`child killed by signal 11`), or what the strip disagreed with.
    package var reason: String
    /// Runs of the configuration that failed on that side, and runs that measured on the other.
    package var failedRuns: Int
    package var otherSideRuns: Int
    /// `true` when it fails the gate: the candidate failed where the baseline did not, and the
    /// configuration is filmstrip's own work (a peer or a calibration failing is shown, not gated).
    package var gated: Bool

    /// The failures between `baseline` and `candidate` rows (one build each, or one run each):
    /// configurations where one side has a failed run and the other has none. A configuration
    /// that failed on both sides is the same on both and not listed.
    static func between(baseline: [RawResultRow], candidate: [RawResultRow]) -> [ConfigurationFailure] {
        let before = FailedRuns(baseline), after = FailedRuns(candidate)
        var failures: [ConfigurationFailure] = []
        for (side, failing, other) in [(BuildRole.candidate, after, before), (.baseline, before, after)] {
            for (key, rows) in failing.failed where other.failed[key] == nil {
                let first = rows.min { ($0.repetition, $0.timestamp) < ($1.repetition, $1.timestamp) }!
                let kind = Kind(first)
                let reason = kind == .wrongOutput
                    ? "its strip \(first.checksum) differs from the other pipelines' for the same request"
                    : first.error.split(whereSeparator: \.isNewline).joined(separator: " ")
                failures.append(ConfigurationFailure(
                    key: key, side: side, kind: kind, reason: String(reason.prefix(200)), failedRuns: rows.count,
                    otherSideRuns: other.measuredRuns[key] ?? 0, gated: side == .candidate && !key.kind.isReference))
            }
        }
        return failures.sorted { ($0.side == .candidate ? 0 : 1, $0.key) < ($1.side == .candidate ? 0 : 1, $1.key) }
    }

    /// One line: `failed: NAME: the candidate crashed (child killed by signal 11) in 1 run; the baseline measured 2`.
    func text(name: String) -> String {
        let other = side == .candidate ? "baseline" : "candidate"
        let prefix = gated ? "failed" : side == .baseline ? "fixed (not gated)" : "failed (a reference, not gated)"
        return "\(prefix): \(name): the \(side.rawValue) \(kind.words) (\(reason)) in \(failedRuns) run(s); the \(other) measured \(otherSideRuns)"
    }
}

/// One side's failed runs per configuration, each configuration once at the phase the gate
/// judges (a failed run writes a row for every phase it would have timed).
private struct FailedRuns {
    var failed: [ConfigurationKey: [RawResultRow]] = [:]
    var measuredRuns: [ConfigurationKey: Int] = [:]

    init(_ rows: [RawResultRow]) {
        let keys = Set(rows.map(\.configurationKey))
        for row in rows where RegressionGate.isGated(row.configurationKey, among: keys) || row.configurationKey.kind.isReference {
            if row.status == .error || (row.status == .ok && row.disagreement) {
                failed[row.configurationKey, default: []].append(row)
            } else if row.status == .ok {
                measuredRuns[row.configurationKey, default: 0] += 1
            }
        }
    }
}
