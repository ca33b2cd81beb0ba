import CKernels

/// The C kernel `filmstrip_stream_compose_cells`: writes the strip in whole 64-byte cache
/// lines with non-temporal stores (AVX2 or SSE2, chosen at run time), assembling every strip
/// row left to right while it reads the thumbnails one after the other, front to back.
///
/// An ordinary store makes the CPU read a destination line before overwriting it; streaming
/// whole lines skips that read and keeps the caches for the thumbnails, so the copy moves
/// about two bytes per byte copied instead of three. Reading each thumbnail in order lets
/// the hardware prefetcher fetch it ahead (see `Sources/CKernels/stream.c` for why not
/// strip row by strip row).
public struct StreamComposer: StripComposer {
    public let name = "stream"
    public let summary = "C kernel, whole cache lines with non-temporal stores, thumbnail by thumbnail"

    /// Use AVX2 where the CPU has it; false forces the baseline (SSE2) code, e.g. to test it.
    public let allowsAVX2: Bool
    /// Cells handed to one kernel call, 1...`FILMSTRIP_MAX_CELLS_PER_CALL`. Fewer keep the
    /// nesting of thumbnail borrow scopes shallow (a deep stack is fresh memory to fault in);
    /// more mean fewer lines shared by two calls, which get ordinary stores.
    public let cellsPerCall: Int

    /// A streaming composer; `cellsPerCall` is clamped to 1...`FILMSTRIP_MAX_CELLS_PER_CALL`.
    public init(allowsAVX2: Bool = true, cellsPerCall: Int = 64) {
        self.allowsAVX2 = allowsAVX2
        self.cellsPerCall = min(max(1, cellsPerCall), Int(FILMSTRIP_MAX_CELLS_PER_CALL))
    }

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        let allowAVX2: Int32 = allowsAVX2 ? 1 : 0
        try CellKernel.compose(thumbnails, layout: layout, into: &strip, cellsPerCall: cellsPerCall) {
            filmstrip_stream_compose_cells($0, $1, $2, $3, $4, $5, $6, allowAVX2)
        }
    }
}
