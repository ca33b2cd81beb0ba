import Filmstrip

/// The machine-readable frame index painted into every reference video frame.
///
/// The bottom quarter of the upright picture holds a grid of 2 rows × 10 columns of
/// black or white cells: bits 0–15 are the frame index (least significant first, row by
/// row), bits 16–19 a check nibble (the XOR of the index's four nibbles, XOR 0b1010, so
/// a black picture never reads as frame 0). Cells are a tenth of the width and an eighth
/// of the height, so a 64-px-high thumbnail still has cells about 8 px square.
public enum FrameIndexMarker {
    /// Cells per marker row, each a tenth of the picture's width.
    public static let columns = 10
    /// Marker rows, in the bottom quarter of the picture.
    public static let rows = 2
    /// Bits of the marker that hold the frame index; the remaining four hold the check nibble.
    public static let indexBits = 16
    /// The largest frame index the marker can show (65,535); `bits(for:)` traps beyond it.
    public static let maximumIndex = (1 << indexBits) - 1

    /// The 20 cell values (true = white) for `index`.
    public static func bits(for index: Int) -> [Bool] {
        precondition((0...maximumIndex).contains(index), "frame index \(index) does not fit the marker")
        let check = checkNibble(for: index)
        return (0..<rows * columns).map { bit in
            bit < indexBits ? (index >> bit) & 1 == 1 : (check >> (bit - indexBits)) & 1 == 1
        }
    }

    static func checkNibble(for index: Int) -> Int {
        ((index & 0xF) ^ (index >> 4 & 0xF) ^ (index >> 8 & 0xF) ^ (index >> 12 & 0xF)) ^ 0b1010
    }

    /// The cell containing upright pixel (x, y) of a `width`x`height` picture, or nil outside the marker band.
    static func cell(x: Int, y: Int, width: Int, height: Int) -> Int? {
        let bandTop = height * 3 / 4
        guard y >= bandTop else { return nil }
        let row = min(rows - 1, (y - bandTop) * rows / (height - bandTop))
        let column = min(columns - 1, x * columns / width)
        return row * columns + column
    }

    /// Reads the frame index from an upright RGBA picture (a thumbnail or a full frame),
    /// or nil when the marker is missing, blurred beyond reading, or fails its check.
    public static func read(from image: Image) -> Int? {
        let bandTop = image.height * 3 / 4
        let bandHeight = image.height - bandTop
        var value = 0
        for bit in 0..<rows * columns {
            let row = bit / columns, column = bit % columns
            // Average the middle half of the cell: edges blur into neighbours when scaled down.
            let x0 = column * image.width / columns, x1 = (column + 1) * image.width / columns
            let y0 = bandTop + row * bandHeight / rows, y1 = bandTop + (row + 1) * bandHeight / rows
            let (sx0, sx1) = (x0 + (x1 - x0) / 4, max(x0 + (x1 - x0) / 4 + 1, x1 - (x1 - x0) / 4))
            let (sy0, sy1) = (y0 + (y1 - y0) / 4, max(y0 + (y1 - y0) / 4 + 1, y1 - (y1 - y0) / 4))
            var sum = 0, count = 0
            for y in sy0..<min(sy1, image.height) {
                for x in sx0..<min(sx1, image.width) {
                    let pixel = image.pixel(x: x, y: y)
                    sum += Int(pixel.red) + Int(pixel.green) + Int(pixel.blue)
                    count += 3
                }
            }
            guard count > 0 else { return nil }
            let mean = sum / count
            if mean > 160 { value |= 1 << bit } else if mean >= 96 { return nil }
        }
        let index = value & maximumIndex
        return value >> indexBits == checkNibble(for: index) ? index : nil
    }
}
