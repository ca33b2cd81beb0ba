/// Fixed-n tests of paired differences (log ratios of a two-build run whose pairs were all
/// planned): exact one-sided Wilcoxon signed-rank p-values, and the Benjamini–Hochberg step-up
/// that judges a family of them at once.
///
/// Why not the anytime-valid evidence (``BettingEvidence``) everywhere: it pays for optional
/// stopping, the right to look after every pair and stop when it suffices. A run whose pairs
/// were fixed in advance (`bench --no-until-decided`, or an `--until-decided` run that stopped
/// at its first look) never looked, and paying for it cost power: 9 pairs of a real +8 … +15 %
/// CPU regression in most of 45 configurations were "undecided" (issue 44). The exact test has
/// its level at any n, for any symmetric distribution of the differences, which is the same
/// assumption the interval (``ShiftInterval/paired(_:level:)``) makes.
package struct SignedRankTest: Sendable {
    /// The Walsh averages `(dᵢ+dⱼ)/2`, `i ≤ j`, sorted: the signed-rank statistic of the
    /// differences shifted by `s` is the number of them above `s` (ties counted against the
    /// rejection, so the p-value is conservative).
    private let walsh: [Double]
    /// `tail[t]` = P(T ≥ t) under the null, `t` in `0...n(n+1)/2`.
    private let tail: [Double]

    package init(_ differences: [Double]) {
        precondition(!differences.isEmpty, "a test of no pairs")
        var averages: [Double] = []
        averages.reserveCapacity(differences.count * (differences.count + 1) / 2)
        for i in differences.indices {
            for j in i..<differences.count { averages.append((differences[i] + differences[j]) / 2) }
        }
        walsh = averages.sorted()
        let distribution = ShiftInterval.signedRankDistribution(differences.count)
        var cumulative = [Double](repeating: 0, count: distribution.count + 1)
        for t in stride(from: distribution.count - 1, through: 0, by: -1) { cumulative[t] = cumulative[t + 1] + distribution[t] }
        tail = cumulative
    }

    /// The p-value of "the centre is at most `shift`" against "above it".
    package func pValueAbove(_ shift: Double) -> Double {
        let above = walsh.count - upperBound(shift)
        return min(1, tail[above])
    }

    /// The p-value of "the centre is at least `shift`" against "below it".
    package func pValueBelow(_ shift: Double) -> Double {
        let below = lowerBound(shift)
        return min(1, tail[below])
    }

    /// Index of the first Walsh average not below `value`.
    private func lowerBound(_ value: Double) -> Int {
        var low = 0, high = walsh.count
        while low < high {
            let middle = (low + high) / 2
            if walsh[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Index of the first Walsh average above `value`.
    private func upperBound(_ value: Double) -> Int {
        var low = 0, high = walsh.count
        while low < high {
            let middle = (low + high) / 2
            if walsh[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The positions in `pValues` that the Benjamini–Hochberg step-up rejects at `alpha`: the
    /// `k` smallest, for the largest `k` with `p₍ₖ₎ ≤ alpha·k/m`. When every hypothesis is true
    /// (an A/A run) it rejects any with probability at most `alpha` (Simes), for independent or
    /// positively dependent tests such as one configuration's CPU and wall time.
    package static func rejected(pValues: [Double], alpha: Double) -> Set<Int> {
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        let m = Double(pValues.count)
        var count = 0
        for (rank, index) in order.enumerated() where pValues[index] <= alpha * Double(rank + 1) / m { count = rank + 1 }
        return Set(order.prefix(count))
    }
}
