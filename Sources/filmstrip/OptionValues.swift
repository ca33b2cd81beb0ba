import ArgumentParser
import Filmstrip
import FilmstripFixtures

/// Option values parsed from their text once, when the command line is read, into the
/// library's own types; a bad value is a usage error (exit 64) naming the option, with the
/// closest valid name when the value looks like a mistyped one ("did you mean exact?").
enum OptionValues {
    /// How times are written, for the messages that refuse one.
    static let timeForms = "seconds (12.5) or [hh:]mm:ss(.fff), at most \(TimeParsing.maximumSeconds) s"
    /// How a point in a video is written, where shares of the duration and times before the end are taken too.
    static let timePointForms = "seconds (12.5), [hh:]mm:ss(.fff), a share of the duration (10%) or a time before the end (-5s, -0:05)"

    /// The rule `text` breaks when it is written as a time (seconds, `[hh:]mm:ss`, with `-`, `s`
    /// or `%` around it) that is too long or too fine: more than `TimeParsing.maximumSeconds`,
    /// or more than nine decimals; nil when it is not written as a time at all.
    static func timeLimitBroken(_ text: String) -> String? {
        var core = Substring(text)
        if core.hasPrefix("-") { core = core.dropFirst() }
        if core.hasSuffix("s") || core.hasSuffix("%") { core = core.dropLast() }
        let fields = core.split(separator: ":", omittingEmptySubsequences: false)
        let last = fields.last!.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        func isDigits(_ part: Substring) -> Bool { part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard fields.count <= 3, fields.dropLast().allSatisfy({ !$0.isEmpty && isDigits($0) }), last.allSatisfy(isDigits),
              last.contains(where: { !$0.isEmpty }) else { return nil }
        if last.count == 2, last[1].count > 9 { return "\(last[1].count) decimals, and a time has at most 9 (whole nanoseconds)" }
        let seconds = fields.reduce(0.0) { total, field in total * 60 + (Double(field.hasPrefix(".") ? "0" + field : field) ?? 0) }
        if seconds > Double(TimeParsing.maximumSeconds) { return "more than \(TimeParsing.maximumSeconds) s (10^9 s), the longest time taken" }
        return nil
    }

    static func accuracy(_ text: String) throws -> Accuracy {
        guard let value = Accuracy(parsing: text) else {
            let names = ["exact", "keyframe"]
            throw ValidationError("'\(text)' is not exact, keyframe or tolerance:SEC (decimal seconds, at most \(TimeParsing.maximumSeconds))."
                + Suggestion.sentence(for: text, among: names + ["tolerance"]))
        }
        return value
    }

    static func time(_ text: String) throws -> Rational {
        guard let seconds = TimeParsing.seconds(text) else { throw ValidationError("'\(text)' is not a time: \(timeLimitBroken(text) ?? timeForms).") }
        return seconds
    }

    /// `320` or `320,640`: thumbnail sides in pixels (their range is checked with the command's other options).
    static func sides(_ text: String) throws -> [Int] {
        let sides = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard !sides.isEmpty, sides.allSatisfy({ $0 != nil }) else { throw ValidationError("'\(text)' is not a number of pixels, or several separated by commas.") }
        return sides.reduce(into: [Int]()) { if !$0.contains($1!) { $0.append($1!) } }
    }

    static func timePoint(_ text: String) throws -> TimePoint {
        guard let point = TimePoint(parsing: text) else { throw ValidationError("'\(text)' is not a time: \(timeLimitBroken(text) ?? timePointForms).") }
        return point
    }

    /// `WxH`: a box in pixels, each side 1 to the largest thumbnail side.
    static func box(_ text: String) throws -> PixelSize {
        let sides = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let maxSide = ResourceLimits.maximumThumbnailSide
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]), (1...maxSide).contains(width), (1...maxSide).contains(height) else {
            throw ValidationError("'\(text)' is not WxH with both sides 1 to \(maxSide) pixels.")
        }
        return PixelSize(width: width, height: height)
    }

    static func extractor(_ text: String) throws -> ExtractorChoice {
        ExtractorChoice(extractor: try choice(text, kind: "extractor", among: Extractors.all.map { ($0.name, $0) }))
    }

    static func destination(_ text: String) throws -> StripDestination {
        try choice(text, kind: "composer", among: StripDestination.all.map { ($0.name, $0) })
    }

    static func filter(_ text: String) throws -> ScalingFilter {
        try choice(text, kind: "filter", among: ScalingFilter.allCases.map { ($0.rawValue, $0) })
    }

    static func strategy(_ text: String) throws -> StrategyChoice {
        StrategyChoice(strategy: try choice(text, kind: "strategy", among: InteractiveStrategies.all.map { ($0.name, $0) }))
    }

    static func suite(_ text: String) throws -> ReferenceSuite {
        try choice(text, kind: "suite", among: ReferenceSuite.allCases.map { ($0.rawValue, $0) })
    }

    /// A strip's image format by its usual extension (png, jpg, rgba) or another one it goes by (jpeg, raw).
    static func stripFormat(_ text: String) throws -> StripFormat {
        try choice(text, kind: "format", among: StripFormat.allCases.flatMap { format in format.extensions.map { ($0, format) } })
    }

    /// `RRGGBB` (opaque) or `RRGGBBAA` hex.
    /// A range `FROM..TO` of times (`strip --select`).
    static func timeRange(_ text: String) throws -> Range<Rational> {
        guard let range = TimeParsing.range(text) else { throw ValidationError("'\(text)' is not a range FROM..TO of times: \(timeForms).") }
        return range
    }

    static func color(_ text: String) throws -> RGBAColor {
        guard text.count == 6 || text.count == 8, let value = UInt32(text, radix: 16) else {
            throw ValidationError("'\(text)' is not RRGGBB or RRGGBBAA.")
        }
        let word = text.count == 6 ? value << 8 | 0xFF : value
        return RGBAColor(red: UInt8(word >> 24), green: UInt8(word >> 16 & 0xFF), blue: UInt8(word >> 8 & 0xFF), alpha: UInt8(word & 0xFF))
    }

    /// The value named `text` among `values`, or a usage error listing them.
    static func choice<Value>(_ text: String, kind: String, among values: [(name: String, value: Value)]) throws -> Value {
        if let found = values.first(where: { $0.name == text }) { return found.value }
        let names = values.map(\.name)
        throw ValidationError("unknown \(kind) '\(text)'; one of \(names.joined(separator: ", "))." + Suggestion.sentence(for: text, among: names))
    }
}

/// The valid name closest to a mistyped one.
enum Suggestion {
    /// The name among `names` within a few edits of `text` (one per three letters, at least
    /// one; a swap of two neighbours is one edit), the closest first; nil when none is that close.
    static func closest(to text: String, among names: [String]) -> String? {
        let scored = names.map { ($0, editDistance(text.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 > 0, best.1 <= max(1, best.0.count / 3) else { return nil }
        return best.0
    }

    /// " Did you mean NAME?" after a message, or nothing.
    static func sentence(for text: String, among names: [String]) -> String {
        closest(to: text, among: names).map { " Did you mean \($0)?" } ?? ""
    }

    /// Insertions, deletions, substitutions and swaps of neighbours that turn `a` into `b`
    /// (the optimal string alignment distance).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }
}

/// An extractor from the registry as an option value; its name is what help and errors show.
struct ExtractorChoice: CustomStringConvertible {
    let extractor: any ThumbnailExtractor
    var description: String { extractor.name }
}

/// An interactive strategy from the registry as an option value; its name is what help and errors show.
struct StrategyChoice: CustomStringConvertible {
    let strategy: any InteractiveStrategy
    var description: String { strategy.name }
}
