/// Why a strip layout cannot be built.
public enum LayoutError: Error, Hashable, CustomStringConvertible {
    /// The layout was asked to place zero thumbnails.
    case noThumbnails
    /// Thumbnail `index` has a zero or negative width or height.
    case invalidThumbnailSize(index: Int, size: PixelSize)
    /// The gap between cells is negative (pixels).
    case negativeGap(Int)
    /// A grid was asked for with fewer than one column.
    case invalidColumns(Int)
    /// The strip would need more than `StripLayout.maximumByteCount` bytes (or its size overflows `Int`).
    case stripTooLarge(columns: Int, rows: Int, cell: PixelSize, gap: Int)
    /// The dimming factor is outside 0...256 (it is in 256ths).
    case invalidDimmingFactor(Int)
    /// The selected column range ends before it starts (strip pixels).
    case invalidSelection(fromX: Int, toX: Int)
    /// A selection given as times needs a one-row strip, where times map to columns.
    case timeSelectionNeedsSingleRow
    /// The thumbnail start times given for a time selection are unusable (the reason says why).
    case invalidThumbnailTimes(String)

    /// One line saying what is wrong and the offending value, for the tool's error message.
    public var description: String {
        switch self {
        case .noThumbnails:
            "a strip needs at least one thumbnail"
        case let .invalidThumbnailSize(index, size):
            "thumbnail \(index) has size \(size); widths and heights must be positive"
        case let .negativeGap(gap):
            "the gap between thumbnails must not be negative, got \(gap) px"
        case let .invalidColumns(columns):
            "a grid needs at least one column, got \(columns)"
        case let .stripTooLarge(columns, rows, cell, gap):
            "a strip of \(columns) x \(rows) cells of \(cell) px with \(gap) px gaps would exceed "
                + "\(StripLayout.maximumByteCount) bytes"
        case let .invalidDimmingFactor(factor):
            "the dimming factor must be in 0...256 (256ths), got \(factor)"
        case let .invalidSelection(fromX, toX):
            "the selected columns [\(fromX), \(toX)) are reversed"
        case .timeSelectionNeedsSingleRow:
            "a time selection maps to strip columns only when the strip is one row of thumbnails"
        case let .invalidThumbnailTimes(reason):
            "invalid thumbnail times: \(reason)"
        }
    }
}

/// Where each thumbnail goes in a strip, and what fills the rest.
///
/// Every thumbnail gets a cell as large as the widest and the tallest thumbnail, and is
/// centred in it (an odd leftover pixel goes to the right / bottom). Cells run left to
/// right in one row, or fill rows of `columns` cells left to right for a contact sheet.
/// `gap` pixels of `background` separate neighbouring cells and rows; there is no gap
/// around the outside. All coordinates are pixels with the origin at the strip's top-left.
public struct StripLayout: Sendable, Hashable {
    /// The largest strip accepted: 2 GiB of pixels (with row padding).
    public static let maximumByteCount = 1 << 31

    /// Size of each thumbnail in strip order, as given to the initialiser.
    public let thumbnailSizes: [PixelSize]
    /// Cells per row as requested; nil means one row holding every thumbnail.
    public let columns: Int?
    /// Pixels between neighbouring cells, horizontally and vertically.
    public let gap: Int
    /// Colour of the gaps, margins around smaller thumbnails and empty grid cells.
    public let background: RGBAColor
    /// Dimming outside a selected column range, with the selection clamped to the strip.
    public let dimming: Dimming?

    /// Size of every cell: the largest thumbnail width and the largest thumbnail height.
    public let cellSize: PixelSize
    /// Cells per row actually used: `columns` capped at the thumbnail count.
    public let gridColumns: Int
    /// Rows of cells: the thumbnail count divided by `gridColumns`, rounded up.
    public let gridRows: Int
    /// Width of the whole strip in pixels, gaps included.
    public let width: Int
    /// Height of the whole strip in pixels, gaps included.
    public let height: Int
    /// Where thumbnail `i` lands in the strip, in the order of `thumbnailSizes`.
    public let destinations: [PixelRect]

