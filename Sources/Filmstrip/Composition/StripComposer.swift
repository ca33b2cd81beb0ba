/// One way to copy thumbnails into a strip image.
///
/// Every composer must produce byte-identical strips for the same input: every visible
/// strip byte is written (background, thumbnails, dimming); row padding is left as it is
/// (zero in a strip from `StripLayout.makeStrip()`).
public protocol StripComposer: Sendable {
    /// Registry key, e.g. for `--composer`.
    var name: String { get }
    /// One line for `--help`.
    var summary: String { get }

    /// Fills `strip` from `thumbnails` as `layout` says.
    ///
    /// `compose` is `async` so that composers can use structured concurrency; the others
    /// never suspend. The composer only reads `thumbnails` and keeps no reference to
    /// either argument after returning.
    /// - Parameters:
    ///   - thumbnails: one image per layout thumbnail, in order, with the layout's sizes.
    ///   - layout: where each thumbnail goes, the background, gaps and dimming.
    ///   - strip: an image of `layout.width` x `layout.height` with aligned rows, e.g. from `makeStrip()`.
    /// - Throws: `CompositionError` when the images do not match the layout.
    func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws

    /// Sets up, once per process, what the composer's runtime needs before its first `compose`
    /// (OpenMP's settings and thread pool), so that a strip job does it while preparing, with
    /// the probe and the plan, and not in the middle of composing. The default does nothing.
    func prepare()
}

extension StripComposer {
    /// Nothing to set up.
    public func prepare() {}
}

/// Inputs that do not match the layout they are composed with.
public enum CompositionError: Error, Hashable, CustomStringConvertible {
    /// The layout places `expected` thumbnails but `actual` images were passed.
    case thumbnailCount(expected: Int, actual: Int)
    /// Thumbnail `index` is `actual` pixels, not the `expected` size the layout holds for it.
    case thumbnailSize(index: Int, expected: PixelSize, actual: PixelSize)
    /// The destination image is `actual` pixels, not the `expected` strip size of the layout.
    case stripSize(expected: PixelSize, actual: PixelSize)
    /// The destination's row stride in bytes is `actual`, not the aligned `expected` one.
    case stripRowBytes(expected: Int, actual: Int)
    /// `memcpyFloor(from:into:)` was given `source` bytes to copy into a strip of `destination` bytes.
    case byteCountMismatch(source: Int, destination: Int)

    /// One line naming the mismatch and both sizes, for the tool's error message.
    public var description: String {
        switch self {
        case let .thumbnailCount(expected, actual):
            "the layout has \(expected) thumbnails, got \(actual)"
        case let .thumbnailSize(index, expected, actual):
            "thumbnail \(index) is \(actual), the layout expects \(expected)"
        case let .stripSize(expected, actual):
            "the strip is \(actual), the layout needs \(expected)"
        case let .stripRowBytes(expected, actual):
            "the strip has \(actual) bytes per row, composers need the aligned \(expected)"
        case let .byteCountMismatch(source, destination):
            "cannot copy \(source) bytes into \(destination) bytes"
        }
    }
}

extension StripLayout {
    /// Checks that `thumbnails` and `strip` are what this layout describes, so that the
    /// composers' unchecked pointer loops stay inside both images.
    func validate(_ thumbnails: [Image], strip: Image) throws(CompositionError) {
        guard thumbnails.count == thumbnailCount else {
            throw .thumbnailCount(expected: thumbnailCount, actual: thumbnails.count)
        }
        for (index, thumbnail) in thumbnails.enumerated() {
            let actual = PixelSize(width: thumbnail.width, height: thumbnail.height)
            guard actual == thumbnailSizes[index], thumbnail.bytesPerRow >= thumbnail.width * Image.bytesPerPixel,
                  thumbnail.pixels.count >= thumbnail.bytesPerRow * thumbnail.height else {
                throw .thumbnailSize(index: index, expected: thumbnailSizes[index], actual: actual)
            }
        }
        guard strip.width == width, strip.height == height else {
            throw .stripSize(expected: size, actual: PixelSize(width: strip.width, height: strip.height))
        }
        let rowBytes = Image.alignedRowBytes(forWidth: width)
        guard strip.bytesPerRow == rowBytes, strip.pixels.count >= rowBytes * height else {
            throw .stripRowBytes(expected: rowBytes, actual: strip.bytesPerRow)
        }
    }
}
