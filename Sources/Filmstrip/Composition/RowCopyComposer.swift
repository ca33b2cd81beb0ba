/// One `memcpy` per thumbnail row: walks the strip row by row and copies each thumbnail's
/// row segment with `copyMemory`; background runs are 32-bit pixel fills and dimmed runs
/// a scalar per-pixel loop over raw pointers (no hand-written vectors).
public struct RowCopyComposer: StripComposer {
    public let name = "rowcopy"
    public let summary = "one memcpy per thumbnail row, scalar fills and dimming"

    /// The row-copy composer; it has no settings.
    public init() {}

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        try layout.validate(thumbnails, strip: strip)
        let stride = strip.bytesPerRow
        let factor = layout.dimming?.factor256 ?? 256
        let plain = layout.background.word, dimmed = layout.background.dimmed(factor256: factor).word
        strip.pixels.withUnsafeMutableBytes { stripBytes in
            for y in 0..<layout.height {
                let row = stripBytes.baseAddress! + y * stride
                layout.forEachSpan(inRow: y, columns: 0..<layout.width) { span in
                    let destination = row + span.x * Image.bytesPerPixel
                    guard let index = span.thumbnail else {
                        destination.initializeMemory(as: UInt32.self, repeating: span.dimmed ? dimmed : plain,
                                                     count: span.width)
                        return
                    }
                    let thumbnail = thumbnails[index]
                    thumbnail.pixels.withUnsafeBytes { pixels in
                        let source = pixels.baseAddress! + span.sourceY * thumbnail.bytesPerRow
                            + span.sourceX * Image.bytesPerPixel
                        if span.dimmed {
                            Self.copyDimmed(from: source, to: destination, pixelCount: span.width, factor256: factor)
                        } else {
                            destination.copyMemory(from: source, byteCount: span.width * Image.bytesPerPixel)
                        }
                    }
                }
            }
        }
    }

    private static func copyDimmed(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer,
                                   pixelCount: Int, factor256: Int) {
        let from = source.assumingMemoryBound(to: UInt8.self)
        let to = destination.assumingMemoryBound(to: UInt8.self)
        for pixel in 0..<pixelCount {
            let offset = pixel * Image.bytesPerPixel
            to[offset] = Dimming.dim(from[offset], factor256: factor256)
            to[offset + 1] = Dimming.dim(from[offset + 1], factor256: factor256)
            to[offset + 2] = Dimming.dim(from[offset + 2], factor256: factor256)
            to[offset + 3] = from[offset + 3]
        }
    }
}
