import Filmstrip

/// Paints reference frames: smooth moving content (so encoders make real P- and
/// B-frames without huge bitrates), the frame number in large digits for people, and
/// the `FrameIndexMarker` band for machines. Everything is laid out in the upright
/// picture; for rotated specs the painter writes each coded pixel from the upright
/// pixel a player will show there.
struct FramePainter {
    let codedWidth: Int
    let codedHeight: Int
    let rotationDegrees: Int
    /// Interlaced video: a bar moves across the picture, painted in each field where it is at
    /// that field's moment, so weaving the two fields shows combing at its edges.
    var fieldOrder: ReferenceVideoSpec.FieldOrder? = nil

    var uprightWidth: Int { rotationDegrees % 180 == 0 ? codedWidth : codedHeight }
    var uprightHeight: Int { rotationDegrees % 180 == 0 ? codedHeight : codedWidth }

    /// Upright coordinates of coded pixel (x, y): the inverse of the player's clockwise rotation.
    func upright(x: Int, y: Int) -> (x: Int, y: Int) {
        switch rotationDegrees {
        case 90: (codedHeight - 1 - y, x)
        case 180: (codedWidth - 1 - x, codedHeight - 1 - y)
        case 270: (y, codedWidth - 1 - x)
        default: (x, y)
        }
    }

    /// Luma and chroma of upright pixel (x, y) in frame `index`.
    struct Layers {
        let markerBits: [Bool]
        let digitMask: DigitMask
        let index: Int
        let width: Int
        let height: Int

        func luma(x: Int, y: Int) -> UInt8 {
            if let cell = FrameIndexMarker.cell(x: x, y: y, width: width, height: height) {
                return markerBits[cell] ? 235 : 16
            }
            if let lit = digitMask.value(x: x, y: y) { return lit ? 235 : 16 }
            // Two triangle waves drifting at different speeds: smooth, textured, always moving.
            let u = (x * 512 / width + index * 3) & 255, v = (y * 384 / height + index * 2) & 255
            let wave = abs(u - 128) + abs(v - 128)
            return UInt8(40 + wave * 150 / 256)
        }

        func chroma(x: Int, y: Int) -> (u: UInt8, v: UInt8) {
            if FrameIndexMarker.cell(x: x, y: y, width: width, height: height) != nil
                || digitMask.value(x: x, y: y) != nil { return (128, 128) }
            let u = (x * 256 / width + index) & 127, v = (y * 256 / height + 2 * index) & 127
            return (UInt8(128 - 40 + abs(u - 64) * 80 / 64), UInt8(128 - 40 + abs(v - 64) * 80 / 64))
        }
    }

    func layers(forFrame index: Int) -> Layers {
        Layers(markerBits: FrameIndexMarker.bits(for: index),
               digitMask: DigitMask(number: index, pictureWidth: uprightWidth, pictureHeight: uprightHeight),
               index: index, width: uprightWidth, height: uprightHeight)
    }

    /// Fills planes Y, U, V (4:2:0) of `frame` with frame `index`.
    func paint(_ frame: borrowing Frame, index: Int) {
        let layers = layers(forFrame: index)
        if rotationDegrees % 360 == 0 {
            paintUpright(frame, layers: layers)
        } else {
            paintRotated(frame, layers: layers)
        }
        if let fieldOrder { paintMovingBar(frame, index: index, fieldOrder: fieldOrder) }
    }

    /// Width of the interlaced videos' moving bar, and how far it moves per field.
    static func movingBar(atField field: Int, pictureWidth: Int) -> Range<Int> {
        let width = max(4, pictureWidth / 16), travel = max(1, pictureWidth - width)
        let step = max(2, pictureWidth / 40)
        let left = (field * step) % (2 * travel)
        let start = left < travel ? left : 2 * travel - left
        return start..<(start + width)
    }

    /// A white bar between the digit plate and the marker band (which stay the same in both
    /// fields), at the first field's position on that field's rows and half a frame later on the other's.
    private func paintMovingBar(_ frame: borrowing Frame, index: Int, fieldOrder: ReferenceVideoSpec.FieldOrder) {
        let top = DigitMask(number: index, pictureWidth: codedWidth, pictureHeight: codedHeight).plateHeight
        let bottom = codedHeight * 3 / 4
        frame.withPlane(0, rows: codedHeight) { luma, stride in
            let bytes = luma.assumingMemoryBound(to: UInt8.self)
            for y in top..<max(top, bottom) {
                // Even rows are the top field.
                let laterField = (y % 2 == 0) != (fieldOrder == .topFieldFirst)
                for x in Self.movingBar(atField: 2 * index + (laterField ? 1 : 0), pictureWidth: codedWidth) {
                    bytes[y * stride + x] = 235
                }
            }
        }
    }

