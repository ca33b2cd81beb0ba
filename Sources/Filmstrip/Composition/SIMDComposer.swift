/// Thumbnail by thumbnail, every row moved with Swift SIMD vectors (`SIMD64<UInt8>` copies,
/// `SIMD16<UInt16>` lanes for dimming).
///
/// Walking thumbnails rather than strip rows means each thumbnail's pixel buffer is opened
/// once, not once per row: with 500 thumbnails of 64 rows that removes 31,500 buffer
/// accesses, the overhead that kept a row-major SIMD loop at 3x a plain memcpy. Background
/// (gaps, margins around smaller thumbnails, empty grid cells) is filled first, row by row,
/// and only when the layout has any.
public struct SIMDComposer: StripComposer {
    public let name = "simd"
    public let summary = "thumbnail by thumbnail with Swift SIMD copies, fills and dimming"

    /// The SIMD composer; it has no settings.
    public init() {}

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        try layout.validate(thumbnails, strip: strip)
        let region = StripRegion(layout: layout)
        strip.pixels.withUnsafeMutableBytes { stripBytes in
            region.fillBackground(of: layout, rows: 0..<layout.height, columns: 0..<layout.width,
                                  strip: stripBytes.baseAddress!, thumbnails: thumbnails)
            for index in layout.destinations.indices {
                region.copy(thumbnail: index, of: thumbnails, layout: layout, rows: 0..<layout.height,
                            columns: 0..<layout.width, strip: stripBytes.baseAddress!)
            }
        }
    }
}

/// The SIMD copy of one thumbnail (or the part of it inside a tile) into the strip, shared
/// by the `simd` and `tiled` composers.
struct StripRegion {
    let stride: Int
    let colors: SIMDKernels.Colors
    /// Columns that stay bright (the whole strip when nothing is dimmed).
    let undimmed: Range<Int>

    init(layout: StripLayout) {
        stride = Image.alignedRowBytes(forWidth: layout.width)
        colors = SIMDKernels.Colors(layout)
        undimmed = layout.undimmedColumns.clamped(to: 0..<layout.width)
    }

    /// Background runs of `rows` × `columns`, skipped entirely when the layout has none.
    func fillBackground(of layout: StripLayout, rows: Range<Int>, columns: Range<Int>,
                        strip: UnsafeMutableRawPointer, thumbnails: [Image]) {
        guard layout.hasBackgroundPixels else { return }
        for y in rows {
            layout.forEachSpan(inRow: y, columns: columns) { span in
                guard span.thumbnail == nil else { return }
                SIMDKernels.write(span, row: strip + y * stride, colors: colors, thumbnails: thumbnails)
            }
        }
    }

    /// Copies the part of thumbnail `index` that falls inside `rows` × `columns` of the strip.
    @inline(__always)
    func copy(thumbnail index: Int, of thumbnails: [Image], layout: StripLayout, rows: Range<Int>,
              columns: Range<Int>, strip: UnsafeMutableRawPointer) {
        let rect = layout.destinations[index]
        let left = max(rect.x, columns.lowerBound), right = min(rect.maxX, columns.upperBound)
        let top = max(rect.y, rows.lowerBound), bottom = min(rect.maxY, rows.upperBound)
        guard left < right, top < bottom else { return }
        // Up to three column pieces: dimmed before the selection, bright inside, dimmed after.
        let cutA = min(max(undimmed.lowerBound, left), right), cutB = min(max(undimmed.upperBound, left), right)
        let sourceStride = thumbnails[index].bytesPerRow
        thumbnails[index].pixels.withUnsafeBytes { source in
            for y in top..<bottom {
                let from = source.baseAddress! + (y - rect.y) * sourceStride - rect.x * Image.bytesPerPixel
                let to = strip + y * stride
                if left < cutA {
                    SIMDKernels.copyDimmed(from: from + left * 4, to: to + left * 4, byteCount: (cutA - left) * 4,
                                           factor256: colors.factor256)
                }
                if cutA < cutB {
                    SIMDKernels.copy(from: from + cutA * 4, to: to + cutA * 4, byteCount: (cutB - cutA) * 4)
                }
                if cutB < right {
                    SIMDKernels.copyDimmed(from: from + cutB * 4, to: to + cutB * 4, byteCount: (right - cutB) * 4,
                                           factor256: colors.factor256)
                }
            }
        }
    }
}

extension StripLayout {
    /// True when some strip pixel belongs to no thumbnail: gaps, margins around smaller
    /// thumbnails, or empty cells in the last grid row.
    var hasBackgroundPixels: Bool {
        gap > 0 || gridColumns * gridRows != thumbnailCount
            || thumbnailSizes.contains { $0.width != cellSize.width || $0.height != cellSize.height }
    }

    /// Calls `body` with the index of each thumbnail whose cell meets `columns` × `rows` (grid
    /// arithmetic, no search). A callback rather than an array: the tiled composer asks once
    /// per tile, and an array per tile was 780 heap allocations per 500-thumbnail strip.
    func forEachThumbnail(meeting columns: Range<Int>, rows: Range<Int>, _ body: (Int) -> Void) {
        let pitchX = cellSize.width + gap, pitchY = cellSize.height + gap
        let firstColumn = columns.lowerBound / pitchX, lastColumn = min(gridColumns - 1, (columns.upperBound - 1) / pitchX)
        let firstRow = rows.lowerBound / pitchY, lastRow = min(gridRows - 1, (rows.upperBound - 1) / pitchY)
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return }
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn where row * gridColumns + column < thumbnailCount {
                body(row * gridColumns + column)
            }
        }
    }
}
