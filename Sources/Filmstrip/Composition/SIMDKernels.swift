/// Vector loops over byte runs of whole pixels, shared by the SIMD-based composers.
///
/// Each loop walks a run in 64- or 32-byte vectors and finishes the tail with one
/// 32-, 16-, 8- and 4-byte step at most: the branches are per run, never per pixel.
/// Runs are whole pixels and start on a pixel boundary, so lane `i % 4 == 3` is alpha.
/// Pointers may be unaligned; source and destination must not overlap.
enum SIMDKernels {
    /// Copies `byteCount` bytes.
    @inline(__always)
    static func copy(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, byteCount: Int) {
        var offset = 0
        while byteCount - offset >= 64 {
            move(SIMD64<UInt8>.self, source, destination, offset)
            offset += 64
        }
        if byteCount - offset >= 32 { move(SIMD32<UInt8>.self, source, destination, offset); offset += 32 }
        if byteCount - offset >= 16 { move(SIMD16<UInt8>.self, source, destination, offset); offset += 16 }
        if byteCount - offset >= 8 { move(SIMD8<UInt8>.self, source, destination, offset); offset += 8 }
        if byteCount - offset >= 4 { move(SIMD4<UInt8>.self, source, destination, offset) }
    }

    /// Copies `byteCount` bytes with R, G, B dimmed by `Dimming.dim(_:factor256:)`.
    @inline(__always)
    static func copyDimmed(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer,
                           byteCount: Int, factor256: Int) {
        let factor = UInt16(truncatingIfNeeded: factor256)
        var offset = 0
        while byteCount - offset >= 32 {
            let bytes = source.loadUnaligned(fromByteOffset: offset, as: SIMD32<UInt8>.self)
            let dimmed = SIMD32<UInt8>(truncatingIfNeeded: scaled(SIMD32<UInt16>(truncatingIfNeeded: bytes), factor))
            destination.storeBytes(of: keepAlpha(bytes, dimmed, SIMD8<UInt32>.self), toByteOffset: offset,
                                   as: SIMD32<UInt8>.self)
            offset += 32
        }
        if byteCount - offset >= 16 {
            let bytes = source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
            let dimmed = SIMD16<UInt8>(truncatingIfNeeded: scaled(SIMD16<UInt16>(truncatingIfNeeded: bytes), factor))
            destination.storeBytes(of: keepAlpha(bytes, dimmed, SIMD4<UInt32>.self), toByteOffset: offset,
                                   as: SIMD16<UInt8>.self)
            offset += 16
        }
        if byteCount - offset >= 8 {
            let bytes = source.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self)
            let dimmed = SIMD8<UInt8>(truncatingIfNeeded: scaled(SIMD8<UInt16>(truncatingIfNeeded: bytes), factor))
            destination.storeBytes(of: keepAlpha(bytes, dimmed, SIMD2<UInt32>.self), toByteOffset: offset,
                                   as: SIMD8<UInt8>.self)
            offset += 8
        }
        if byteCount - offset >= 4 {
            let bytes = source.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
            var dimmed = SIMD4<UInt8>(truncatingIfNeeded: scaled(SIMD4<UInt16>(truncatingIfNeeded: bytes), factor))
            dimmed[3] = bytes[3]
            destination.storeBytes(of: dimmed, toByteOffset: offset, as: SIMD4<UInt8>.self)
        }
    }

    /// Writes `byteCount / 4` pixels of `color`.
    @inline(__always)
    static func fill(_ destination: UnsafeMutableRawPointer, byteCount: Int, color: RGBAColor) {
        let word = color.word
        let wide = SIMD16<UInt32>(repeating: word)
        var offset = 0
        while byteCount - offset >= 64 {
            destination.storeBytes(of: wide, toByteOffset: offset, as: SIMD16<UInt32>.self)
            offset += 64
        }
        if byteCount - offset >= 32 {
            destination.storeBytes(of: SIMD8<UInt32>(repeating: word), toByteOffset: offset, as: SIMD8<UInt32>.self)
            offset += 32
        }
        if byteCount - offset >= 16 {
            destination.storeBytes(of: SIMD4<UInt32>(repeating: word), toByteOffset: offset, as: SIMD4<UInt32>.self)
            offset += 16
        }
        if byteCount - offset >= 8 {
            destination.storeBytes(of: SIMD2<UInt32>(repeating: word), toByteOffset: offset, as: SIMD2<UInt32>.self)
            offset += 8
        }
        if byteCount - offset >= 4 { destination.storeBytes(of: word, toByteOffset: offset, as: UInt32.self) }
    }

    /// Writes one run of a strip row: thumbnail bytes (plain or dimmed) or background.
    /// `thumbnails` must hold pointers to every thumbnail's pixels when the run is a thumbnail's.
    @inline(__always)
    static func write(_ span: StripSpan, row: UnsafeMutableRawPointer, layout: StripLayout,
                      thumbnails: [Image]) {
        let destination = row + span.x * Image.bytesPerPixel
        let byteCount = span.width * Image.bytesPerPixel
        let factor = layout.dimming?.factor256 ?? 256
        guard let index = span.thumbnail else {
            fill(destination, byteCount: byteCount,
                 color: span.dimmed ? layout.background.dimmed(factor256: factor) : layout.background)
            return
        }
        let thumbnail = thumbnails[index]
        thumbnail.pixels.withUnsafeBytes { pixels in
            let source = pixels.baseAddress! + span.sourceY * thumbnail.bytesPerRow + span.sourceX * Image.bytesPerPixel
            if span.dimmed {
                copyDimmed(from: source, to: destination, byteCount: byteCount, factor256: factor)
            } else {
                copy(from: source, to: destination, byteCount: byteCount)
            }
        }
    }

    @inline(__always)
    private static func move<Vector: SIMD>(_: Vector.Type, _ source: UnsafeRawPointer,
                                           _ destination: UnsafeMutableRawPointer, _ offset: Int) {
        destination.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: Vector.self),
                               toByteOffset: offset, as: Vector.self)
    }

    /// `(c * factor + 128) >> 8` per lane; 16-bit lanes hold it since 255 * 256 + 128 < 2^16.
    @inline(__always)
    private static func scaled<Wide: SIMD>(_ wide: Wide, _ factor: UInt16) -> Wide
    where Wide.Scalar == UInt16 {
        (wide &* Wide(repeating: factor) &+ Wide(repeating: 128)) &>> Wide(repeating: 8)
    }

    /// `dimmed`'s R, G, B lanes with `original`'s alpha lanes, by a bit mask rather than a branch.
    @inline(__always)
    private static func keepAlpha<Bytes: SIMD, Words: SIMD>(_ original: Bytes, _ dimmed: Bytes, _: Words.Type) -> Bytes
    where Bytes.Scalar == UInt8, Words.Scalar == UInt32 {
        // `Words` has a quarter of the lanes at four times the width: the same 16..64 bytes,
        // so the bit cast is a free reinterpretation; little-endian puts 0xFF in every alpha byte.
        let alpha = unsafeBitCast(Words(repeating: 0xFF00_0000), to: Bytes.self)
        return (dimmed & ~alpha) | (original & alpha)
    }
}
