/// One decoder; seeks to the keyframe before every thumbnail and decodes forward to it.
/// The simplest strategy and the reference the others are checked against.
public struct SequentialExtractor: ThumbnailExtractor {
    public let name = "sequential"
    public let summary = "one decoder, seek to the keyframe before every thumbnail, decode to it"

    public let settings: Set<ExtractorSetting> = [.seeksPerThumbnail]
    public let role = ExtractorRole.sequentialReference

    /// The sequential extractor; it has no settings.
    public init() {}

    public func extract(_ request: ExtractionRequest, into delivery: ThumbnailDelivery) async throws -> DecodeCounters {
        var engine = try TargetDecoder(request: request)
        try engine.run(request.plan.distinctFrames[...], policy: .beforeEveryTarget, delivery: delivery)
        return engine.workDone
    }
}
