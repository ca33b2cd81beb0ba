/// The composition floor for benchmarks: one `memcpy` of as many bytes as the strip holds.
/// No composer that reads every thumbnail byte and writes every strip byte can beat it.
/// - Parameters:
///   - source: any image of the same byte count as `strip` (e.g. a previously composed strip).
///   - strip: overwritten with `source`'s bytes, padding included.
/// - Throws: `CompositionError.byteCountMismatch` when the byte counts differ.
public func memcpyFloor(from source: Image, into strip: inout Image) throws {
    guard source.pixels.count == strip.pixels.count else {
        throw CompositionError.byteCountMismatch(source: source.pixels.count, destination: strip.pixels.count)
    }
    source.pixels.withUnsafeBytes { from in
        strip.pixels.withUnsafeMutableBytes { to in
            to.baseAddress!.copyMemory(from: from.baseAddress!, byteCount: from.count)
        }
    }
}
