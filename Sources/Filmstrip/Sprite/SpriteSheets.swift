/// Where each thumbnail of a track lies: sheets of `columns` × `rows` tiles, filled row by
/// row, all but the last full; the last is either padded to the full grid with black cells
/// (as Jellyfin's trickplay tiles are) or only as large as its thumbnails need. `SpriteMaker`
/// makes it from the settings and the video (``SpriteReport/grid``); apps read it.
public struct SpriteGrid: Sendable, Hashable {
    /// Size of one tile (one thumbnail) in pixels.
    public let tile: PixelSize
    /// Tiles across a sheet.
    public let columns: Int
    /// Tiles down a sheet.
    public let rows: Int
    /// Thumbnails in the whole track, over every sheet.
    public let count: Int

    /// Tiles one full sheet holds (`columns` × `rows`).
    public var tilesPerSheet: Int { columns * rows }
    /// Sheets needed for every thumbnail, the last possibly part-filled.
    public var sheetCount: Int { (count + tilesPerSheet - 1) / tilesPerSheet }
    /// Size of a full sheet in pixels (no gaps between tiles).
    public var sheetSize: PixelSize { PixelSize(width: columns * tile.width, height: rows * tile.height) }

    /// The sheet (from 0) that thumbnail `index` lies on.
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

    /// The size of sheet `sheet`: the full grid's when `padded` (Jellyfin's tiles all have
    /// it), else only the rows (and, on a single-row sheet, the columns) its thumbnails use.
    public func size(ofSheet sheet: Int, padded: Bool) -> PixelSize {
        guard !padded else { return sheetSize }
        let thumbnails = self.thumbnails(onSheet: sheet).count
        return PixelSize(width: min(thumbnails, columns) * tile.width, height: (thumbnails + columns - 1) / columns * tile.height)
    }

    /// Sheet `sheet` cut from `strip` (made with `stripOptions`), padded to the full sheet
    /// size or not: rows are converted where they lie (a fused pipeline's RGB canvas
    /// included), so the whole strip is never copied.
    public func sheet(_ sheet: Int, from strip: some PixelRows, padded: Bool = true) throws(OutOfMemory) -> Image {
        let size = size(ofSheet: sheet, padded: padded)
        var image = try Image(width: size.width, height: size.height, fill: (0, 0, 0, 255), roomFor: "a sprite sheet's pixels")
        let top = sheet * rows * tile.height
        let bandRows = max(0, min(size.height, strip.height - top)), width = min(strip.width, size.width)
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
