extension Image {
    /// This image turned `degrees` (0, 90, 180 or 270) clockwise. Thumbnails are small, so a
    /// plain pixel loop is fine; rotation happens after scaling, never on full frames.
    public func rotated(clockwise degrees: Int) -> Image {
        let turn = (degrees % 360 + 360) % 360
        guard turn != 0 else { return self }
        let (newWidth, newHeight) = turn == 180 ? (width, height) : (height, width)
        var result = Image(width: newWidth, height: newHeight)
        pixels.withUnsafeBytes { source in
            result.pixels.withUnsafeMutableBytes { target in
                let from = source.bindMemory(to: UInt32.self), to = target.bindMemory(to: UInt32.self)
                let sourceWords = bytesPerRow / 4, targetWords = result.bytesPerRow / 4
                for y in 0..<newHeight {
                    for x in 0..<newWidth {
                        let (sx, sy) = switch turn {
                        case 90: (y, height - 1 - x)
                        case 180: (width - 1 - x, height - 1 - y)
                        default: (width - 1 - y, x)
                        }
                        to[y * targetWords + x] = from[sy * sourceWords + sx]
                    }
                }
            }
        }
        return result
    }
}
