/// How one pixel is packed in memory: 8 bits per channel, in this order.
public enum PixelFormat: Sendable, Hashable {
    /// Four bytes per pixel: red, green, blue, alpha.
    case rgba
    /// Opaque pixels without the alpha byte.
    case rgb

    /// Bytes one pixel takes: 4 for `rgba`, 3 for `rgb`.
    public var bytesPerPixel: Int { self == .rgba ? 4 : 3 }

    /// Bytes per row of `width` pixels, padded to `Image.rowAlignment`.
    public func alignedRowBytes(forWidth width: Int) -> Int {
        (width * bytesPerPixel + Image.rowAlignment - 1) / Image.rowAlignment * Image.rowAlignment
    }

    /// Copies `count` pixels in `sourceFormat` from `source` to `target` in this format:
    /// RGB to RGBA adds alpha 255, RGBA to RGB drops alpha (callers only drop it from opaque pixels).
    func copy(_ count: Int, from source: UnsafeRawPointer, in sourceFormat: PixelFormat, to target: UnsafeMutableRawPointer) {
        guard sourceFormat != self else {
            target.copyMemory(from: source, byteCount: count * bytesPerPixel)
            return
        }
        let from = source.assumingMemoryBound(to: UInt8.self), to = target.assumingMemoryBound(to: UInt8.self)
        let inStride = sourceFormat.bytesPerPixel, outStride = bytesPerPixel
        for x in 0..<count {
            to[outStride * x] = from[inStride * x]
            to[outStride * x + 1] = from[inStride * x + 1]
            to[outStride * x + 2] = from[inStride * x + 2]
            if self == .rgba { to[4 * x + 3] = 255 }
        }
    }
}

/// Pixels stored row after row in memory that can be read where they are: an `Image`, or
/// the `StripCanvas` a fused pipeline scaled into. Writers take this, so a strip is written
/// without first being copied.
public protocol PixelRows: Sendable {
    /// Width in pixels.
    var width: Int { get }
    /// Height in pixels (rows).
    var height: Int { get }
    /// How each pixel is packed.
    var pixelFormat: PixelFormat { get }
    /// Bytes from one row's start to the next (at least `width` pixels).
    var bytesPerRow: Int { get }
    /// True when every pixel has alpha 255 (always, for `.rgb`).
    var isOpaque: Bool { get }
    /// Calls `body` with the address of the first row; the pointer is valid only inside `body`.
    func withUnsafePixels<Result, Failure: Error>(_ body: (UnsafeRawPointer) throws(Failure) -> Result) throws(Failure) -> Result
    /// The pixels as an RGBA `Image`: the image itself, or a copy of a canvas.
    func rgbaImage() -> Image
}

extension Image: PixelRows {
    /// Always `.rgba`: an image stores four bytes per pixel.
    public var pixelFormat: PixelFormat { .rgba }

    public func withUnsafePixels<Result, Failure: Error>(_ body: (UnsafeRawPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try pixels.withUnsafeBufferPointer { (bytes) throws(Failure) -> Result in try body(UnsafeRawPointer(bytes.baseAddress!)) }
    }

    public func rgbaImage() -> Image { self }
}
