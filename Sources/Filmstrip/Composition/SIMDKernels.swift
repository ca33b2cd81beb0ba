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
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD64<UInt8>.self),
                                   toByteOffset: offset, as: SIMD64<UInt8>.self)
            offset += 64
        }
        if byteCount - offset >= 32 {
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD32<UInt8>.self),
                                   toByteOffset: offset, as: SIMD32<UInt8>.self)
            offset += 32
        }
        if byteCount - offset >= 16 {
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self),
                                   toByteOffset: offset, as: SIMD16<UInt8>.self)
            offset += 16
        }
        if byteCount - offset >= 8 {
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self),
                                   toByteOffset: offset, as: SIMD8<UInt8>.self)
            offset += 8
        }
        if byteCount - offset >= 4 {
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt32.self),
                                   toByteOffset: offset, as: UInt32.self)
        }
    }

    /// Copies `byteCount` bytes with R, G, B dimmed by `Dimming.dim(_:factor256:)`.
    ///
    /// Bytes are read as 16-bit lanes (two channels each) and split into the low and the
    /// high byte, so `c * factor + 128` is computed in 16-bit lanes without any widening
    /// conversion (255 * 256 + 128 < 2^16). The types are concrete on purpose: only then
    /// does Swift pick the vector-instruction overloads of the SIMD operators.
    @inline(__always)
    static func copyDimmed(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer,
                           byteCount: Int, factor256: Int) {
        let factor = UInt16(truncatingIfNeeded: factor256)
        var offset = 0
        while byteCount - offset >= 32 {
            let lanes = source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt16>.self)
            let low = ((lanes & 0x00FF) &* factor &+ 128) &>> 8
            let high = ((lanes &>> 8) &* factor &+ 128) & 0xFF00
            // Little-endian pixels: alpha is the high byte of every second lane.
            let alpha = SIMD16<UInt16>(0, 0xFF00, 0, 0xFF00, 0, 0xFF00, 0, 0xFF00,
                                       0, 0xFF00, 0, 0xFF00, 0, 0xFF00, 0, 0xFF00)
            destination.storeBytes(of: ((low | high) & ~alpha) | (lanes & alpha), toByteOffset: offset,
                                   as: SIMD16<UInt16>.self)
            offset += 32
        }
        if byteCount - offset >= 16 {
            let lanes = source.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt16>.self)
            let low = ((lanes & 0x00FF) &* factor &+ 128) &>> 8
            let high = ((lanes &>> 8) &* factor &+ 128) & 0xFF00
            let alpha = SIMD8<UInt16>(0, 0xFF00, 0, 0xFF00, 0, 0xFF00, 0, 0xFF00)
            destination.storeBytes(of: ((low | high) & ~alpha) | (lanes & alpha), toByteOffset: offset,
                                   as: SIMD8<UInt16>.self)
            offset += 16
        }
        if byteCount - offset >= 8 {
            let lanes = source.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt16>.self)
            let low = ((lanes & 0x00FF) &* factor &+ 128) &>> 8
            let high = ((lanes &>> 8) &* factor &+ 128) & 0xFF00
            let alpha = SIMD4<UInt16>(0, 0xFF00, 0, 0xFF00)
            destination.storeBytes(of: ((low | high) & ~alpha) | (lanes & alpha), toByteOffset: offset,
                                   as: SIMD4<UInt16>.self)
            offset += 8
        }
        if byteCount - offset >= 4 {
            let lanes = source.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt16>.self)
            let low = ((lanes & 0x00FF) &* factor &+ 128) &>> 8
            let high = ((lanes &>> 8) &* factor &+ 128) & 0xFF00
            let alpha = SIMD2<UInt16>(0, 0xFF00)
            destination.storeBytes(of: ((low | high) & ~alpha) | (lanes & alpha), toByteOffset: offset,
                                   as: SIMD2<UInt16>.self)
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

    /// What `write` needs of a layout, read once per composition rather than once per run.
    struct Colors {
        let factor256: Int
        let background: RGBAColor
        let dimmedBackground: RGBAColor

        init(_ layout: StripLayout) {
            factor256 = layout.dimming?.factor256 ?? 256
            background = layout.background
            dimmedBackground = layout.background.dimmed(factor256: factor256)
        }
    }

    /// Writes one run of a strip row: thumbnail bytes (plain or dimmed) or background.
    @inline(__always)
    static func write(_ span: StripSpan, row: UnsafeMutableRawPointer, colors: Colors, thumbnails: [Image]) {
        let destination = row + span.x * Image.bytesPerPixel
        let byteCount = span.width * Image.bytesPerPixel
        guard let index = span.thumbnail else {
            fill(destination, byteCount: byteCount, color: span.dimmed ? colors.dimmedBackground : colors.background)
            return
        }
        let bytesPerRow = thumbnails[index].bytesPerRow
        thumbnails[index].pixels.withUnsafeBytes { pixels in
            let source = pixels.baseAddress! + span.sourceY * bytesPerRow + span.sourceX * Image.bytesPerPixel
            if span.dimmed {
                copyDimmed(from: source, to: destination, byteCount: byteCount, factor256: colors.factor256)
            } else {
                copy(from: source, to: destination, byteCount: byteCount)
            }
        }
    }
}
