import FilmstripResults
import Foundation

/// `bench --until-decided`: after the planned repetitions of a two-build time run, one more
/// pair for every configuration the gate cannot decide yet, round after round, until each is
/// decided in every metric the gate judges (CPU and wall time by default), one is decided
/// slower (the gate fails then whatever the rest show), the time budget is spent or a
/// configuration has `maxPairs` pairs.
///
/// Stopping when the evidence suffices is valid only because the gate's evidence is
/// anytime-valid (``BettingEvidence``): the same fixed-n test applied after every pair would
/// call unchanged code slower far more often than its level. The rule here is the gate's own
/// (`compare FILE` with the same metric and threshold reaches the same verdicts).
package struct UntilDecided: Sendable {
    package var gate: RegressionGate
    /// Wall-clock budget of the whole run, planned repetitions included.
    package var maxSeconds: Double
    package var maxPairs: Int

    /// Pairs of one configuration at most, unless `--max-pairs` says otherwise. The time budget
    /// is the real bound; this one only stops a configuration that will never be decided. At
    /// 100, every A/A gate of the quick suite on the 2-core box ended undecided (exit 3): the
    /// multithreaded synthetic compositions (a few ms, CPU-time noise ~15 % a pair) had
    /// intervals of about ±4 % there, short of "within ±5 %" (5 of 5 gates, 5–8 min each). At
    /// 400 the same gate passed after 207 pairs in 7:49, inside the 20-minute budget.
    package static let defaultMaxPairs = 400

    package init(gate: RegressionGate, maxSeconds: Double, maxPairs: Int = defaultMaxPairs) {
        self.gate = gate
        // The pairs it adds are added by looking: only the anytime-valid evidence may stop them.
        self.gate.pairCollection = .addedByLooking
        self.maxSeconds = maxSeconds
        self.maxPairs = maxPairs
    }

    enum Next: Equatable {
        case decided
        case stopped(String)
        /// Run these configurations (positions in the session's list) once more under each build.
        case more([Int])
    }

    /// The line after each round of added pairs where no progress line is shown (CI logs): how
    /// many configurations are still open, of how many, and the time against the budget.
    static func progressLine(pairs: Int, open: Int, of total: Int, elapsed: Double, budget: Double) -> String {
        "bench: after pair \(pairs): \(open) of \(total) configuration(s) still undecided, one more pair each "
            + "(\(BenchProgress.clock(elapsed)) of \(BenchProgress.clock(budget)))"
    }

    func nextRound(rows: [RawResultRow], positionOfKey: [ConfigurationKey: Int], dropped: Set<Int>,
                   pairsSoFar: Int, elapsed: Double) -> Next {
        let report = gate.comparePaired(rows)
        // A configuration decided slower fails the gate whatever the undecided ones show:
        // more pairs would only cost the CI run time.
        if report.outcome == .regressed {
            return .stopped("\(report.slowerConfigurations.count) configuration(s) decided slower: the gate fails whatever the \(report.undecidedConfigurations.count) undecided one(s) would show")
        }
        let positions = Set(report.undecided.compactMap { positionOfKey[$0.key] }).subtracting(dropped).sorted()
        guard !positions.isEmpty else { return .decided }
        if pairsSoFar >= maxPairs {
            return .stopped("\(positions.count) configuration(s) still undecided after \(pairsSoFar) pairs (the most per configuration)")
        }
        if elapsed >= maxSeconds {
            return .stopped("\(positions.count) configuration(s) still undecided when the \(Int(maxSeconds / 60)) min budget ran out")
        }
        return .more(positions)
    }
}
