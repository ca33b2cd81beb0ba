/// A number too large (or negative) for the fixed-width field a file format stores it in,
/// for example a BIF timestamp past 2³² − 1. A conversion that traps instead would kill the
/// whole process (every video of a library run); this fails the one file with one line.
public struct FieldOverflow: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the field holds, e.g. "BIF timestamp of cue 59".
    public let field: String
    /// The value that does not fit, in decimal.
    public let value: String
    /// The values the field holds, "LOW to HIGH".
    public let limits: String
    /// What to change so that it fits, or empty.
    public let hint: String

    /// "FIELD is VALUE, but its format stores LOW to HIGH[; HINT]".
    public var description: String {
        "\(field) is \(value), but its format stores \(limits)" + (hint.isEmpty ? "" : "; \(hint)")
    }
}

extension FixedWidthInteger {
    /// `value` as this type, or a `FieldOverflow` naming `field` where it does not fit: the
    /// one conversion for every number written into a fixed-width field of an output file.
    static func checked(_ value: some BinaryInteger, field: @autoclosure () -> String, hint: @autoclosure () -> String = "") throws(FieldOverflow) -> Self {
        guard let fitted = Self(exactly: value) else {
            throw FieldOverflow(field: field(), value: "\(value)", limits: "\(Self.min) to \(Self.max)", hint: hint())
        }
        return fitted
    }
}
