import CKernels

/// How the composers backed by a C cell kernel (`CKernels`) call it: the layout as a
/// `filmstrip_strip_geometry`, the destination rectangles and source strides as flat
/// arrays, and the thumbnails' pixels as raw pointers, handed over in batches of cells.
package enum CellKernel {
    /// A kernel with the shared arguments of `CKernels.h`: strip pixels, geometry,
    /// destinations, sources of the batch, source strides, first cell, cell count.
    package typealias Function = (UnsafeMutablePointer<UInt8>, UnsafePointer<filmstrip_strip_geometry>, UnsafePointer<Int32>,
                          UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>, Int32, Int32) -> Void

    /// Validates the inputs, then calls `kernel` once per batch of up to `cellsPerCall`
    /// cells, in grid order, with every pointer valid for the duration of that call.
    /// - Parameter cellsPerCall: 1...`FILMSTRIP_MAX_CELLS_PER_CALL`. Thumbnail pointers are
    ///   only valid inside nested `withUnsafeBufferPointer` calls, so this bounds their depth.
    package static func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image, cellsPerCall: Int,
                        _ kernel: Function) throws {
        precondition((1...Int(FILMSTRIP_MAX_CELLS_PER_CALL)).contains(cellsPerCall))
        try layout.validate(thumbnails, strip: strip)
        var geometry = geometry(of: layout, bytesPerRow: strip.bytesPerRow)
        let destinations = [Int32](unsafeUninitializedCapacity: layout.thumbnailCount * 4) { rectangles, count in
            for (index, rectangle) in layout.destinations.enumerated() {
                rectangles[4 * index] = Int32(rectangle.x)
                rectangles[4 * index + 1] = Int32(rectangle.y)
                rectangles[4 * index + 2] = Int32(rectangle.width)
                rectangles[4 * index + 3] = Int32(rectangle.height)
            }
            count = rectangles.count
        }
        let strides = thumbnails.map { $0.bytesPerRow }
        let cellCount = layout.gridRows * layout.gridColumns

        strip.pixels.withUnsafeMutableBufferPointer { stripPixels in
            thumbnails.withUnsafeBufferPointer { thumbnails in
                withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: cellsPerCall) { sources in
                    for first in stride(from: 0, to: cellCount, by: cellsPerCall) {
                        let cells = first..<min(first + cellsPerCall, cellCount)
                        let batch = UnsafeBufferPointer(rebasing: thumbnails[min(first, thumbnails.count)..<min(cells.upperBound, thumbnails.count)])
                        withSources(of: batch, from: 0, into: sources) {
                            kernel(stripPixels.baseAddress!, &geometry, destinations, sources.baseAddress!, strides,
                                   Int32(cells.lowerBound), Int32(cells.count))
                        }
                    }
                }
            }
        }
    }

    /// `layout` as the kernels' geometry, for a strip with rows of `bytesPerRow` bytes.
    static func geometry(of layout: StripLayout, bytesPerRow: Int) -> filmstrip_strip_geometry {
        // Every value fits Int32: the layout caps the strip at 2 GiB, so width * 4 < 2^31.
        let undimmed = layout.undimmedColumns
        return filmstrip_strip_geometry(
            width: Int32(layout.width), height: Int32(layout.height), bytesPerRow: bytesPerRow,
            cellWidth: Int32(layout.cellSize.width), cellHeight: Int32(layout.cellSize.height),
            gap: Int32(layout.gap), gridColumns: Int32(layout.gridColumns),
            thumbnailCount: Int32(layout.thumbnailCount), background: layout.background.word,
            undimmedFromX: Int32(undimmed.lowerBound), undimmedToX: Int32(undimmed.upperBound),
            factor256: Int32(layout.dimming?.factor256 ?? 256))
    }

    /// Stores the base address of `thumbnails[next...]` in `sources[next...]`, then calls
    /// `body`, inside every thumbnail's borrow scope so that all the pointers are valid.
    private static func withSources(of thumbnails: UnsafeBufferPointer<Image>, from next: Int,
                                    into sources: UnsafeMutableBufferPointer<UnsafePointer<UInt8>?>,
                                    _ body: () -> Void) {
        guard next < thumbnails.count else { return body() }
        thumbnails[next].pixels.withUnsafeBufferPointer { pixels in
            sources[next] = pixels.baseAddress
            withSources(of: thumbnails, from: next + 1, into: sources, body)
        }
    }
}
