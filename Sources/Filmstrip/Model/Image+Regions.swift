extension Image {
    /// The pixels inside `rectangle` (which must lie within the image), as a new image.
    public func cropped(to rectangle: PixelRect) -> Image {
        var result = Image(width: rectangle.width, height: rectangle.height)
        result.paste(self, from: rectangle, at: 0, 0)
        return result
    }

    /// Copies `image` into this one with its top-left corner at (`x`, `y`); it must fit.
    public mutating func paste(_ image: Image, atX x: Int, y: Int) {
        paste(image, from: PixelRect(x: 0, y: 0, width: image.width, height: image.height), at: x, y)
    }

    /// Copies `region` of `source` to (`x`, `y`) of this image, row by row.
    private mutating func paste(_ source: Image, from region: PixelRect, at x: Int, _ y: Int) {
        let rowBytes = region.width * Self.bytesPerPixel
        let targetStride = bytesPerRow
        source.pixels.withUnsafeBytes { from in
            pixels.withUnsafeMutableBytes { to in
                for row in 0..<region.height {
                    (to.baseAddress! + (y + row) * targetStride + x * Self.bytesPerPixel)
                        .copyMemory(from: from.baseAddress! + (region.y + row) * source.bytesPerRow + region.x * Self.bytesPerPixel,
                                    byteCount: rowBytes)
                }
            }
        }
    }
}
