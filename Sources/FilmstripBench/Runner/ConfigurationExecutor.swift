import FilmstripResults

/// What runs one configuration once and reports how it went: the seam between ``BenchSession``
/// (order, pairs, retries, rows) and the processes that do the work.
///
/// ``ChildRunner`` runs a `filmstrip bench-run` child; the tests give the session a fake that
/// answers at once, so the session's own logic is tested in milliseconds (as hyperfine's
/// `Executor` trait and its `MockExecutor`).
package protocol ConfigurationExecutor: Sendable {
    /// Runs `configuration` once, waiting at most `timeLimit` seconds; a signal recorded in
    /// `interruption` ends the run as ``RunOutcome/interrupted``.
    func run(_ configuration: BenchConfiguration, timeLimit: Double, interruption: Interruption) -> RunOutcome
}

/// How one run of one configuration ended.
package enum RunOutcome: Sendable {
    /// The run's measurement, and its instruction profile when run under callgrind.
    case measured(BenchMeasurement, InstructionProfile?)
    /// The run failed; the text says why (written to the row's `error` cell).
    case failed(String)
    /// The run exceeded its time limit and was ended.
    case timedOut
    /// SIGINT or SIGTERM ended the run: the session stops.
    case interrupted
}
