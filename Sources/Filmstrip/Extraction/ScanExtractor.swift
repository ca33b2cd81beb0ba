/// No seeking at all: one pass over the packets from the start, keeping the planned frames.
/// In `keyframe` accuracy only keyframe packets reach the decoder, so it wins when the plan
/// asks for about as many thumbnails as there are keyframes.
public struct ScanExtractor: ThumbnailExtractor {
    public let name = "scan"
    public let summary = "no seeking: one pass over all packets (keyframes only in keyframe mode)"

    /// The scan extractor; it has no settings.
    public init() {}

    public func extract(_ request: ExtractionRequest, into delivery: ThumbnailDelivery) async throws -> DecodeCounters {
        var engine = try TargetDecoder(request: request)
        try engine.run(request.plan.distinctFrames[...], policy: .never, delivery: delivery)
        return engine.workDone
    }
}
