import Glibc

/// A distribution-free estimate and confidence interval of a shift (on log times: of a
/// ratio), from ranks: Hodges–Lehmann estimates with the exact Wilcoxon intervals.
///
/// - ``paired(_:level:)``: the differences `d₁…dₙ` of pairs (candidate − baseline of the
///   same repetition). Estimate: the median of the `M = n(n+1)/2` Walsh averages
///   `(dᵢ+dⱼ)/2`, `i ≤ j`. Interval: the Walsh averages of ranks `k` and `M+1−k`, with `k`
///   the largest such that `P(T ≤ k−1) ≤ (1−level)/2` under the exact null distribution of
///   the signed-rank statistic `T` (a subset-sum count over ranks `1…n`).
/// - ``twoSample(baseline:candidate:level:)``: two independent samples. Estimate: the
///   median of the `n·m` differences `yⱼ − xᵢ`; interval: the differences of ranks `k`
///   and `nm+1−k`, `k` likewise from the exact Mann–Whitney distribution (Gaussian
///   binomial coefficients), a normal approximation past 60 samples a side.
///
/// Why ranks and not a bootstrap of means: run times have a floor and a long right tail
/// (another process takes the core for a while), so one pair in ten can be off by 30 % or
/// more. Ranks give such a pair the weight of any other; a mean of ratios follows it. And
/// the interval's coverage is exact for any symmetric (paired) or shift (two-sample)
/// distribution at the small `n` a gate has (6 to 20), where a bootstrap undercovers.
package struct ShiftInterval: Sendable, Hashable {
    package var estimate: Double
    package var low: Double
    package var high: Double
    /// Exact coverage of `low...high` under the null distribution; below `level` only when
    /// too few samples exist for it, and the interval is then the widest one (min…max).
    package var coverage: Double
    /// Pairs (paired) or the smaller sample's size (two-sample).
    package var count: Int

    /// The interval of the centre of `differences` (not empty).
    package static func paired(_ differences: [Double], level: Double = 0.95) -> ShiftInterval {
        precondition(!differences.isEmpty, "interval of no pairs")
        let n = differences.count
        var walsh: [Double] = []
        walsh.reserveCapacity(n * (n + 1) / 2)
        for i in 0..<n {
            for j in i..<n { walsh.append((differences[i] + differences[j]) / 2) }
        }
        walsh.sort()
        let (excluded, coverage) = excludedRanks(distribution: signedRankDistribution(n), level: level)
        return ShiftInterval(estimate: Quantile.median(sorted: walsh), low: walsh[excluded],
                             high: walsh[walsh.count - 1 - excluded], coverage: coverage, count: n)
    }

    /// The interval of the shift from `baseline` to `candidate` (neither empty).
    package static func twoSample(baseline: [Double], candidate: [Double], level: Double = 0.95) -> ShiftInterval {
        precondition(!baseline.isEmpty && !candidate.isEmpty, "interval of an empty sample")
        var differences: [Double] = []
        differences.reserveCapacity(baseline.count * candidate.count)
        for y in candidate {
            for x in baseline { differences.append(y - x) }
        }
        differences.sort()
        let n = baseline.count, m = candidate.count
        let (excluded, coverage): (Int, Double)
        if max(n, m) <= 60 {
            (excluded, coverage) = excludedRanks(distribution: mannWhitneyDistribution(n, m), level: level)
        } else {
            (excluded, coverage) = normalExcludedRanks(n: n, m: m, level: level)
        }
        return ShiftInterval(estimate: Quantile.median(sorted: differences), low: differences[excluded],
                             high: differences[differences.count - 1 - excluded], coverage: coverage,
                             count: min(n, m))
    }

    /// The 0-based index `c` of the lower bound among the sorted averages or differences
    /// (the upper bound is the `c`-th from the top), and the coverage. The lower bound
    /// misses with probability `P(S ≤ c)`, for `S` the rank statistic with point
    /// probabilities `distribution` (symmetric), so `c` is the largest with `P(S ≤ c) ≤ (1−level)/2`;
    /// when even `c = 0` misses more often, the interval is min…max with coverage below `level`.
    static func excludedRanks(distribution: [Double], level: Double) -> (Int, Double) {
        let tail = (1 - level) / 2
        var accepted = 0, cumulative = 0.0
        while accepted < distribution.count / 2 {
            let next = cumulative + distribution[accepted]
            if next > tail { break }
            cumulative = next
            accepted += 1
        }
        if accepted == 0 { return (0, 1 - 2 * distribution[0]) }
        return (accepted - 1, 1 - 2 * cumulative)
    }

    /// P(T = t) for the Wilcoxon signed-rank statistic of `n` pairs, `t` in `0...n(n+1)/2`:
    /// each rank enters the sum with probability ½, so the counts are subset sums of `1…n`.
    static func signedRankDistribution(_ n: Int) -> [Double] {
        let total = n * (n + 1) / 2
        var counts = [Double](repeating: 0, count: total + 1)
        counts[0] = 1
        var reach = 0
        for rank in 1...n {
            reach += rank
            for sum in stride(from: reach, through: rank, by: -1) { counts[sum] += counts[sum - rank] }
            // Halving per rank keeps the numbers in range for large n: the result is 2⁻ⁿ·count.
            for sum in 0...reach { counts[sum] *= 0.5 }
        }
        return counts
    }

    /// P(U = u) for the Mann–Whitney statistic of samples of `n` and `m`, `u` in `0...nm`:
    /// the coefficients of the Gaussian binomial [n+m choose n], built as
    /// ∏ᵢ (1 − q^(m+i)) / (1 − q^i), i = 1…n, each step keeping non-negative integer counts.
    static func mannWhitneyDistribution(_ n: Int, _ m: Int) -> [Double] {
        // Room for the product before each division: degree (i−1)·m + m + i.
        var counts = [Double](repeating: 0, count: n * m + n + 1)
        counts[0] = 1
        var degree = 0
        for i in 1...n {
            let factor = m + i, raised = degree + factor
            for power in stride(from: raised, through: factor, by: -1) { counts[power] -= counts[power - factor] }
            // Exact division by (1 − q^i): b[p] = a[p] + b[p − i], ascending.
            degree = raised - i
            if degree >= i {
                for power in i...degree { counts[power] += counts[power - i] }
            }
            for power in (degree + 1)...raised { counts[power] = 0 }
        }
        counts.removeLast(counts.count - (n * m + 1))
        let sum = counts.reduce(0, +)
        return counts.map { $0 / sum }
    }

    /// `c` and coverage from the normal approximation of U (mean nm/2, variance nm(n+m+1)/12).
    static func normalExcludedRanks(n: Int, m: Int, level: Double) -> (Int, Double) {
        let mean = Double(n * m) / 2, deviation = (Double(n * m) * Double(n + m + 1) / 12).squareRoot()
        let z = normalQuantile(1 - (1 - level) / 2)
        // The lower bound is the k-th smallest difference, k = ⌊mean − z·sd⌋ (1-based).
        let k = Int((mean - z * deviation).rounded(.down))
        return (max(0, k - 1), level)
    }

    /// Φ⁻¹(p) by bisection on erfc: a handful of calls per gate, so simplicity wins.
    static func normalQuantile(_ p: Double) -> Double {
        var low = -10.0, high = 10.0
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if 0.5 * erfc(-middle / 2.0.squareRoot()) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
