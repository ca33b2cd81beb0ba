/// Row by row over the strip, every run moved with Swift SIMD vectors (`SIMD64<UInt8>`
/// copies and fills, `SIMD32` widened to 16-bit lanes for dimming).
public struct SIMDComposer: StripComposer {
    public let name = "simd"
    public let summary = "row by row with Swift SIMD copies, fills and dimming"

    public init() {}

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        try layout.validate(thumbnails, strip: strip)
        let stride = strip.bytesPerRow
        let colors = SIMDKernels.Colors(layout)
        strip.pixels.withUnsafeMutableBytes { stripBytes in
            for y in 0..<layout.height {
                let row = stripBytes.baseAddress! + y * stride
                layout.forEachSpan(inRow: y, columns: 0..<layout.width) { span in
                    SIMDKernels.write(span, row: row, colors: colors, thumbnails: thumbnails)
                }
            }
        }
    }
}
