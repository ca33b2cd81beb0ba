/// Quantiles of sorted samples.
///
/// Method: Hyndman & Fan type 7 (the default of R, NumPy and Excel's
/// `PERCENTILE.INC`). For `n` sorted samples `x[0...n-1]` and probability `p`,
/// `h = (n - 1) · p`, and the quantile is `x[⌊h⌋] + (h − ⌊h⌋) · (x[⌊h⌋ + 1] − x[⌊h⌋])`.
/// It is chosen because it is what a reader re-computing a number from the CSV
/// in a spreadsheet or NumPy gets by default. The package's one median: the summary, the
/// trend and `sprite-bench` all take theirs from here.
package enum Quantile {
    /// The type-7 quantile of `sorted` (ascending, not empty) at probability `p` in `0...1`.
    package static func type7(sorted: [Double], p: Double) -> Double {
        precondition(!sorted.isEmpty, "quantile of an empty sample")
        precondition((0...1).contains(p), "probability outside 0...1")
        let h = Double(sorted.count - 1) * p
        let lower = Int(h.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (h - Double(lower)) * (sorted[upper] - sorted[lower])
    }

    /// The median of `sorted` (ascending, not empty): the usual middle value, or
    /// the mean of the two middle values; type 7 at `p = 0.5` gives the same.
    package static func median(sorted: [Double]) -> Double {
        type7(sorted: sorted, p: 0.5)
    }

    /// The median of `values` in any order (not empty).
    package static func median(_ values: [Double]) -> Double {
        median(sorted: values.sorted())
    }
}
