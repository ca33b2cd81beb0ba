/// One decoder that keeps decoding forward, seeking only when the keyframe index shows a
/// keyframe between where it is and the next thumbnail's frame (so seeking saves work).
public struct ForwardExtractor: ThumbnailExtractor {
    public let name = "forward"
    public let summary = "one decoder, decode forward, seek only past a keyframe (uses the keyframe index)"

    public let settings: Set<ExtractorSetting> = [.codecThreads]

    /// The forward extractor; it has no settings.
    public init() {}

    public func extract(_ request: ExtractionRequest, into delivery: ThumbnailDelivery) async throws -> DecodeCounters {
        var engine = try TargetDecoder(request: request)
        try engine.run(request.plan.distinctFrames[...], policy: .whenKeyframeAhead, delivery: delivery)
        return engine.workDone
    }
}
