import CKernels

/// The C kernel `filmstrip_openmp_compose_cells`: `#pragma omp parallel for` over strip
/// rows, each row split into runs as in the Swift composers, with dimming in C using the
/// same integer formula.
public struct OpenMPComposer: StripComposer {
    public let name = "openmp"
    public let summary = "C kernel, OpenMP parallel for over rows (libomp)"

    /// OpenMP threads per parallel region; 0 lets libomp choose (`OMP_NUM_THREADS` or all cores).
    public let threads: Int
    /// Cells handed to one kernel call. Thumbnail pointers are only valid inside nested
    /// `withUnsafeBufferPointer` calls, so their depth (stack) is bounded by this.
    static let cellsPerCall = 64

    public init(threads: Int = 0) {
        self.threads = max(0, threads)
    }

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        try layout.validate(thumbnails, strip: strip)
        // Every value fits Int32: the layout caps the strip at 2 GiB, so width * 4 < 2^31.
        let undimmed = layout.undimmedColumns
        var geometry = filmstrip_strip_geometry(
            width: Int32(layout.width), height: Int32(layout.height), bytesPerRow: strip.bytesPerRow,
            cellWidth: Int32(layout.cellSize.width), cellHeight: Int32(layout.cellSize.height),
            gap: Int32(layout.gap), gridColumns: Int32(layout.gridColumns),
            thumbnailCount: Int32(layout.thumbnailCount), background: layout.background.word,
            undimmedFromX: Int32(undimmed.lowerBound), undimmedToX: Int32(undimmed.upperBound),
            factor256: Int32(layout.dimming?.factor256 ?? 256))
        let destinations = layout.destinations.flatMap { [Int32($0.x), Int32($0.y), Int32($0.width), Int32($0.height)] }
        let strides = thumbnails.map(\.bytesPerRow)
        let cellCount = layout.gridRows * layout.gridColumns
        let threads = Int32(clamping: threads)

        strip.pixels.withUnsafeMutableBufferPointer { stripPixels in
            for first in stride(from: 0, to: cellCount, by: Self.cellsPerCall) {
                let cells = first..<min(first + Self.cellsPerCall, cellCount)
                var sources: [UnsafePointer<UInt8>?] = []
                sources.reserveCapacity(cells.count)
                Self.withSources(thumbnails[min(cells.lowerBound, thumbnails.count)..<min(cells.upperBound, thumbnails.count)],
                                 collected: &sources) { sources in
                    filmstrip_openmp_compose_cells(stripPixels.baseAddress!, &geometry, destinations, sources, strides,
                                                   Int32(cells.lowerBound), Int32(cells.count), threads)
                }
            }
        }
    }

    /// Calls `body` with the base address of every thumbnail in `thumbnails`, each valid
    /// for the whole call because `body` runs inside all the nested borrow scopes.
    private static func withSources(_ thumbnails: ArraySlice<Image>, collected: inout [UnsafePointer<UInt8>?],
                                    _ body: ([UnsafePointer<UInt8>?]) -> Void) {
        guard let first = thumbnails.first else { return body(collected) }
        first.pixels.withUnsafeBufferPointer { pixels in
            collected.append(pixels.baseAddress)
            withSources(thumbnails.dropFirst(), collected: &collected, body)
        }
    }
}
