/// Where each thumbnail of a track lies: sheets of `columns` × `rows` tiles, filled row by
/// row; every sheet has the full grid's size, so all but the last are full and the last has
/// black cells after its thumbnails (as Jellyfin's trickplay tiles are).
public struct SpriteGrid: Sendable, Hashable {
    public let tile: PixelSize
    public let columns: Int
    public let rows: Int
    public let count: Int

    public init(tile: PixelSize, columns: Int, rows: Int, count: Int) {
        self.tile = tile
        self.columns = columns
        self.rows = rows
        self.count = count
    }

    public var tilesPerSheet: Int { columns * rows }
    public var sheetCount: Int { (count + tilesPerSheet - 1) / tilesPerSheet }
    public var sheetSize: PixelSize { PixelSize(width: columns * tile.width, height: rows * tile.height) }

    public func sheet(ofThumbnail index: Int) -> Int { index / tilesPerSheet }
    /// Thumbnails on sheet `sheet`.
    public func thumbnails(onSheet sheet: Int) -> Range<Int> { sheet * tilesPerSheet..<min(count, (sheet + 1) * tilesPerSheet) }

    /// The thumbnail's rectangle in its sheet.
    public func rectangle(ofThumbnail index: Int) -> PixelRect {
        let cell = index % tilesPerSheet
        return PixelRect(x: cell % columns * tile.width, y: cell / columns * tile.height, width: tile.width, height: tile.height)
    }

    /// The options for one strip holding every thumbnail in rows of `columns`: its rows of
    /// cells are the sheets' rows, so sheet `k` is the strip's band of rows `k·rows…`.
    public var stripOptions: StripOptions { StripOptions(columns: columns, gap: 0, background: .black) }

    /// Sheet `sheet` cut from `strip` (made with `stripOptions`), padded to the full sheet
    /// size: rows are converted where they lie (a fused pipeline's RGB canvas included),
    /// so the whole strip is never copied.
    public func sheet(_ sheet: Int, from strip: some PixelRows) -> Image {
        var image = Image(width: sheetSize.width, height: sheetSize.height, fill: (0, 0, 0, 255))
        let top = sheet * rows * tile.height
        let bandRows = max(0, min(rows * tile.height, strip.height - top)), width = min(strip.width, sheetSize.width)
        let targetStride = image.bytesPerRow
        strip.withUnsafePixels { first in
            image.pixels.withUnsafeMutableBytes { target in
                for y in 0..<bandRows {
                    PixelFormat.rgba.copy(width, from: first + (top + y) * strip.bytesPerRow, in: strip.pixelFormat,
                                          to: target.baseAddress! + y * targetStride)
                }
            }
        }
        return image
    }
}
