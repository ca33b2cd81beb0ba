import Testing
@testable import Filmstrip

@Suite("Composition layout")
struct CompositionLayoutTests {
    let size = PixelSize(width: 10, height: 6)

    @Test func singleRow() throws {
        let layout = try StripLayout(thumbnailSizes: Array(repeating: size, count: 4), gap: 2)
        #expect(layout.width == 46 && layout.height == 6)
        #expect(layout.destinations.map(\.x) == [0, 12, 24, 36])
        #expect(layout.byteCount == Image.alignedRowBytes(forWidth: 46) * 6)
        let strip = layout.makeStrip()
        #expect(strip.width == 46 && strip.height == 6 && strip.pixels.allSatisfy { $0 == 0 })
    }

    @Test func gridFillsRowsLeftToRight() throws {
        let layout = try StripLayout(thumbnailSizes: Array(repeating: size, count: 7), columns: 3, gap: 1)
        #expect(layout.gridColumns == 3 && layout.gridRows == 3)
        #expect(layout.width == 32 && layout.height == 20)
        #expect(layout.destinations[4] == PixelRect(x: 11, y: 7, width: 10, height: 6))
        #expect(layout.destinations[6] == PixelRect(x: 0, y: 14, width: 10, height: 6))
        let capped = try StripLayout(thumbnailSizes: [size, size], columns: 10)
        #expect(capped.gridColumns == 2 && capped.width == 20)
    }

    @Test func centresSmallerThumbnails() throws {
        let layout = try StripLayout(thumbnailSizes: [PixelSize(width: 9, height: 9), PixelSize(width: 4, height: 2)])
        #expect(layout.cellSize == PixelSize(width: 9, height: 9))
        #expect(layout.destinations[1] == PixelRect(x: 9 + 2, y: 3, width: 4, height: 2))
    }

    @Test func rejectsBadInput() {
        #expect(throws: LayoutError.noThumbnails) { try StripLayout(thumbnailSizes: []) }
        #expect(throws: LayoutError.negativeGap(-1)) { try StripLayout(thumbnailSizes: [size], gap: -1) }
        #expect(throws: LayoutError.invalidColumns(0)) { try StripLayout(thumbnailSizes: [size], columns: 0) }
        #expect(throws: LayoutError.invalidColumns(-3)) { try StripLayout(thumbnailSizes: [size], columns: -3) }
        #expect(throws: LayoutError.invalidThumbnailSize(index: 1, size: PixelSize(width: 0, height: 5))) {
            try StripLayout(thumbnailSizes: [size, PixelSize(width: 0, height: 5)])
        }
        #expect(throws: LayoutError.invalidDimmingFactor(257)) {
            try StripLayout(thumbnailSizes: [size], dimming: Dimming(selectedFromX: 0, selectedToX: 1, factor256: 257))
        }
        #expect(throws: LayoutError.invalidSelection(fromX: 5, toX: 2)) {
            try StripLayout(thumbnailSizes: [size], dimming: Dimming(selectedFromX: 5, selectedToX: 2))
        }
    }

    @Test func rejectsHugeAndOverflowingStrips() {
        // 40 000 x 20 000 px = 3.2 GB, above the 2 GiB limit.
        #expect(throws: LayoutError.self) {
            try StripLayout(thumbnailSizes: [PixelSize(width: 40_000, height: 20_000)])
        }
        #expect(throws: LayoutError.self) {
            try StripLayout(thumbnailSizes: Array(repeating: PixelSize(width: Int.max / 2, height: 1), count: 3))
        }
        #expect(throws: LayoutError.self) {
            try StripLayout(thumbnailSizes: [size, size], gap: Int.max)
        }
        #expect(throws: LayoutError.self) {
            try StripLayout(thumbnailSizes: [PixelSize(width: 1, height: Int.max)])
        }
        // Just under the limit is fine: 2^31 bytes exactly.
        #expect(throws: Never.self) {
            try StripLayout(thumbnailSizes: [PixelSize(width: 1 << 14, height: 1 << 15)])
        }
    }

    @Test func errorsReadWell() {
        let errors: [LayoutError] = [
            .noThumbnails, .negativeGap(-2), .invalidColumns(0),
            .stripTooLarge(columns: 3, rows: 1, cell: size, gap: 0),
            .invalidThumbnailSize(index: 2, size: PixelSize(width: -1, height: 3)),
            .invalidDimmingFactor(300), .invalidSelection(fromX: 3, toX: 1),
            .timeSelectionNeedsSingleRow, .invalidThumbnailTimes("unsorted"),
        ]
        for error in errors { #expect(!error.description.isEmpty && !error.description.contains("LayoutError")) }
        #expect(LayoutError.negativeGap(-2).description.contains("-2"))
    }

    @Test func dimmingSelectionIsClamped() throws {
        let layout = try StripLayout(thumbnailSizes: [size], dimming: Dimming(selectedFromX: -4, selectedToX: 99))
        #expect(layout.dimming == Dimming(selectedFromX: 0, selectedToX: 10))
        #expect(try layout.with(dimming: nil).dimming == nil)
    }

    @Test func timeSelectionMapsToColumns() throws {
        let layout = try StripLayout(thumbnailSizes: Array(repeating: size, count: 4), gap: 2)
        let starts = [Rational(0), Rational(1), Rational(2), Rational(3)]
        // 1.5 s is halfway through thumbnail 1 (x 12..<22): column 17; 3 s is thumbnail 3's left edge.
        #expect(try layout.selectedColumns(forTimes: Rational(3, 2)..<Rational(3), thumbnailStarts: starts, end: Rational(4))
            == 17..<36)
        #expect(try layout.selectedColumns(forTimes: Rational(-1)..<Rational(9), thumbnailStarts: starts, end: Rational(4))
            == 0..<46)
        let dimmed = try layout.dimmed(outsideTimes: Rational(1)..<Rational(2), thumbnailStarts: starts, end: Rational(4))
        #expect(dimmed.dimming == Dimming(selectedFromX: 12, selectedToX: 24, factor256: Dimming.defaultFactor256))

        let grid = try StripLayout(thumbnailSizes: Array(repeating: size, count: 4), columns: 2)
        #expect(throws: LayoutError.timeSelectionNeedsSingleRow) {
            try grid.selectedColumns(forTimes: Rational(0)..<Rational(1), thumbnailStarts: starts, end: Rational(4))
        }
        #expect(throws: LayoutError.self) {
            try layout.selectedColumns(forTimes: Rational(0)..<Rational(1), thumbnailStarts: starts.reversed(), end: Rational(4))
        }
        #expect(throws: LayoutError.self) {
            try layout.selectedColumns(forTimes: Rational(0)..<Rational(1), thumbnailStarts: starts, end: Rational(3))
        }
    }
}
