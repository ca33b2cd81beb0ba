/// Fills the strip one destination tile at a time: a band of `tileRows` rows by
/// `tileBytes` bytes, crossing several thumbnails, so the tile being written (and, with
/// dimming, re-read) stays in cache. Runs inside a tile use the SIMD kernels.
public struct TiledComposer: StripComposer {
    public let name = "tiled"
    public let summary = "cache-sized destination tiles (rows x bytes), SIMD inside each tile"

    /// Rows per tile.
    public let tileRows: Int
    /// Bytes of one tile row; rounded down to whole pixels.
    public let tileBytes: Int

    /// The default tile, 16 rows x 8 KiB = 128 KiB, fits the L2 cache of current x86 and ARM cores.
    public init(tileRows: Int = 16, tileBytes: Int = 8 * 1024) {
        self.tileRows = max(1, tileRows)
        self.tileBytes = max(Image.bytesPerPixel, tileBytes)
    }

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        try layout.validate(thumbnails, strip: strip)
        let stride = strip.bytesPerRow
        let tilePixels = tileBytes / Image.bytesPerPixel
        let colors = SIMDKernels.Colors(layout)
        strip.pixels.withUnsafeMutableBytes { stripBytes in
            for top in Swift.stride(from: 0, to: layout.height, by: tileRows) {
                let rows = top..<min(top + tileRows, layout.height)
                for left in Swift.stride(from: 0, to: layout.width, by: tilePixels) {
                    let columns = left..<min(left + tilePixels, layout.width)
                    for y in rows {
                        let row = stripBytes.baseAddress! + y * stride
                        layout.forEachSpan(inRow: y, columns: columns) { span in
                            SIMDKernels.write(span, row: row, colors: colors, thumbnails: thumbnails)
                        }
                    }
                }
            }
        }
    }
}
