import Foundation

/// A configuration whose span (the instructions of its busiest thread, ``InstructionSpan``)
/// changed between the builds of an instruction run beyond the gate's threshold.
///
/// Judged exactly as the phase's total instructions are (one run is a measurement: the
/// threshold and ``RegressionGate/instructionFloor``), but on its own: work that moves onto
/// one thread (workers forced to one, a serial section) leaves the total where it was and makes
/// the span grow, and a grown `extract` span fails the gate like added work (``gated``).
/// Waiting (a lock, a sleep) executes no instructions: only the wall-time gate sees it.
package struct SpanChange: Sendable, Hashable {
    package var key: ConfigurationKey
    /// Median span of each build, in instructions.
    package var baseline: Double
    package var candidate: Double
    /// The phase's total instructions of each build (the work), for the text's context.
    package var baselineWork: Double?
    package var candidateWork: Double?

    package var ratio: Double { candidate / baseline }
    package var grew: Bool { candidate > baseline }

    /// A grown `extract` span fails the gate. Instruction runs deal the task group's parts to
    /// its workers before decoding (`Callgrind.fixedWorkerSharesVariable`), so what each worker
    /// decodes does not depend on how valgrind, which runs one thread at a time, schedules them;
    /// with the shared queue one worker could drain it first (a two-worker `extract` read
    /// parallelism 1.04 in one CI run and about 2 in another). The `process` span is shown only:
    /// it counts pool threads that outlive the phases and start-up work that lands on whichever
    /// thread runs it (an identical-build gate read +13.5 %). A span that shrank is shown only.
    package var gated: Bool { grew && key.phase == .extract }

    /// `span grew: taskgroup+rowcopy … extract: span 41.2 M → 80.9 M instructions (+96.3 %), work +0.02 % (parallelism 1.96 → 1.00)`;
    /// a change that cannot fail the gate reads `span moved (shown, not gated): …`, and is listed
    /// after the table, never among the verdict's lines (an identical build's `process` span moves).
    package var text: String {
        var line = "span \(gated ? "grew" : "moved (shown, not gated)"): \(key): span \(Self.count(baseline)) → \(Self.count(candidate)) instructions "
            + "(\(GateReport.percent(ratio, digits: 1)))"
        if let baselineWork, let candidateWork, baselineWork > 0, baseline > 0, candidate > 0 {
            line += ", work \(GateReport.percent(candidateWork / baselineWork, digits: 2))"
                + String(format: " (parallelism %.2f → %.2f)", baselineWork / baseline, candidateWork / candidate)
        }
        return line
    }

    static func count(_ value: Double) -> String {
        value >= 1e9 ? String(format: "%.3g G", value / 1e9) : value >= 1e6 ? String(format: "%.3g M", value / 1e6) : String(format: "%.0f", value)
    }
}

extension RegressionGate {
    /// The span changes of an instruction run's two builds: for each configuration and phase
    /// with a span in both, the medians' ratio beyond the threshold and at least
    /// ``instructionFloor`` instructions apart (as ``instructionComparisons``).
    func spanChanges(baseline: [RawResultRow], candidate: [RawResultRow]) -> [SpanChange] {
        func medians(_ rows: [RawResultRow], _ value: (RawResultRow) -> Int?) -> [ConfigurationKey: Double] {
            Dictionary(grouping: rows.filter { $0.status == .ok }, by: \.configurationKey).compactMapValues { group in
                let values = group.compactMap(value).map(Double.init).sorted()
                return values.isEmpty ? nil : Quantile.median(sorted: values)
            }
        }
        let before = medians(baseline, \.spanInstructions), after = medians(candidate, \.spanInstructions)
        let beforeWork = medians(baseline, \.instructions), afterWork = medians(candidate, \.instructions)
        return Set(before.keys).intersection(after.keys).sorted().compactMap { key in
            let old = before[key]!, new = after[key]!
            guard old > 0, !key.kind.isReference, abs(new - old) >= Self.instructionFloor,
                  new / old > 1 + threshold || new / old < 1 - threshold else { return nil }
            return SpanChange(key: key, baseline: old, candidate: new, baselineWork: beforeWork[key], candidateWork: afterWork[key])
        }
    }
}
