import Foundation

/// What a strip shows, written beside it with `--manifest`: per thumbnail the requested
/// time, the actual time of the frame shown and its rectangle, plus the probe and options.
public struct StripManifest: Codable, Sendable {
    /// A time three ways: seconds, and the exact tick count with its time base.
    public struct TimeValue: Codable, Sendable {
        /// The time in seconds (rounded to a `Double`; `pts` and `timeBase` are exact).
        public var seconds: Double
        /// The time in ticks of `timeBase`.
        public var pts: Int64
        /// Seconds per tick as a fraction, e.g. "1/90000".
        public var timeBase: String

        init(_ timestamp: Timestamp) {
            seconds = timestamp.seconds.doubleValue
            pts = timestamp.pts
            timeBase = timestamp.timeBase.description
        }
    }

    /// One thumbnail of the strip: its slot, the time asked for, the frame shown and where it lies.
    public struct Entry: Codable, Sendable {
        /// Position in the plan and the strip, 0-based.
        public var slot: Int
        /// Relative to the video's first frame (times in `pts` are the stream's own).
        public var requested: TimeValue
        /// Presentation time of the frame shown, relative to the video's first frame.
        public var actual: TimeValue
        /// The frame shown, counted in display order from 0.
        public var frameIndex: Int
        /// True when the planned frame could not be decoded and the nearest good frame stands in.
        public var substituted: Bool
        /// The thumbnail's rectangle in the strip, in pixels from its top-left corner.
        public var x: Int, y: Int, width: Int, height: Int
    }

    /// The probe of the video the strip was made from.
    public var video: VideoProbe
    /// The pipeline's name, `EXTRACTOR+COMPOSER`.
    public var pipeline: String
    /// Every setting that shaped the strip (count, size, accuracy, range, layout, decoder options) as text keyed by
    /// name.
    public var options: [String: String]
    /// Width of the strip in pixels.
    public var stripWidth: Int
    /// Height of the strip in pixels.
    public var stripHeight: Int
    /// One entry per thumbnail, in slot order.
    public var thumbnails: [Entry]

    /// The manifest of a finished run: `result` made from `request` by `pipeline` with `stripOptions`.
    public init(result: StripResult, request: ExtractionRequest, pipeline: Pipeline, stripOptions: StripOptions) {
        video = request.probe
        self.pipeline = pipeline.name
        var options: [String: String] = [
            "count": "\(request.plan.count)", "size": "\(request.size)", "accuracy": "\(request.plan.accuracy)",
            "from_s": "\(request.plan.from.doubleValue)", "to_s": "\(request.plan.to.doubleValue)",
            "gap": "\(stripOptions.gap)", "columns": stripOptions.columns.map(String.init) ?? "all",
        ]
        for (key, value) in request.options.fields { options[key] = value }
        if let selection = stripOptions.selection {
            options["select"] = "\(selection.lowerBound.doubleValue)..\(selection.upperBound.doubleValue)"
        }
        self.options = options
        stripWidth = result.pixels.width
        stripHeight = result.pixels.height
        let start = request.probe.startTime
        thumbnails = result.thumbnails.map { thumbnail in
            let rectangle = result.layout.destinations[thumbnail.slot]
            func relative(_ time: Timestamp) -> Timestamp { Timestamp(pts: time.pts - start.pts, timeBase: time.timeBase) }
            return Entry(slot: thumbnail.slot, requested: TimeValue(relative(thumbnail.requestedTime)),
                         actual: TimeValue(relative(thumbnail.actualTime)), frameIndex: thumbnail.frameIndex,
                         substituted: thumbnail.substituted,
                         x: rectangle.x + result.frame.left, y: rectangle.y + result.frame.top, width: rectangle.width, height: rectangle.height)
        }
    }

    /// The manifest as pretty-printed JSON with sorted keys, so equal manifests have equal bytes.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
