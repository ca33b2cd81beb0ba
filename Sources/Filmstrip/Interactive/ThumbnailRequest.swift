/// The size an interactive request asks for: a box to fit in, or one side.
public enum ThumbnailBox: Hashable, Sendable, CustomStringConvertible {
    /// The largest thumbnail that fits `width` × `height` pixels with the display aspect ratio
    /// kept (like `AVAssetImageGenerator.maximumSize`): one side touches the box.
    case fitting(width: Int, height: Int)
    /// Thumbnails this many pixels high; the width follows the display aspect ratio.
    case height(Int)
    /// Thumbnails this many pixels wide; the height follows the display aspect ratio.
    case width(Int)

    /// The side `strip` would be given for the same pixels, for a video whose displayed
    /// width / height is `ratio`: a box becomes its height when the picture is relatively
    /// narrower than the box, else its width, so thumbnails are the ones `strip --height` or
    /// `--width` makes.
    public func thumbnailSize(forDisplayAspectRatio ratio: Rational) -> ThumbnailSize {
        switch self {
        case .height(let height): .height(height)
        case .width(let width): .width(width)
        case .fitting(let width, let height):
            Rational(Int64(height)) * ratio <= Rational(Int64(width)) ? .height(height) : .width(width)
        }
    }

    /// `WxH`, `hN` or `wN`.
    public var description: String {
        switch self {
        case .fitting(let width, let height): "\(width)x\(height)"
        case .height(let height): "h\(height)"
        case .width(let width): "w\(width)"
        }
    }
}

/// What one interactive request asks a `ThumbnailGenerator` for.
public struct ThumbnailRequest: Hashable, Sendable {
    /// One slot per time, in seconds from the video's start (0 = its first frame), any order.
    public var times: [Rational]
    /// The thumbnails' size.
    public var box: ThumbnailBox
    /// Which frame may stand for each time (exact, nearest keyframe, or within a tolerance).
    public var accuracy: Accuracy
    /// Turn thumbnails upright by the video's rotation (its display matrix), as players show
    /// it (`AVAssetImageGenerator.appliesPreferredTrackTransform`); false keeps the coded orientation.
    public var appliesRotation: Bool

    /// A request for `times` (seconds from the video's start), fitted to `box`, exact by default, rotation applied.
    public init(times: [Rational], box: ThumbnailBox = .height(64), accuracy: Accuracy = .exact, appliesRotation: Bool = true) {
        self.times = times
        self.box = box
        self.accuracy = accuracy
        self.appliesRotation = appliesRotation
    }
}

/// One image a request delivers: for a slot, the frame shown and whether it is the last word.
public struct GeneratedThumbnail: Sendable {
    /// Position in the request's `times`, 0-based.
    public var slot: Int
    /// The slot's time, floored to the stream's time base.
    public var requestedTime: Timestamp
    /// Presentation time of the frame shown.
    public var actualTime: Timestamp
    /// The frame shown, counted in display order from 0.
    public var frameIndex: Int
    /// True when the frame shown is the one displayed at the requested time.
    public var isExact: Bool
    /// True when no later image replaces this one for its slot (it is what the accuracy asks
    /// for); false for a coarse image (the nearest keyframe's) shown while the exact one is decoded.
    public var isFinal: Bool
    /// True when the image came from the generator's cache without decoding.
    public var fromCache: Bool
    /// The upright RGBA pixels, sized to the request's box.
    public var image: Image
}