    /// Builds and validates a layout; never traps on bad input.
    /// - Parameters:
    ///   - thumbnailSizes: one size per thumbnail, in strip order; all positive.
    ///   - columns: cells per row for a grid, or nil for a single row. Values above the
    ///     thumbnail count are capped to it, so a grid is never wider than its content.
    ///   - gap: pixels between cells and between rows, at least 0.
    ///   - background: fills the gaps, empty grid cells and the margins around smaller thumbnails.
    ///   - dimming: optional; its selected columns are clamped to `0...width`.
    public init(thumbnailSizes: [PixelSize], columns: Int? = nil, gap: Int = 0,
                background: RGBAColor = .black, dimming: Dimming? = nil) throws(LayoutError) {
        guard !thumbnailSizes.isEmpty else { throw .noThumbnails }
        for (index, size) in thumbnailSizes.enumerated() where size.width <= 0 || size.height <= 0 {
            throw .invalidThumbnailSize(index: index, size: size)
        }
        guard gap >= 0 else { throw .negativeGap(gap) }
        if let columns, columns <= 0 { throw .invalidColumns(columns) }

        let count = thumbnailSizes.count
        let cell = PixelSize(width: thumbnailSizes.map(\.width).max()!, height: thumbnailSizes.map(\.height).max()!)
        let gridColumns = min(columns ?? count, count)
        let gridRows = (count + gridColumns - 1) / gridColumns
        let tooLarge = LayoutError.stripTooLarge(columns: gridColumns, rows: gridRows, cell: cell, gap: gap)
        guard let width = Self.extent(cells: gridColumns, cell: cell.width, gap: gap),
              let height = Self.extent(cells: gridRows, cell: cell.height, gap: gap),
              let byteCount = Self.byteCount(width: width, height: height),
              byteCount <= Self.maximumByteCount else { throw tooLarge }

        self.thumbnailSizes = thumbnailSizes
        self.columns = columns
        self.gap = gap
        self.background = background
        self.cellSize = cell
        self.gridColumns = gridColumns
        self.gridRows = gridRows
        self.width = width
        self.height = height
        self.destinations = thumbnailSizes.enumerated().map { index, size in
            let column = index % gridColumns, row = index / gridColumns
            return PixelRect(x: column * (cell.width + gap) + (cell.width - size.width) / 2,
                             y: row * (cell.height + gap) + (cell.height - size.height) / 2,
                             width: size.width, height: size.height)
        }
        if let dimming {
            guard (0...256).contains(dimming.factor256) else { throw .invalidDimmingFactor(dimming.factor256) }
            guard dimming.selectedFromX <= dimming.selectedToX else {
                throw .invalidSelection(fromX: dimming.selectedFromX, toX: dimming.selectedToX)
            }
            self.dimming = Dimming(selectedFromX: min(max(dimming.selectedFromX, 0), width),
                                   selectedToX: min(max(dimming.selectedToX, 0), width),
                                   factor256: dimming.factor256)
        } else {
            self.dimming = nil
        }
    }

    /// A layout for these thumbnails' sizes.
    public init(thumbnails: [Image], columns: Int? = nil, gap: Int = 0,
                background: RGBAColor = .black, dimming: Dimming? = nil) throws(LayoutError) {
        try self.init(thumbnailSizes: thumbnails.map { PixelSize(width: $0.width, height: $0.height) },
                      columns: columns, gap: gap, background: background, dimming: dimming)
    }

    /// The same layout with `dimming` replaced (nil removes it).
    public func with(dimming: Dimming?) throws(LayoutError) -> StripLayout {
        try StripLayout(thumbnailSizes: thumbnailSizes, columns: columns, gap: gap,
                        background: background, dimming: dimming)
    }

    /// How many thumbnails the layout places.
    public var thumbnailCount: Int { thumbnailSizes.count }
    /// The whole strip's size in pixels (`width` x `height`).
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes of the strip image, row padding included.
    public var byteCount: Int { Image.alignedRowBytes(forWidth: width) * height }

    /// A zero-filled strip of this layout's size for a composer to fill; the caller owns it.
    public func makeStrip() -> Image { Image(width: width, height: height) }

    /// The columns left undimmed: the selection, or the whole strip when nothing is dimmed.
    var undimmedColumns: Range<Int> {
        guard let dimming else { return 0..<width }
        return dimming.selectedFromX..<dimming.selectedToX
    }

    /// `cells` cells of `cell` pixels with `gap` pixels between them, or nil on overflow.
    private static func extent(cells: Int, cell: Int, gap: Int) -> Int? {
        let (content, overflow1) = cells.multipliedReportingOverflow(by: cell)
        let (gaps, overflow2) = (cells - 1).multipliedReportingOverflow(by: gap)
        let (total, overflow3) = content.addingReportingOverflow(gaps)
        return overflow1 || overflow2 || overflow3 ? nil : total
    }

    /// Bytes of a `width` x `height` image with aligned rows, or nil on overflow.
    private static func byteCount(width: Int, height: Int) -> Int? {
        let (rowBytes, overflow1) = width.multipliedReportingOverflow(by: Image.bytesPerPixel)
        let (padded, overflow2) = rowBytes.addingReportingOverflow(Image.rowAlignment - 1)
        let (total, overflow3) = (padded / Image.rowAlignment * Image.rowAlignment).multipliedReportingOverflow(by: height)
        return overflow1 || overflow2 || overflow3 ? nil : total
    }
}
