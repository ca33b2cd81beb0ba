/// The gate's overall answer, which the `compare` command turns into its exit status.
package enum GateOutcome: Sendable, Hashable {
    /// No configuration got slower (exit 0).
    case passed
    /// At least one configuration got slower beyond the threshold (exit 2).
    case regressed
    /// Nothing got slower, but some gated configurations could not be decided with the
    /// pairs measured: not a pass (exit 3, the undecided ones listed).
    case undecided
    /// The inputs cannot be judged: an unreadable or missing file, not a results file, no rows
    /// of both builds, every run of a build failed, nothing in common, or different machines
    /// without shared calibration rows (exit 1).
    case badInput(String)

    /// The process exit status for this outcome, one per meaning: 0 passed, 2 slower (or more
    /// work), 3 undecided (the pairs measured could not tell), 1 nothing could be judged. A CI
    /// job that lets "undecided" through as a warning must still block on 1: a gate that
    /// measured nothing is no pass.
    package var exitCode: Int32 {
        switch self {
        case .passed: 0
        case .regressed: 2
        case .undecided: 3
        case .badInput: 1
        }
    }
}

/// How one configuration changed between baseline and candidate.
///
/// For metrics where lower is better (times, memory) `slower` means the value
/// grew; for throughput it means the value shrank.
package enum Verdict: String, Sendable, Hashable, Codable {
    case faster, slower, same
    /// Not enough evidence either way yet: more pairs are needed (`bench --until-decided`).
    case undecided
}
