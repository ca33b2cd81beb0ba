/// An 8-bit RGBA image: `height` rows of `bytesPerRow` bytes, each row starting with
/// `width` pixels of 4 bytes (R, G, B, A) and padded to a multiple of 64 bytes.
///
/// Rows are 64 bytes apart in multiples, but `pixels` is a Swift array whose storage is
/// only 16-byte aligned (measured: 48 bytes past a 64-byte boundary), so code that wants
/// cache-line-aligned stores must find the alignment itself, as the `stream` kernel does.
public struct Image: Sendable, Equatable {
    /// Bytes per pixel: R, G, B and A, one byte each.
    public static let bytesPerPixel = 4
    /// Row padding in bytes: swscale's SIMD paths and the composers' vector loops want whole
    /// vectors per row.
    public static let rowAlignment = 64

    /// Width in pixels.
    public let width: Int
    /// Height in pixels (rows).
    public let height: Int
    public let bytesPerRow: Int
    /// The pixel bytes, `bytesPerRow` × `height` of them, row padding included.
    public var pixels: [UInt8]

    /// A zero-filled (transparent black) image, or one filled with `fill` (RGBA).
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)) {
        precondition(width > 0 && height > 0, "Image needs a positive size, got \(width)x\(height)")
        self.width = width
        self.height = height
        self.bytesPerRow = Self.alignedRowBytes(forWidth: width)
        if fill == (0, 0, 0, 0) {
            pixels = [UInt8](repeating: 0, count: bytesPerRow * height)
        } else {
            pixels = [UInt8](unsafeUninitializedCapacity: bytesPerRow * height) { buffer, count in
                let pattern = UInt32(fill.0) | UInt32(fill.1) << 8 | UInt32(fill.2) << 16 | UInt32(fill.3) << 24
                let words = UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt32.self)
                words.initialize(repeating: pattern)
                count = buffer.count
            }
        }
    }

    /// `init(width:height:fill:)` for an image big enough that the process may not have room
    /// for it (a strip, a sprite sheet): throws `OutOfMemory`, naming `purpose`, where the
    /// pixels cannot be had, instead of ending the process.
    init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0), roomFor purpose: String) throws(OutOfMemory) {
        try Self.checkRoom(width: width, height: height, for: purpose)
        self.init(width: width, height: height, fill: fill)
    }

    /// Throws `OutOfMemory` unless the pixels of a `width` x `height` image can be had now
    /// (`System.checkRoom`), for code about to make one.
    static func checkRoom(width: Int, height: Int, for purpose: String) throws(OutOfMemory) {
        try System.checkRoom(byteCount: alignedRowBytes(forWidth: width).multipliedClamped(by: height), for: purpose)
    }

    /// Wraps existing pixels; `pixels.count` must be `bytesPerRow * height`.
    public init(width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8]) {
        precondition(bytesPerRow >= width * Self.bytesPerPixel && pixels.count >= bytesPerRow * height)
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
    }

    /// Bytes per row of `width` RGBA pixels, padded to `rowAlignment` (64 bytes).
    public static func alignedRowBytes(forWidth width: Int) -> Int {
        PixelFormat.rgba.alignedRowBytes(forWidth: width)
    }

    /// The RGBA value at (x, y).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = y * bytesPerRow + x * Self.bytesPerPixel
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// Equal visible pixels, ignoring row padding.
    public func hasSamePixels(as other: Image) -> Bool {
        guard width == other.width, height == other.height else { return false }
        let rowBytes = width * Self.bytesPerPixel
        for row in 0..<height where pixels[row * bytesPerRow..<row * bytesPerRow + rowBytes]
            != other.pixels[row * other.bytesPerRow..<row * other.bytesPerRow + rowBytes] {
            return false
        }
        return true
    }

    /// True when every visible pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBytes { bytes in
            for row in 0..<height {
                let start = row * bytesPerRow
                for x in 0..<width where bytes[start + x * Self.bytesPerPixel + 3] != 255 { return false }
            }
            return true
        }
    }
}
