/// Why a video cannot get sprite sheets, as a one-line reason.
public enum SpriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The video is shorter than one millisecond, so it has no cue.
    case tooShort(milliseconds: Int64)
    /// Another video of the run would write the same output paths (the named one).
    case sameOutput(as: String)
    /// One of the video's outputs is another video of the run (the named one).
    case outputIsVideo(String)
    /// The video's claimed duration over the interval gives more cues than a track may hold.
    case tooManyCues(count: Int64, durationMilliseconds: Int64, limit: Int)
    /// A sheet larger than its image format can describe.
    case sheetTooLarge(width: Int, height: Int, format: String, maximumSide: Int)
    /// Two sizes of the run make tiles of one width (`width`), and Jellyfin names a size's
    /// folder and playlist (`folder`) by the width alone: the second would overwrite the first.
    case sameJellyfinWidth(first: ThumbnailSize, second: ThumbnailSize, width: Int, folder: String)

    /// A one-line reason, printed after the video's path.
    public var description: String {
        switch self {
        case .tooShort(let milliseconds): "video lasts \(milliseconds) ms: too short for a thumbnail track"
        case .sameOutput(let other): "its outputs would land on the paths of \(other)"
        case .outputIsVideo(let video): "its outputs would overwrite the video \(video)"
        case .tooManyCues(let count, let duration, let limit):
            "the video claims to last \(SpriteTiming.clock(duration)), which needs \(count) thumbnails at this interval, more than \(limit); "
                + "give a longer interval or a cue count"
        case .sheetTooLarge(let width, let height, let format, let side):
            "a \(width)x\(height) sheet cannot be a \(format) (at most \(side) px a side); give a smaller tile grid or thumbnail width"
        case .sameJellyfinWidth(let first, let second, let width, let folder):
            "sizes \(first) and \(second) both make tiles \(width) px wide, and Jellyfin keeps one folder per width ('\(folder)'): "
                + "the second would overwrite the first; give sizes whose widths differ"
        }
    }
}

/// How far apart thumbnails are: a fixed interval, or a count spread over the whole video.
public enum SpriteSpacing: Sendable, Hashable {
    /// A cue every this many milliseconds (at least 1).
    case interval(milliseconds: Int64)
    /// About this many cues spread over the whole video.
    case count(Int)
}

/// The cues of one video's thumbnail track, in whole milliseconds.
///
/// Cue `i` covers `[i · interval, min((i + 1) · interval, duration))` and shows the frame
/// displayed at its start (within the accuracy's bound). Milliseconds because that is what
/// WebVTT, HLS and BIF can state; with one uniform interval every index format describes the
/// same cues. `.count(N)` takes the interval `⌈duration / N⌉`, which gives N cues or, for
/// durations of a few milliseconds per cue, slightly fewer.
public struct SpriteTiming: Sendable, Hashable {
    /// Length of every cue but possibly the last, in milliseconds.
    public let intervalMilliseconds: Int64
    /// The video's duration, floored to whole milliseconds: the end of the last cue.
    public let durationMilliseconds: Int64
    /// Number of cues (and thumbnails).
    public let count: Int

    /// The cues for a video of `durationSeconds` with `spacing`; throws `SpriteError.tooShort`
    /// below one millisecond, and `.tooManyCues` above `ResourceLimits.maximumThumbnailCount`
    /// cues: the duration is the file's claim, and one frame stamped years in would
    /// otherwise make a plan and a strip of millions of thumbnails.
    public init(durationSeconds: Rational, spacing: SpriteSpacing) throws(SpriteError) {
        let duration = (durationSeconds * Rational(1000)).floor
        guard duration > 0 else { throw .tooShort(milliseconds: duration) }
        let interval: Int64
        switch spacing {
        case .interval(let milliseconds): interval = max(1, milliseconds)
        case .count(let count): interval = max(1, (duration + Int64(count) - 1) / Int64(max(1, count)))
        }
        // Rounded up without `duration + interval - 1`, which overflows for durations near 2⁶³ ms.
        let cues = duration / interval + (duration % interval == 0 ? 0 : 1)
        guard cues <= ResourceLimits.maximumThumbnailCount else {
            throw .tooManyCues(count: cues, durationMilliseconds: duration, limit: ResourceLimits.maximumThumbnailCount)
        }
        intervalMilliseconds = interval
        durationMilliseconds = duration
        count = Int(cues)
    }

    /// Start of cue `index` in milliseconds from the video's start.
    public func start(ofCue index: Int) -> Int64 { Int64(index) * intervalMilliseconds }
    /// End of cue `index` in milliseconds (exclusive), capped at the duration.
    public func end(ofCue index: Int) -> Int64 {
        let (end, overflow) = Int64(index + 1).multipliedReportingOverflow(by: intervalMilliseconds)
        return overflow ? durationMilliseconds : min(end, durationMilliseconds)
    }

    /// The default accuracy: any frame within half an interval of the cue's start, which
    /// is what a scrubbing preview can tell apart, and lets most cues take a keyframe.
    public var defaultAccuracy: Accuracy {
        let half = Rational(intervalMilliseconds, 2000)
        return .tolerance(before: half, after: half)
    }

    /// `HH:MM:SS.mmm`, as WebVTT writes cue times.
    public static func clock(_ milliseconds: Int64) -> String {
        let hours = milliseconds / 3_600_000, minutes = milliseconds / 60_000 % 60
        let seconds = milliseconds / 1000 % 60, fraction = milliseconds % 1000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(two(hours)):\(two(minutes)):\(two(seconds)).\(millis)"
    }
}

extension SamplePlan {
    /// One slot per cue of `timing`, each resolved at the cue's start (not the centre of
    /// its interval, as `init(probe:count:…)` does): a player shows the tile while the
    /// play head is inside the cue, starting at its start.
    public init(probe: VideoProbe, timing: SpriteTiming, accuracy: Accuracy) throws(PlanError) {
        if case .tolerance(let before, let after) = accuracy, before < .zero || after < .zero { throw .negativeTolerance }
        self.accuracy = accuracy
        self.from = .zero
        self.to = probe.duration.seconds
        self.timeBase = probe.timeBase
        let frames = FrameTable(probe: probe)
        targets = (0..<timing.count).map { slot in
            let offset = Rational(timing.start(ofCue: slot), 1000)
            let requested = Timestamp(flooring: probe.startTime.seconds + offset, timeBase: probe.timeBase)
            let frame = frames.choose(for: requested.pts, accuracy: accuracy)
            return Target(slot: slot, requestedTime: requested, framePts: frames.times[frame], frameIndex: frame,
                          keyframePts: frames.keyframe(atOrBefore: frames.times[frame]))
        }
    }
}
