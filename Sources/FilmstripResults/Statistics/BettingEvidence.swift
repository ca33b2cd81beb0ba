import Foundation

/// Anytime-valid evidence about the centre of paired log ratios, by betting ("testing by
/// betting"; e-processes), so a gate may add pairs until it can decide and still keep its
/// error rates (``RegressionGate``, `bench --until-decided`).
///
/// A fixed-n test looked at after every new pair and stopped when it first says "different"
/// calls unchanged code slower far more often than its level. A betting process does not: a
/// gambler bets, pair by pair, on the sign of `xᵢ − shift` against the null; under the null
/// no betting strategy fixed before seeing `xᵢ` expects to gain, so the wealth is a
/// nonnegative supermartingale and, by Ville's inequality, reaches `1/α` with probability at
/// most `α` **ever**, however long the sequence runs or wherever it is stopped. The wealth is
/// the e-value. ``eValue(_:shift:direction:floor:)`` returns the wealth after the last pair, not
/// its running maximum: the wealth at a stopping time is an e-value (mean at most 1, by optional
/// stopping), which e-Benjamini–Hochberg needs; the running maximum is not (Ville bounds its
/// tail, not its mean), and e-BH over running maxima would lose its guarantee by up to the
/// harmonic factor of Benjamini–Yekutieli (4.3× for 41 configurations). `bench --until-decided`
/// stops adding pairs to a configuration once it is decided, so its wealth is frozen there.
///
/// The null for `direction` +1 is "the pairs' log ratios are symmetric about a centre at most
/// `shift`" (for `shift` 0: the candidate is not slower), so any odd, increasing, bounded
/// function `g` of `xᵢ − shift` has a non-positive mean under it. Here `g(y) = clamp(y / sᵢ,
/// −1, 1)`: bounded, so one wild pair (another process took the core) moves the wealth by a
/// bounded factor, as ranks do in the fixed-n test. The scale `sᵢ` is a robust spread
/// (1.4826 × MAD) of the *earlier* pairs, at least `floor`: computed before `xᵢ` is seen, so the
/// bet stays fair. The stake is a mixture, the mean wealth of several bettors: some stake fixed
/// fractions ``stakes`` of their wealth, one stakes what the earlier bets suggest (the
/// growth-optimal fraction for their mean and variance, "aGRAPA"). The mixture grows nearly as
/// fast as its best bettor (losing a factor of at most their number) without choosing one in
/// advance; each bettor's stake is fixed before `xᵢ` is seen, so the mixture stays fair.
///
/// Alternating build order (baseline first in one pair, candidate first in the next) leaves
/// the A/A distribution symmetric only on average over two pairs; an order effect therefore
/// weakens the bound slightly. The measured A/A false-alarm rates are in docs/gate.md.
package enum BettingEvidence {
    /// Fractions of wealth staked by the mixture's bettors.
    static let stakes: [Double] = [0.1, 0.25, 0.5, 0.75, 0.9]

    /// The mixture wealth, after the last pair, of betting that `x` (in collection order) is
    /// centred above `shift` (`direction` +1) or below it (`direction` −1).
    package static func eValue(_ x: [Double], shift: Double, direction: Double, floor: Double) -> Double {
        wealthPath(x, shift: shift, direction: direction, floor: floor).last ?? 1
    }

    /// The mixture wealth after each pair (1 before the first).
    static func wealthPath(_ x: [Double], shift: Double, direction: Double, floor: Double) -> [Double] {
        // The fixed-stake bettors, then the adaptive one.
        var wealth = [Double](repeating: 1, count: stakes.count + 1)
        var path: [Double] = []
        var earlier: [Double] = [], outcomes: [Double] = []
        earlier.reserveCapacity(x.count)
        path.reserveCapacity(x.count)
        for value in x {
            let scale = max(floor, robustSpread(earlier))
            let bet = min(1, max(-1, direction * (value - shift) / scale))
            for index in stakes.indices { wealth[index] *= 1 + stakes[index] * bet }
            wealth[stakes.count] *= 1 + adaptiveStake(outcomes) * bet
            path.append(wealth.reduce(0, +) / Double(wealth.count))
            earlier.append(value)
            outcomes.append(bet)
        }
        return path
    }

    /// The growth-optimal fraction for bets with the earlier outcomes' mean `m` and variance
    /// `v`, `m / (v + m²)`, kept in `0…0.95` (never betting against the alternative, never all in).
    static func adaptiveStake(_ outcomes: [Double]) -> Double {
        guard !outcomes.isEmpty else { return 0 }
        let count = Double(outcomes.count)
        let mean = outcomes.reduce(0, +) / count
        let variance = outcomes.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / count
        guard mean > 0 else { return 0 }
        return min(0.95, mean / (variance + mean * mean))
    }

    /// 1.4826 × the median absolute deviation from the median (the standard deviation of a
    /// normal sample); 0 for fewer than three values.
    static func robustSpread(_ values: [Double]) -> Double {
        guard values.count >= 3 else { return 0 }
        let median = Quantile.median(sorted: values.sorted())
        return 1.4826 * Quantile.median(sorted: values.map { abs($0 - median) }.sorted())
    }

    /// Indices of the hypotheses rejected by the e-Benjamini–Hochberg procedure at level `alpha`:
    /// the `k` largest e-values, for the largest `k` with `e₍ₖ₎ ≥ m / (alpha·k)`. It keeps the
    /// expected share of false rejections among the rejections at most `alpha` under any
    /// dependence between the tests; when nothing changed every rejection is false, so a whole
    /// gate is wrong with probability at most `alpha`. Unlike Bonferroni it asks less of each
    /// test the more of them are rejected: a change in every configuration is found with few pairs.
    package static func rejected(eValues: [Double], alpha: Double) -> Set<Int> {
        let m = Double(eValues.count)
        let order = eValues.indices.sorted { eValues[$0] > eValues[$1] }
        var accepted = 0
        for (rank, index) in order.enumerated() where eValues[index] >= m / (alpha * Double(rank + 1)) {
            accepted = rank + 1
        }
        return Set(order.prefix(accepted))
    }
}
