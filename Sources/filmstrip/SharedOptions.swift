import ArgumentParser
import Filmstrip

/// What a command's shared thumbnail options mean when they are not given: `strip` and
/// `thumbnails` make 64-pixel-high exact thumbnails, `sprite` 320-pixel-wide tiles within half
/// the cue interval. The help text of each option says its command's default once.
protocol ThumbnailDefaults {
    static var size: ThumbnailSize { get }
    /// nil where the command works the accuracy out itself (`sprite`).
    static var accuracy: Accuracy? { get }
    /// The default accuracy in words, for the help text.
    static var accuracyText: String { get }
    /// True where one run makes several sizes from one decode (`sprite --width 320,640`).
    static var takesSeveralSizes: Bool { get }
}

/// `strip`'s and `thumbnails`' defaults.
enum StripDefaults: ThumbnailDefaults {
    static let size = ThumbnailSize.height(64)
    static let accuracy: Accuracy? = .exact
    static let accuracyText = "exact"
    static let takesSeveralSizes = false
}

/// `sprite`'s defaults: tiles as wide as web players show them, each cue's frame within half the interval.
enum SpriteDefaults: ThumbnailDefaults {
    static let size = ThumbnailSize.width(320)
    static let accuracy: Accuracy? = nil
    static let accuracyText = "a tolerance of half the interval"
    static let takesSeveralSizes = true
}

/// The size and accuracy of each thumbnail: `--height` or `--width` (the other side follows
/// the display aspect ratio) and `--accuracy`, declared once for every command that makes thumbnails.
struct ThumbnailOptions<Defaults: ThumbnailDefaults>: ParsableArguments {
    @Option(help: "Thumbnail height in pixels\(Self.defaultText(of: .height)); the width follows the display aspect ratio\(Self.severalText).",
            transform: OptionValues.sides)
    var height: [Int]?

    @Option(help: "Thumbnail width in pixels\(Self.defaultText(of: .width)); the height follows the display aspect ratio\(Self.severalText).",
            transform: OptionValues.sides)
    var width: [Int]?

    @Option(help: "exact, keyframe, or tolerance:SEC (tolerance:BEFORE,AFTER); default: \(Defaults.accuracyText).",
            completion: .list(Accuracy.completions), transform: OptionValues.accuracy)
    var accuracy: Accuracy?

    func validate() throws {
        if height != nil && width != nil { throw ValidationError("Give --height or --width, not both.") }
        for (name, sides) in [("--height", height), ("--width", width)] {
            guard let sides else { continue }
            if sides.count > 1 && !Defaults.takesSeveralSizes { throw ValidationError("\(name) takes one size here, got \(sides.map(String.init).joined(separator: ",")).") }
            for side in sides { try OptionRange.check(side, 1...ResourceLimits.maximumThumbnailSide, name) }
        }
    }

    /// True when either side was given.
    var isGiven: Bool { height != nil || width != nil }

    /// The side given (the first, where several are), or the command's default.
    var size: ThumbnailSize { sizes[0] }

    /// Every side given, in order, or the command's default.
    var sizes: [ThumbnailSize] { height.map { $0.map { .height($0) } } ?? width.map { $0.map { .width($0) } } ?? [Defaults.size] }

    private static var severalText: String { Defaults.takesSeveralSizes ? "; several separated by commas make one track each from one decode" : "" }

    /// The accuracy given, or the command's default (nil: the command decides).
    var chosenAccuracy: Accuracy? { accuracy ?? Defaults.accuracy }

    private enum Side { case height, width }

    private static func defaultText(of side: Side) -> String {
        switch (Defaults.size, side) {
        case (.height(let pixels), .height), (.width(let pixels), .width): " (default \(pixels))"
        default: ""
        }
    }
}

/// `--from` and `--to`: the part of the video the thumbnails are spread over: seconds from
/// the video's first frame, a share of its duration (`10%`) or seconds before its end (`-5s`),
/// resolved when the video is probed.
struct RangeOptions: ParsableArguments {
    // Unconditional: `-5s` is a time here, not an option.
    @Option(parsing: .unconditional, help: "Start of the range: seconds, [hh:]mm:ss, P% of the duration or -Ts before the end (default: the start).",
            transform: OptionValues.timePoint)
    var from: TimePoint?

    @Option(parsing: .unconditional, help: "End of the range, as --from (default: the end).", transform: OptionValues.timePoint)
    var to: TimePoint?

    var isGiven: Bool { from != nil || to != nil }

    /// Two times of one kind are ordered without the video: a reversed range is named as the
    /// user wrote it, not found later as a range "outside the video" (a video shorter than --from).
    func validate() throws {
        guard let from, let to, let order = Self.order(from, to), order >= 0 else { return }
        throw ValidationError(order > 0 ? "--from is after --to (\(from) and \(to)): the range is empty." : "--from and --to are the same time (\(from)): the range is empty.")
    }

    /// 1 when `from` lies after `to`, 0 when they are the same time, -1 before; nil for times of different kinds (only the duration orders them).
    static func order(_ from: TimePoint, _ to: TimePoint) -> Int? {
        switch (from, to) {
        case (.seconds(let a), .seconds(let b)), (.fraction(let a), .fraction(let b)): a > b ? 1 : a == b ? 0 : -1
        case (.beforeEnd(let a), .beforeEnd(let b)): a < b ? 1 : a == b ? 0 : -1
        default: nil
        }
    }

    /// The range in seconds from the first frame of a video `duration` seconds long.
    func resolved(duration: Rational) -> (from: Rational?, to: Rational?) {
        (from?.resolved(duration: duration), to?.resolved(duration: duration))
    }
}

/// `--jobs` and `--workers`: how a batch of videos shares the cores (`strip` with several videos, `sprite`).
struct BatchOptions: ParsableArguments {
    @Option(help: "Videos made at a time (default: one per core, at most the videos); the cores are shared out between them.")
    var jobs: Int?

    @Option(help: "Decoding workers per video (default: from the plan and the cores; in a batch, cores / jobs plus the cores finished videos leave idle).")
    var workers: Int?

    func validate() throws {
        try OptionRange.check(jobs, 1...ResourceLimits.maximumWorkers, "--jobs")
        try OptionRange.check(workers, 1...ResourceLimits.maximumWorkers, "--workers")
    }

    /// The batch for `videos` videos.
    func batch(videos: Int) -> VideoBatch { VideoBatch(videos: videos, videosAtATime: jobs, workers: workers) }
}

/// `--quiet` and `--json`: what a command prints on standard output besides errors.
struct ReportingOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print nothing on success (errors still go to stderr).")
    var quiet = false

    @Flag(help: "Print JSON instead of text: a run's progress and results as one object a line, each written whole as it happens.")
    var json = false

    func validate() throws {
        if quiet && json { throw ValidationError("Give --quiet or --json, not both.") }
    }
}

/// `--quality` for JPEG output, 1 to 100.
struct QualityOption: ParsableArguments {
    @Option(help: "JPEG quality 1-100.")
    var quality = 90

    func validate() throws { try OptionRange.check(quality, 1...100, "--quality") }
}

/// The one wording of "a number out of its range".
enum OptionRange {
    static func check(_ value: Int?, _ range: ClosedRange<Int>, _ option: String) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(option) must be \(range.lowerBound) to \(range.upperBound), got \(value).")
    }
}
