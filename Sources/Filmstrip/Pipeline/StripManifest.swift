import Foundation

/// What a strip shows, written beside it with `--manifest`: per thumbnail the requested
/// time, the actual time of the frame shown and its rectangle, plus the probe and options.
public struct StripManifest: Codable, Sendable {
    public struct TimeValue: Codable, Sendable {
        public var seconds: Double
        public var pts: Int64
        public var timeBase: String

        init(_ timestamp: Timestamp) {
            seconds = timestamp.seconds.doubleValue
            pts = timestamp.pts
            timeBase = timestamp.timeBase.description
        }
    }

    public struct Entry: Codable, Sendable {
        public var slot: Int
        /// Relative to the video's first frame (times in `pts` are the stream's own).
        public var requested: TimeValue
        public var actual: TimeValue
        public var frameIndex: Int
        public var substituted: Bool
        public var x: Int, y: Int, width: Int, height: Int
    }

    public var video: VideoProbe
    public var pipeline: String
    public var options: [String: String]
    public var stripWidth: Int
    public var stripHeight: Int
    public var thumbnails: [Entry]

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
                         x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
        }
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
