/// The baseline: paints the background, then draws each thumbnail, then dims, one pixel
/// (four array subscripts) at a time, as drawing images into a canvas would.
///
/// It deliberately shares no code with the other composers, so that the conformance
/// tests compare them against an independent reading of the layout.
public struct NaiveComposer: StripComposer {
    public let name = "naive"
    public let summary = "per-pixel scalar loop through array subscripts (slow baseline)"

    /// The baseline composer; it has no settings.
    public init() {}

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        try layout.validate(thumbnails, strip: strip)
        let stride = strip.bytesPerRow
        let background = layout.background
        for y in 0..<strip.height {
            for x in 0..<strip.width {
                let offset = y * stride + x * 4
                strip.pixels[offset] = background.red
                strip.pixels[offset + 1] = background.green
                strip.pixels[offset + 2] = background.blue
                strip.pixels[offset + 3] = background.alpha
            }
        }
        for (thumbnail, rect) in zip(thumbnails, layout.destinations) {
            for y in 0..<thumbnail.height {
                for x in 0..<thumbnail.width {
                    let source = y * thumbnail.bytesPerRow + x * 4
                    let destination = (rect.y + y) * stride + (rect.x + x) * 4
                    strip.pixels[destination] = thumbnail.pixels[source]
                    strip.pixels[destination + 1] = thumbnail.pixels[source + 1]
                    strip.pixels[destination + 2] = thumbnail.pixels[source + 2]
                    strip.pixels[destination + 3] = thumbnail.pixels[source + 3]
                }
            }
        }
        guard let dimming = layout.dimming else { return }
        for y in 0..<strip.height {
            for x in 0..<strip.width where x < dimming.selectedFromX || x >= dimming.selectedToX {
                let offset = y * stride + x * 4
                for channel in 0..<3 {
                    strip.pixels[offset + channel] = Dimming.dim(strip.pixels[offset + channel],
                                                                 factor256: dimming.factor256)
                }
            }
        }
    }
}
