/// Fills the strip one destination tile at a time: a band of `tileRows` rows by
/// `tileBytes` bytes, crossing several thumbnails, so the tile being written (and, with
/// dimming, re-read) stays in cache. Inside a tile each thumbnail piece is copied with the
/// SIMD kernels, its pixel buffer opened once per tile rather than once per row.
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
        let tilePixels = tileBytes / Image.bytesPerPixel
        let region = StripRegion(layout: layout)
        strip.pixels.withUnsafeMutableBytes { stripBytes in
            let base = stripBytes.baseAddress!
            for top in Swift.stride(from: 0, to: layout.height, by: tileRows) {
                let rows = top..<min(top + tileRows, layout.height)
                for left in Swift.stride(from: 0, to: layout.width, by: tilePixels) {
                    let columns = left..<min(left + tilePixels, layout.width)
                    region.fillBackground(of: layout, rows: rows, columns: columns, strip: base, thumbnails: thumbnails)
                    layout.forEachThumbnail(meeting: columns, rows: rows) { index in
                        region.copy(thumbnail: index, of: thumbnails, layout: layout, rows: rows, columns: columns, strip: base)
                    }
                }
            }
        }
    }
}
