import Glibc

/// A distribution-free confidence interval of the median from order statistics.
///
/// Method: the number of samples below the true median is Binomial(n, ½). With
/// `k` the largest rank such that `P(B ≤ k − 1) ≤ (1 − level) / 2`, the interval
/// `[x₍ₖ₎, x₍ₙ₋ₖ₊₁₎]` (1-based order statistics) covers the median with
/// probability `1 − 2·P(B ≤ k − 1) ≥ level`, exactly, without assuming a
/// distribution — timing samples are skewed, so a normal interval would lie.
/// For a 95 % level this needs `n ≥ 6`; below that even `[min, max]` covers less
/// than 95 % (`1 − 2·0.5ⁿ`), and the interval is `[min, max]` with
/// ``isBelowNominalLevel`` set.
package struct MedianConfidenceInterval: Sendable, Hashable, Codable {
    /// Lower bound, in the unit of the samples.
    package var low: Double
    /// Upper bound, in the unit of the samples.
    package var high: Double
    /// 1-based rank of the order statistic used as the lower bound.
    package var lowRank: Int
    /// 1-based rank of the order statistic used as the upper bound.
    package var highRank: Int
    /// The exact coverage probability of the interval (0...1), at least the
    /// requested level unless ``isBelowNominalLevel``.
    package var coverage: Double
    /// `true` when too few samples exist for the requested level, so the interval
    /// is `[min, max]` with the lower ``coverage``.
    package var isBelowNominalLevel: Bool

    /// The interval for `sorted` (ascending, not empty) at confidence `level` in `0..<1`.
    package init(sorted: [Double], level: Double = 0.95) {
        precondition(!sorted.isEmpty, "confidence interval of an empty sample")
        let n = sorted.count
        let tail = (1 - level) / 2
        // Largest k with P(B ≤ k − 1) ≤ tail; k = 0 means no rank qualifies.
        var k = 0
        var cumulative = 0.0
        while k < (n + 1) / 2 {
            let next = cumulative + Self.binomialHalfProbability(n: n, k: k)
            if next > tail { break }
            cumulative = next
            k += 1
        }
        if k == 0 {
            lowRank = 1
            highRank = n
            coverage = 1 - 2 * Self.binomialHalfProbability(n: n, k: 0)
            isBelowNominalLevel = true
        } else {
            lowRank = k
            highRank = n - k + 1
            coverage = 1 - 2 * cumulative
            isBelowNominalLevel = false
        }
        low = sorted[lowRank - 1]
        high = sorted[highRank - 1]
    }

    /// P(B = k) for B ~ Binomial(n, ½), in log space so large `n` does not underflow.
    static func binomialHalfProbability(n: Int, k: Int) -> Double {
        let logChoose = lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
        return exp(logChoose - Double(n) * log(2.0))
    }
}
