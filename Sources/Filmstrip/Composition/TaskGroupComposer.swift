import Foundation

/// Splits the strip into horizontal bands and composes them in child tasks of a task
/// group (Swift structured concurrency), `workers` bands in flight at a time.
///
/// Each child writes its band into a buffer it owns and returns it; the parent copies
/// finished bands into the strip while other children still run. The extra copy is the
/// price of staying within the rules: `Array` only lends a pointer to its storage for the
/// duration of a synchronous closure, so children cannot safely be handed a pointer into
/// `strip.pixels` across the `await`; this way no unchecked Sendable wrapper is needed.
public struct TaskGroupComposer: StripComposer {
    public let name = "taskgroup"
    public let summary = "bands of rows composed in a Swift task group, SIMD inside each band"

    /// Child tasks running at once.
    public let workers: Int
    /// Bands per worker: more than one lets the parent copy early bands while later ones are composed.
    public let bandsPerWorker: Int

    /// A task-group composer with `workers` child tasks (default: one per active core) and `bandsPerWorker` bands each;
    /// both at least 1.
    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount, bandsPerWorker: Int = 4) {
        self.workers = max(1, workers)
        self.bandsPerWorker = max(1, bandsPerWorker)
    }

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        try layout.validate(thumbnails, strip: strip)
        let bandCount = min(layout.height, workers * bandsPerWorker)
        let bands = (0..<bandCount).map { band in
            layout.height * band / bandCount..<layout.height * (band + 1) / bandCount
        }
        let rowBytes = layout.width * Image.bytesPerPixel
        let stride = strip.bytesPerRow

        try await withThrowingTaskGroup(of: (rows: Range<Int>, bytes: [UInt8]).self) { group in
            var next = 0
            func startNextBand() {
                guard next < bands.count else { return }
                let rows = bands[next]
                next += 1
                group.addTask { (rows, Self.composeBand(rows, thumbnails: thumbnails, layout: layout)) }
            }
            for _ in 0..<workers { startNextBand() }
            while let band = try await group.next() {
                startNextBand()
                strip.pixels.withUnsafeMutableBytes { stripBytes in
                    band.bytes.withUnsafeBytes { bandBytes in
                        for (index, y) in band.rows.enumerated() {
                            (stripBytes.baseAddress! + y * stride)
                                .copyMemory(from: bandBytes.baseAddress! + index * rowBytes, byteCount: rowBytes)
                        }
                    }
                }
            }
        }
    }

    /// Strip rows `rows`, visible bytes only (`width * 4` per row, no padding).
    private static func composeBand(_ rows: Range<Int>, thumbnails: [Image], layout: StripLayout) -> [UInt8] {
        let rowBytes = layout.width * Image.bytesPerPixel
        let colors = SIMDKernels.Colors(layout)
        return [UInt8](unsafeUninitializedCapacity: rows.count * rowBytes) { buffer, count in
            let base = UnsafeMutableRawPointer(buffer.baseAddress!)
            for y in rows {
                let row = base + (y - rows.lowerBound) * rowBytes
                // Spans cover every column of the row, so the whole buffer is initialised.
                layout.forEachSpan(inRow: y, columns: 0..<layout.width) { span in
                    SIMDKernels.write(span, row: row, colors: colors, thumbnails: thumbnails)
                }
            }
            count = buffer.count
        }
    }
}
