/// Which frame a thumbnail may show for its slot's time, like AVAssetImageGenerator's tolerances.
public enum Accuracy: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The frame whose display interval contains the time.
    case exact
    /// The keyframe nearest to the time (fast: what most thumbnailers do).
    case keyframe
    /// Any frame starting within [time − before, time + after], preferring the cheapest to decode.
    case tolerance(before: Rational, after: Rational)

    /// The form `--accuracy` accepts: `exact`, `keyframe`, or `tolerance:SECONDS` (`tolerance:BEFORE,AFTER` when they
    /// differ).
    public var description: String {
        switch self {
        case .exact: "exact"
        case .keyframe: "keyframe"
        case .tolerance(let before, let after):
            before == after ? "tolerance:\(before.doubleValue)" : "tolerance:\(before.doubleValue),\(after.doubleValue)"
        }
    }

    /// What shell completion offers: the two plain forms and the start of the third.
    public static let completions = ["exact", "keyframe", "tolerance:"]

    /// Parses "exact", "keyframe", "tolerance:SEC" or "tolerance:BEFORE,AFTER" (decimal seconds,
    /// at most `TimeParsing.maximumSeconds` each).
    public init?(parsing text: String) {
        switch text {
        case "exact": self = .exact
        case "keyframe": self = .keyframe
        default:
            guard text.hasPrefix("tolerance:") else { return nil }
            let parts = text.dropFirst("tolerance:".count).split(separator: ",").map { TimeParsing.decimalSeconds(String($0)) }
            guard parts.count == 1 || parts.count == 2, let before = parts[0], let after = parts.last!,
                  before >= .zero, after >= .zero else { return nil }
            self = .tolerance(before: before, after: after)
        }
    }
}
