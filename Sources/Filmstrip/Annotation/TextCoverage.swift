/// One line of text as FreeType rendered it: a coverage value per pixel (0 none, 255 full),
/// antialiased, `height` rows with the baseline `baseline` rows down. A plain value: made by
/// `FontFace`, drawn into an `Image` by `Image.blend(_:x:y:color:clip:)`.
struct TextCoverage: Sendable, Hashable {
    var width: Int, height: Int, baseline: Int
    var values: [UInt8]

    init(width: Int, height: Int, baseline: Int) {
        self.width = width
        self.height = height
        self.baseline = baseline
        values = [UInt8](repeating: 0, count: width * height)
    }

    /// The rows that hold ink, for a box that hugs the glyphs (digits have no descenders); empty for blank text.
    var inkRows: Range<Int> {
        let rows = (0..<height).filter { row in values[row * width..<(row + 1) * width].contains { $0 != 0 } }
        guard let first = rows.first, let last = rows.last else { return 0..<0 }
        return first..<last + 1
    }
}

extension Image {
    /// Paints `color` over the pixels of `rectangle` inside `clip`, at the colour's own opacity
    /// (Porter–Duff over, on straight alpha): a translucent dark box keeps the frame visible behind it.
    mutating func blend(_ color: RGBAColor, over rectangle: PixelRect, clip: PixelRect) {
        let left = max(rectangle.x, clip.x, 0), right = min(rectangle.x + rectangle.width, clip.x + clip.width, width)
        let top = max(rectangle.y, clip.y, 0), bottom = min(rectangle.y + rectangle.height, clip.y + clip.height, height)
        guard left < right, top < bottom else { return }
        for y in top..<bottom {
            for x in left..<right { paint(color, coverage: 255, x: x, y: y) }
        }
    }

    /// Draws `text` in `color` with its top-left at (`x`, `y`), each pixel covered as far as the
    /// glyphs cover it; nothing outside `clip` changes.
    mutating func blend(_ text: TextCoverage, x: Int, y: Int, color: RGBAColor, clip: PixelRect) {
        let left = max(x, clip.x, 0), right = min(x + text.width, clip.x + clip.width, width)
        let top = max(y, clip.y, 0), bottom = min(y + text.height, clip.y + clip.height, height)
        guard left < right, top < bottom else { return }
        for pixelY in top..<bottom {
            for pixelX in left..<right {
                let coverage = text.values[(pixelY - y) * text.width + pixelX - x]
                if coverage != 0 { paint(color, coverage: coverage, x: pixelX, y: pixelY) }
            }
        }
    }

    /// `color` at `coverage` 255ths of its opacity over the pixel at (`x`, `y`).
    private mutating func paint(_ color: RGBAColor, coverage: UInt8, x: Int, y: Int) {
        let offset = y * bytesPerRow + x * Self.bytesPerPixel
        let source = Int(color.alpha) * Int(coverage) / 255
        let destination = Int(pixels[offset + 3])
        // The destination's share of the result, in 255² units: what shows through the source.
        let behind = destination * (255 - source)
        let alpha = source * 255 + behind
        guard alpha > 0 else { return }
        func mix(_ front: UInt8, _ back: UInt8) -> UInt8 {
            UInt8((Int(front) * source * 255 + Int(back) * behind + alpha / 2) / alpha)
        }
        pixels[offset] = mix(color.red, pixels[offset])
        pixels[offset + 1] = mix(color.green, pixels[offset + 1])
        pixels[offset + 2] = mix(color.blue, pixels[offset + 2])
        pixels[offset + 3] = UInt8((alpha + 127) / 255)
    }
}
