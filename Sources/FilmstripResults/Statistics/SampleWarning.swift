/// Something about a set of samples that makes its numbers less trustworthy,
/// in the spirit of hyperfine's warnings.
///
/// Rules (modified z-score `z = (x − median) / s`, with `s` the scaled MAD
/// floored at 0.1 % of the median, after Iglewicz & Hoaglin):
/// - ``slowFirstRun``: at least 3 samples and the first sample in run order has
///   `z > 3.5` — a cold cache or first-touch page faults; add warm-up runs.
/// - ``outliers(count:)``: samples with `|z| > 3.5` — interference from other
///   processes, frequency scaling, or a bimodal workload.
/// - ``tooShort``: median wall time below 5 ms — timer resolution and process
///   noise are no longer small against the measurement.
/// - ``fewSamples``: too few samples for a 95 % confidence interval of the
///   median (fewer than 6); the reported interval is min…max.
package enum SampleWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    case slowFirstRun
    case outliers(count: Int)
    case tooShort
    case fewSamples

    /// The modified z-score above which a sample counts as an outlier.
    package static let outlierZScore = 3.5
    /// Wall times (seconds) below this median are flagged ``tooShort``.
    package static let shortRunSeconds = 0.005
    /// The first-run check needs a few other runs to compare against.
    static let minimumSamplesForFirstRunCheck = 3

    /// The compact token written to the `warnings` CSV column.
    package var description: String {
        switch self {
        case .slowFirstRun: "slow_first_run"
        case .outliers(let count): "outliers=\(count)"
        case .tooShort: "too_short"
        case .fewSamples: "few_samples"
        }
    }

    /// Parses a token written by ``description``.
    package init?(token: String) {
        switch token {
        case "slow_first_run": self = .slowFirstRun
        case "too_short": self = .tooShort
        case "few_samples": self = .fewSamples
        default:
            guard token.hasPrefix("outliers="), let count = Int(token.dropFirst("outliers=".count)) else { return nil }
            self = .outliers(count: count)
        }
    }
}
