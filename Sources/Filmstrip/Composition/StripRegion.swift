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
