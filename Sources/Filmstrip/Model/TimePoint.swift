/// A point in a video as people give it: seconds from the start (`12.5`, `1:02`), a share
/// of the duration (`10%`, as ffmpegthumbnailer's `-t` and vcsi take it), or seconds before
/// the end (`-5s`, `-0:05`). Parsed once from the text; resolved against the probed
/// duration where the video is known (`StripJob`, the `thumbnails` command).
public enum TimePoint: Sendable, Hashable, CustomStringConvertible {
    /// Seconds from the video's first frame.
    case seconds(Rational)
    /// A fraction of the duration, 0 (the start) to 1 (the end).
    case fraction(Rational)
    /// Seconds before the end of the video.
    case beforeEnd(Rational)

    /// `12.5`, `12.5s`, `[hh:]mm:ss(.fff)`, `P%` (0 to 100, up to nine decimals), or `-T` with a
    /// unit or a clock (`-5s`, `-0:05`) for a time before the end; nil for anything else.
    /// A bare negative number (`-5`) is refused: with no unit it reads as a mistake more
    /// often than as "five seconds before the end".
    public init?(parsing text: String) {
        if text.hasSuffix("%") {
            guard let percent = TimeParsing.decimalSeconds(String(text.dropLast())), percent <= Rational(100) else { return nil }
            self = .fraction(percent / Rational(100))
        } else if text.hasPrefix("-") {
            let rest = String(text.dropFirst())
            guard rest.hasSuffix("s") || rest.contains(":"), let seconds = Self.seconds(rest) else { return nil }
            self = .beforeEnd(seconds)
        } else {
            guard let seconds = Self.seconds(text) else { return nil }
            self = .seconds(seconds)
        }
    }

    /// Seconds, with or without a trailing `s`.
    private static func seconds(_ text: String) -> Rational? {
        TimeParsing.seconds(text.hasSuffix("s") ? String(text.dropLast()) : text)
    }

    /// Seconds from the video's first frame in a video `duration` seconds long; a time before
    /// the end of a shorter video comes out negative, which the plan refuses as outside the video.
    public func resolved(duration: Rational) -> Rational {
        switch self {
        case .seconds(let seconds): seconds
        case .fraction(let fraction): duration * fraction
        case .beforeEnd(let seconds): duration - seconds
        }
    }

    /// As it was written, normalised: `12.5`, `10%`, `-5s`.
    public var description: String {
        switch self {
        case .seconds(let seconds): "\(seconds.doubleValue)"
        case .fraction(let fraction): "\((fraction * Rational(100)).doubleValue)%"
        case .beforeEnd(let seconds): "-\(seconds.doubleValue)s"
        }
    }
}
