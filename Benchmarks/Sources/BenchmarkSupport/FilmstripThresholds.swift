import Benchmark

/// How far a run may drift from the p90 values committed in `Thresholds/` before
/// `swift package benchmark thresholds check` calls it a regression (or an improvement).
///
/// Only allocation counts are gated: `thresholds check` (1.38.1) checks the metrics a
/// `Thresholds/*.p90.json` file names, and those files name only `mallocCountTotal`. Wall
/// and CPU time are still measured and printed, but on a shared runner they move by ±100 %
/// between runs; `filmstrip bench --baseline-rev` with `filmstrip compare` judges time.
public enum FilmstripThresholds {
    /// Computed rather than stored: `BenchmarkThresholds` is not `Sendable`, so a stored
    /// static would be shared mutable state under Swift 6.
    public static var tolerances: [BenchmarkMetric: BenchmarkThresholds] {
        [
            // Allocation counts are the same on every run of one build (a composer's are exact;
            // a decode's vary by a few with thread timing), so 2 % is a change of the code.
            .mallocCountTotal: .init(relative: [.p90: 2]),
        ]
    }

    /// The composers' counts are tiny (16 per strip, the harness's own) and `stream`'s moves
    /// by 2 between runs (measured: 18 and 20), so they get ±4 allocations: an allocation per
    /// thumbnail would be +500.
    public static var composerTolerances: [BenchmarkMetric: BenchmarkThresholds] {
        [.mallocCountTotal: .init(absolute: [.p90: 4])]
    }
}
