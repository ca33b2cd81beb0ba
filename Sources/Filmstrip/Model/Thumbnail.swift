/// One delivered thumbnail: what was asked for, what is shown, and the pixels.
public struct Thumbnail: Sendable {
    /// Position in the plan, 0-based.
    public var slot: Int
    /// The slot's time.
    public var requestedTime: Timestamp
    /// Presentation time of the frame shown.
    public var actualTime: Timestamp
    /// The frame shown, counted in display order from 0 (equals the reference videos' marker).
    public var frameIndex: Int
    /// True when the planned frame could not be decoded and the nearest good frame stands in.
    public var substituted: Bool
    /// The pixels, or nil when a fused pipeline scaled the frame straight into the strip.
    public var image: Image?

    /// A thumbnail for `slot`, as an extractor delivers it.
    public init(slot: Int, requestedTime: Timestamp, actualTime: Timestamp, frameIndex: Int, substituted: Bool, image: Image?) {
        self.slot = slot
        self.requestedTime = requestedTime
        self.actualTime = actualTime
        self.frameIndex = frameIndex
        self.substituted = substituted
        self.image = image
    }
}
