/// Times typed by people: "12", "12.5", "1:02.250" (mm:ss.fff) or "1:00:02" (hh:mm:ss).
public enum TimeParsing {
    /// Exact seconds, or nil when `text` is not a time.
    public static func seconds(_ text: String) -> Rational? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(fields.count), let last = Rational(parsing: fields.last!), last >= .zero else { return nil }
        var total = last
        var unit = Rational(60)
        for field in fields.dropLast().reversed() {
            guard let value = Int64(field), value >= 0 else { return nil }
            if fields.count > 1 && last >= Rational(60) { return nil }
            total = total + Rational(value) * unit
            unit = unit * Rational(60)
        }
        return total
    }

    /// "FROM..TO" as a half-open range of seconds.
    public static func range(_ text: String) -> Range<Rational>? {
        guard let separator = text.range(of: "..") else { return nil }
        guard let from = seconds(String(text[..<separator.lowerBound])), let to = seconds(String(text[separator.upperBound...])),
              from < to else { return nil }
        return from..<to
    }
}
