import Filmstrip

/// 64-bit FNV-1a over an image's visible pixels, row by row, skipping row padding.
///
/// Padding is excluded because composers leave it as they found it, so only the
/// visible bytes say whether two strategies made the same strip. FNV-1a, because a
/// checksum only has to tell different strips apart, not resist forgery, and it is
/// a few lines with no dependency.
package enum StripChecksum {
    /// 16 lowercase hex digits.
    package static func of(_ image: Image) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let rowBytes = image.width * Image.bytesPerPixel
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<image.height {
                let start = row * image.bytesPerRow
                for byte in pixels[start..<start + rowBytes] {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                }
            }
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
