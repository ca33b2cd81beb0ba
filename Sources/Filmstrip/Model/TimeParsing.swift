/// Times typed by people: "12", "12.5", "1:02.250" (mm:ss.fff) or "1:00:02" (hh:mm:ss).
///
/// Only decimal seconds with at most nine decimals, never fractions like "1/3" or signs, and
/// at most `maximumSeconds`: a time from the command line cannot overflow the 64-bit
/// arithmetic that turns it into timestamps.
public enum TimeParsing {
    /// The largest time accepted: 10^9 s (about 31 years), far beyond any video.
    public static let maximumSeconds: Int64 = 1_000_000_000

    /// Exact seconds, or nil when `text` is not a time within `maximumSeconds`.
    public static func seconds(_ text: String) -> Rational? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(fields.count), let last = decimalSeconds(fields.last!) else { return nil }
        if fields.count > 1 && last >= Rational(60) { return nil }
        var total = last
        var unit: Int64 = 60
        for field in fields.dropLast().reversed() {
            // Minutes and hours: plain digits, small enough that the total stays within the maximum.
            guard !field.isEmpty, field.count <= 10, field.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int64(field), value <= maximumSeconds / unit else { return nil }
            total = total + Rational(value * unit)
            unit *= 60
        }
        return total <= Rational(maximumSeconds) ? total : nil
    }

    /// "12", "12.5", ".5": non-negative decimal seconds, at most nine decimals and
    /// `maximumSeconds`; nil otherwise (signs, exponents, fractions, other characters).
    public static func decimalSeconds(_ text: String) -> Rational? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], decimals = parts.count > 1 ? parts[1] : ""
        func isDigits(_ part: Substring) -> Bool { part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard !(whole.isEmpty && decimals.isEmpty), isDigits(whole), isDigits(decimals), decimals.count <= 9,
              whole.count <= 10 else { return nil }
        let wholeValue = whole.isEmpty ? 0 : Int64(whole)!
        guard wholeValue <= maximumSeconds else { return nil }
        let scale = (0..<decimals.count).reduce(Int64(1)) { value, _ in value * 10 }
        let value = Rational(wholeValue * scale + (decimals.isEmpty ? 0 : Int64(decimals)!), scale)
        return value <= Rational(maximumSeconds) ? value : nil
    }

    /// "FROM..TO" as a half-open range of seconds.
    public static func range(_ text: String) -> Range<Rational>? {
        guard let separator = text.range(of: "..") else { return nil }
        guard let from = seconds(String(text[..<separator.lowerBound])), let to = seconds(String(text[separator.upperBound...])),
              from < to else { return nil }
        return from..<to
    }
}
