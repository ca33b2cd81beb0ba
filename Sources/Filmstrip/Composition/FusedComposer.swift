/// Composition that costs nothing extra: in a pipeline, the extractor's scaler writes each
/// thumbnail straight into its rectangle of the strip (see `StripCanvas`), so no thumbnail
/// buffer exists and this composer only has dimming left to do. Given ready-made
/// thumbnails (as in the composer conformance suite) it copies rows like `rowcopy`.
public struct FusedComposer: StripComposer {
    public let name = "fused"
    public let summary = "the scaler writes each thumbnail straight into the strip (no thumbnail buffers)"

    /// The fused composer; it has no settings.
    public init() {}

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        try await RowCopyComposer().compose(thumbnails, layout: layout, into: &strip)
    }
}
