/// Seconds left in a bench session, learnt from the session's own runs rather than from the
/// children's reported times (which leave out most of what a run costs: issue 46 saw an ETA
/// of 1:54 for a run that took 4:37).
///
/// Each run of a configuration under one build is timed from the end of the run before it to
/// its own end, so everything the session spends on it counts: the child's start, probing and
/// exit, the parent's recording of its rows, the load check and the pause between runs. A run
/// still to come costs the mean of the same run's times so far; one not seen yet (the first
/// round), the mean of its configuration under the other build, else of every run so far.
package struct RemainingTime: Sendable {
    /// One configuration (its position in the session's list) under one build (its index).
    package struct Run: Hashable, Sendable {
        /// The configuration's position in the session's list.
        package var configuration: Int
        /// The build's index in the session's builds.
        package var build: Int

        /// The run of `configuration` under `build`.
        package init(configuration: Int, build: Int) {
            self.configuration = configuration
            self.build = build
        }
    }

    /// A sum of run times and how many were added.
    private struct Tally: Sendable {
        var seconds = 0.0
        var count = 0
        var mean: Double? { count > 0 ? seconds / Double(count) : nil }
        mutating func add(_ value: Double) {
            seconds += value
            count += 1
        }
    }

    private var byRun: [Run: Tally] = [:]
    private var byConfiguration: [Int: Tally] = [:]
    private var overall = Tally()
    /// When the previous run ended (at first, when the session's first run started), in seconds
    /// on the session's clock.
    private var previousEnd: Double

    /// An estimate that learns from runs starting at `start` (seconds on the session's clock).
    package init(start: Double) {
        previousEnd = start
    }

    /// `run` ended at `now`: the time since the previous run ended is learnt as its cost.
    package mutating func finished(_ run: Run, at now: Double) {
        let seconds = Swift.max(0, now - previousEnd)
        previousEnd = now
        byRun[run, default: Tally()].add(seconds)
        byConfiguration[run.configuration, default: Tally()].add(seconds)
        overall.add(seconds)
    }

    /// Whether `configuration` has run under any build, so its cost is its own, not a guess.
    package func hasRun(configuration: Int) -> Bool { byConfiguration[configuration] != nil }

    /// What one run of `run` is expected to cost; nil before any run has ended.
    package func seconds(of run: Run) -> Double? {
        byRun[run]?.mean ?? byConfiguration[run.configuration]?.mean ?? overall.mean
    }

    /// Seconds the runs in `upcoming` are expected to take; nil before any run has ended.
    package func seconds(of upcoming: some Sequence<Run>) -> Double? {
        guard overall.count > 0 else { return nil }
        return upcoming.reduce(0) { $0 + (seconds(of: $1) ?? 0) }
    }

    /// Seconds left when `thisRound` (its runs not yet started) is followed by `laterRounds`
    /// full passes over `everyRound`; nil before any run has ended.
    package func seconds(thisRound: some Sequence<Run>, laterRounds: Int, everyRound: some Sequence<Run>) -> Double? {
        guard let now = seconds(of: thisRound) else { return nil }
        return laterRounds > 0 ? now + Double(laterRounds) * (seconds(of: everyRound) ?? 0) : now
    }
}
