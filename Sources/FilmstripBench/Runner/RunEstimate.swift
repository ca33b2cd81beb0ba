import FilmstripResults
import Foundation

/// How long a bench run will take, said before the first child starts: the planned child runs
/// times the seconds a child run took in the latest earlier run of the same results file
/// (process start, video probing and the timed work together). Without an earlier run there
/// is nothing honest to multiply by, so the first round's time gives the estimate instead.
enum RunEstimate {
    /// Seconds per child run of the latest run in `rows`: the span between its first and last
    /// rows over the child runs after the first (whose start no row records); nil below two runs.
    static func secondsPerChildRun(earlier rows: [RawResultRow]) -> Double? {
        guard let latest = rows.max(by: { $0.timestamp < $1.timestamp })?.run.runID else { return nil }
        let run = rows.filter { $0.run.runID == latest }
        struct ChildRun: Hashable {
            var key: ConfigurationKey
            var repetition: Int
            var build: BuildRole?
        }
        // A child run writes one row per phase: the key without its phase names the run.
        let children = Set(run.map { row -> ChildRun in
            var key = row.configurationKey
            key.phase = .total
            return ChildRun(key: key, repetition: row.repetition, build: row.build)
        })
        guard children.count >= 2, let first = run.map(\.timestamp).min(), let last = run.map(\.timestamp).max() else { return nil }
        let span = last.timeIntervalSince(first)
        return span > 0 ? span / Double(children.count - 1) : nil
    }

    /// The sentence after the plan: the estimate, or why there is none yet.
    static func text(childRuns: Int, secondsPerChildRun: Double?, file: String) -> String {
        guard let secondsPerChildRun else { return "no earlier run in \(file) to estimate the time from: the first round's time gives one" }
        return "estimated \(BenchProgress.clock(Double(childRuns) * secondsPerChildRun)) "
            + "(\(String(format: "%.2g", secondsPerChildRun)) s a child run in the latest earlier run of \(file))"
    }
}
