/// An exact fraction, used for time bases, frame rates, aspect ratios and times in seconds.
///
/// Always stored reduced, with a positive denominator. Arithmetic widens to `Int128`
/// so products of two 64-bit timestamps never overflow before reduction.
public struct Rational: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The numerator, carrying the sign; reduced against `denominator`.
    public let numerator: Int64
    /// The denominator, always positive and reduced.
    public let denominator: Int64

    /// The fraction `numerator`/`denominator`, reduced; traps on a zero denominator.
    public init(_ numerator: Int64, _ denominator: Int64) {
        precondition(denominator != 0, "Rational with a zero denominator")
        let divisor = Self.greatestCommonDivisor(numerator.magnitude, denominator.magnitude)
        let sign: Int64 = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / Int64(divisor)
        self.denominator = sign * denominator / Int64(divisor)
    }

    /// The whole number `integer` (denominator 1).
    public init(_ integer: Int64) { self.init(integer, 1) }

    /// Builds a rational from a wide numerator and denominator, rounding to the nearest
    /// value representable in 64 bits when the reduced fraction does not fit.
    init(wide numerator: Int128, _ denominator: Int128) {
        precondition(denominator != 0, "Rational with a zero denominator")
        var n = numerator, d = denominator
        if d < 0 { n = -n; d = -d }
        let divisor = Int128(Self.greatestCommonDivisor(n.magnitude, d.magnitude))
        n /= divisor; d /= divisor
        while n.magnitude > UInt128(Int64.max) || d > Int128(Int64.max) {
            n /= 2; d /= 2
            if d == 0 { d = 1 }
        }
        self.init(Int64(n), Int64(d))
    }

    /// `seconds` to the nearest nanosecond, reduced (`Rational(seconds: 12.5)` is 25/2, `0.1`
    /// is exactly 1/10); nil for a value that is not finite or lies beyond
    /// ±`TimeParsing.maximumSeconds`, whose nanoseconds would not fit 64 bits.
    public init?(seconds: Double) {
        guard seconds.isFinite, seconds.magnitude <= Double(TimeParsing.maximumSeconds) else { return nil }
        self.init(Int64((seconds * 1e9).rounded()), 1_000_000_000)
    }

    /// Zero (0/1).
    public static let zero = Rational(0, 1)

    /// The nearest `Double` (may round; use for display and statistics, not for timestamps).
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// `N` for whole numbers, else `N/D`, e.g. `1/90000`.
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    /// The exact sum, computed in 128 bits and rounded only if the reduced result does not fit 64 bits.
    public static func + (lhs: Rational, rhs: Rational) -> Rational {
        Rational(wide: Int128(lhs.numerator) * Int128(rhs.denominator) + Int128(rhs.numerator) * Int128(lhs.denominator),
                 Int128(lhs.denominator) * Int128(rhs.denominator))
    }
    /// The exact difference, computed in 128 bits and rounded only if the reduced result does not fit 64 bits.
    public static func - (lhs: Rational, rhs: Rational) -> Rational {
        Rational(wide: Int128(lhs.numerator) * Int128(rhs.denominator) - Int128(rhs.numerator) * Int128(lhs.denominator),
                 Int128(lhs.denominator) * Int128(rhs.denominator))
    }
    /// The exact product, computed in 128 bits and rounded only if the reduced result does not fit 64 bits.
    public static func * (lhs: Rational, rhs: Rational) -> Rational {
        Rational(wide: Int128(lhs.numerator) * Int128(rhs.numerator), Int128(lhs.denominator) * Int128(rhs.denominator))
    }
    /// The exact quotient, computed in 128 bits; traps when `rhs` is zero.
    public static func / (lhs: Rational, rhs: Rational) -> Rational {
        precondition(rhs.numerator != 0, "division by a zero Rational")
        return Rational(wide: Int128(lhs.numerator) * Int128(rhs.denominator), Int128(lhs.denominator) * Int128(rhs.numerator))
    }
    /// Compares by cross-multiplying in 128 bits, exactly (no floating point).
    public static func < (lhs: Rational, rhs: Rational) -> Bool {
        Int128(lhs.numerator) * Int128(rhs.denominator) < Int128(rhs.numerator) * Int128(lhs.denominator)
    }

    /// The largest integer not greater than this value.
    public var floor: Int64 {
        let quotient = numerator / denominator
        return (numerator % denominator != 0 && numerator < 0) ? quotient - 1 : quotient
    }

    /// The nearest integer, halves rounded up.
    public var rounded: Int64 { (self + Rational(1, 2)).floor }

    /// Parses "30000/1001", "1.5" or "42"; nil for anything else, or a value whose numerator
    /// or denominator does not fit in 64 bits (`Int64.min` included, which has no negation).
    public init?(parsing text: String) {
        if let slash = text.firstIndex(of: "/") {
            guard let n = Int64(text[..<slash]), let d = Int64(text[text.index(after: slash)...]), d != 0,
                  n != .min, d != .min else { return nil }
            self.init(n, d)
        } else if let dot = text.firstIndex(of: ".") {
            let whole = text[..<dot], fraction = text[text.index(after: dot)...]
            guard fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let digits = Int64(whole.isEmpty || whole == "-" ? "\(whole)0" : String(whole)) else { return nil }
            let scale = Int64((0..<fraction.count).reduce(1) { value, _ in value * 10 })
            let fractional = fraction.isEmpty ? 0 : Int64(fraction)!
            let negative = whole.hasPrefix("-")
            let (scaled, overflow) = digits.multipliedReportingOverflow(by: scale)
            let (sum, sumOverflow) = scaled.addingReportingOverflow(negative ? -fractional : fractional)
            guard !overflow, !sumOverflow, sum != .min else { return nil }
            self.init(sum, scale)
        } else {
            guard let n = Int64(text), n != .min else { return nil }
            self.init(n, 1)
        }
    }

    private static func greatestCommonDivisor<T: UnsignedInteger>(_ a: T, _ b: T) -> T {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }
}
