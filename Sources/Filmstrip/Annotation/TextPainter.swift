/// Draws lines of `BitmapFont` text into an RGBA `Image`, each font pixel a square of
/// `scale` × `scale` image pixels, clipped to a rectangle.
struct TextPainter {
    /// Image pixels per font pixel, at least 1.
    let scale: Int

    init(scale: Int) { self.scale = max(1, scale) }

    /// Height of the glyphs in image pixels.
    var glyphHeight: Int { BitmapFont.glyphHeight * scale }
    /// Distance between the tops of two lines: the glyphs and four font pixels of space.
    var lineHeight: Int { (BitmapFont.glyphHeight + 4) * scale }
    /// How far the shadow lies right of and below the text, in image pixels.
    var shadowOffset: Int { max(1, scale / 2) }

    /// Width in image pixels of `text` drawn in one line.
    func width(of text: String) -> Int { BitmapFont.width(of: text) * scale }

    /// The box `text` with its shadow covers when drawn at (`x`, `y`).
    func box(of text: String, x: Int, y: Int, shadow: Bool) -> PixelRect {
        let extra = shadow ? shadowOffset : 0
        return PixelRect(x: x, y: y, width: width(of: text) + extra, height: glyphHeight + extra)
    }

    /// `text` cut to fit `width` image pixels, its end replaced by "…" when it had to be cut.
    func fitted(_ text: String, width: Int) -> String {
        guard self.width(of: text) > width else { return text }
        var characters = Array(text)
        while !characters.isEmpty && self.width(of: String(characters) + "…") > width { characters.removeLast() }
        return characters.isEmpty ? "" : String(characters) + "…"
    }

    /// Draws `text` with its top-left at (`x`, `y`) in `color`, first its `shadow` (if any)
    /// `shadowOffset` pixels right and down; nothing outside `clip` is touched.
    func draw(_ text: String, into image: inout Image, x: Int, y: Int, color: RGBAColor, shadow: RGBAColor?, clip: PixelRect) {
        if let shadow { paint(text, into: &image, x: x + shadowOffset, y: y + shadowOffset, color: shadow, clip: clip) }
        paint(text, into: &image, x: x, y: y, color: color, clip: clip)
    }

    private func paint(_ text: String, into image: inout Image, x: Int, y: Int, color: RGBAColor, clip: PixelRect) {
        let left = max(clip.x, 0), top = max(clip.y, 0)
        let right = min(clip.x + clip.width, image.width), bottom = min(clip.y + clip.height, image.height)
        let bytesPerRow = image.bytesPerRow
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for (index, character) in text.enumerated() {
                let glyphX = x + index * BitmapFont.advance * scale
                for (row, bits) in BitmapFont.rows(of: character).enumerated() where bits != 0 {
                    for column in 0..<BitmapFont.glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                        let startX = max(glyphX + column * scale, left), endX = min(glyphX + (column + 1) * scale, right)
                        let startY = max(y + row * scale, top), endY = min(y + (row + 1) * scale, bottom)
                        guard startX < endX, startY < endY else { continue }
                        for pixelY in startY..<endY {
                            for pixelX in startX..<endX {
                                let offset = pixelY * bytesPerRow + pixelX * Image.bytesPerPixel
                                (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = (color.red, color.green, color.blue, color.alpha)
                            }
                        }
                    }
                }
            }
        }
    }
}
