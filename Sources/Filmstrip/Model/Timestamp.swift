/// A presentation time as FFmpeg stores it: an integer count of `timeBase` units.
public struct Timestamp: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// Ticks of `timeBase` (FFmpeg's `pts`); may be negative before a stream's start.
    public var pts: Int64
    /// Seconds per tick.
    public var timeBase: Rational

    /// The time `pts` × `timeBase` seconds.
    public init(pts: Int64, timeBase: Rational) {
        self.pts = pts
        self.timeBase = timeBase
    }

    /// The exact time in seconds.
    public var seconds: Rational { Rational(pts) * timeBase }

    /// The nearest timestamp in `timeBase` to `seconds` (halves rounded up).
    public init(seconds: Rational, timeBase: Rational) {
        self.init(pts: (seconds / timeBase).rounded, timeBase: timeBase)
    }

    /// The largest timestamp in `timeBase` that is not later than `seconds`.
    public init(flooring seconds: Rational, timeBase: Rational) {
        self.init(pts: (seconds / timeBase).floor, timeBase: timeBase)
    }

    /// Compares the times in seconds exactly, so timestamps in different time bases compare correctly.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.seconds < rhs.seconds }

    /// `PTS×TIMEBASE`, e.g. `3003×1/30000`, for messages and test failures.
    public var description: String { "\(pts)×\(timeBase)" }
}