    /// Pixel by pixel through the rotation: slow, used only for the small rotated specs.
    private func paintRotated(_ frame: borrowing Frame, layers: Layers) {
        frame.withPlane(0, rows: codedHeight) { luma, stride in
            let bytes = luma.assumingMemoryBound(to: UInt8.self)
            for y in 0..<codedHeight {
                for x in 0..<codedWidth {
                    let point = upright(x: x, y: y)
                    bytes[y * stride + x] = layers.luma(x: point.x, y: point.y)
                }
            }
        }
        paintChroma(frame) { x, y in
            let point = upright(x: x, y: y)
            return layers.chroma(x: point.x, y: point.y)
        }
    }

    /// The 1080p path: the moving background is separable, so each row is a table lookup
    /// per pixel; only the digit plate and marker band are painted through `Layers`.
    private func paintUpright(_ frame: borrowing Frame, layers: Layers) {
        let bandTop = codedHeight * 3 / 4
        let plateRows = min(bandTop, layers.digitMask.plateHeight)
        let plateColumns = min(codedWidth, layers.digitMask.plateWidth)
        let horizontal = (0..<codedWidth).map { x in UInt16(abs(((x * 512 / codedWidth + layers.index * 3) & 255) - 128)) }
        frame.withPlane(0, rows: codedHeight) { luma, stride in
            let bytes = luma.assumingMemoryBound(to: UInt8.self)
            for y in 0..<codedHeight {
                let row = bytes + y * stride
                if y >= bandTop || y < plateRows {
                    let limit = y >= bandTop ? codedWidth : plateColumns
                    for x in 0..<limit { row[x] = layers.luma(x: x, y: y) }
                    if y >= bandTop { continue }
                }
                let vertical = abs(((y * 384 / codedHeight + layers.index * 2) & 255) - 128)
                for x in (y < plateRows ? plateColumns : 0)..<codedWidth {
                    row[x] = UInt8(40 + (Int(horizontal[x]) + vertical) * 150 / 256)
                }
            }
        }
        paintChroma(frame) { x, y in layers.chroma(x: x, y: y) }
    }

    private func paintChroma(_ frame: borrowing Frame, _ value: (Int, Int) -> (u: UInt8, v: UInt8)) {
        let chromaWidth = (codedWidth + 1) / 2, chromaHeight = (codedHeight + 1) / 2
        frame.withPlane(1, rows: chromaHeight) { uPlane, uStride in
            frame.withPlane(2, rows: chromaHeight) { vPlane, vStride in
                let u = uPlane.assumingMemoryBound(to: UInt8.self), v = vPlane.assumingMemoryBound(to: UInt8.self)
                for y in 0..<chromaHeight {
                    for x in 0..<chromaWidth {
                        let sample = value(min(2 * x, codedWidth - 1), min(2 * y, codedHeight - 1))
                        u[y * uStride + x] = sample.u
                        v[y * vStride + x] = sample.v
                    }
                }
            }
        }
    }
}

/// The frame number in a 3×5 pixel font, scaled up, on a dark plate in the top-left corner.
struct DigitMask {
    private static let glyphs: [[UInt8]] = [
        [0b111, 0b101, 0b101, 0b101, 0b111], [0b010, 0b110, 0b010, 0b010, 0b111],
        [0b111, 0b001, 0b111, 0b100, 0b111], [0b111, 0b001, 0b111, 0b001, 0b111],
        [0b101, 0b101, 0b111, 0b001, 0b001], [0b111, 0b100, 0b111, 0b001, 0b111],
        [0b111, 0b100, 0b111, 0b101, 0b111], [0b111, 0b001, 0b010, 0b010, 0b010],
        [0b111, 0b101, 0b111, 0b101, 0b111], [0b111, 0b101, 0b111, 0b001, 0b111],
    ]
    let digits: [Int]
    let unit: Int

    init(number: Int, pictureWidth: Int, pictureHeight: Int) {
        digits = String(number).compactMap(\.wholeNumberValue)
        // Glyph cells are 4 units wide with spacing, plus a one-unit margin; height stays under 40 %.
        unit = max(1, min(pictureHeight * 2 / 5 / 7, pictureWidth * 9 / 10 / (digits.count * 4 + 1)))
    }

    var plateWidth: Int { (digits.count * 4 + 1) * unit }
    var plateHeight: Int { 7 * unit }

    /// nil outside the plate; true on a lit glyph pixel, false on the plate's background.
    func value(x: Int, y: Int) -> Bool? {
        let column = x / unit, row = y / unit
        guard column < digits.count * 4 + 1, row < 7 else { return nil }
        guard column >= 1, row >= 1, row <= 5 else { return false }
        let digit = (column - 1) / 4, glyphColumn = (column - 1) % 4
        guard digit < digits.count, glyphColumn < 3 else { return false }
        return Self.glyphs[digits[digit]][row - 1] >> (2 - glyphColumn) & 1 == 1
    }
}
