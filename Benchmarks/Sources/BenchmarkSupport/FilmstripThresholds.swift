import Benchmark

/// How far a run may drift from the p90 values committed in `Thresholds/` before
/// `swift package benchmark thresholds check` calls it a regression (or an improvement).
public enum FilmstripThresholds {
    /// Computed rather than stored: `BenchmarkThresholds` is not `Sendable`, so a stored
    /// static would be shared mutable state under Swift 6.
    public static var tolerances: [BenchmarkMetric: BenchmarkThresholds] {
        [
            // Wall time on a shared 2-core VM moves by tens of percent between runs (a p90
            // of 17 ms read 30 ms with other builds running), so only twice as slow is flagged.
            .wallClock: .init(relative: [.p90: 100]),
            // CPU time is counted in 10 ms scheduler ticks, about the length of these runs,
            // so two ticks either way are noise. Thresholds are in nanoseconds.
            .cpuTotal: .init(absolute: [.p90: 20_000_000]),
            // Allocation counts are the same on every run of one build: any change is real.
            .mallocCountTotal: .init(relative: [.p90: 2]),
        ]
    }
}
