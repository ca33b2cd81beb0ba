/// A strip's pixel memory that extraction workers scale into directly (the `fused` pipeline).
///
/// `@unchecked Sendable` is safe because of how it is used: every slot's rectangle is
/// written by exactly one worker (slots are partitioned between workers), rectangles do not
/// overlap, and the owner reads the pixels only after every worker has finished.
public final class StripCanvas: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    /// Destination rectangle of each slot, in strip pixels.
    public let rectangles: [PixelRect]

    /// A canvas of the layout's size, filled with its background colour.
    public init(layout: StripLayout) {
        width = layout.width
        height = layout.height
        bytesPerRow = Image.alignedRowBytes(forWidth: width)
        rectangles = layout.destinations
        bytes = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * height, alignment: Image.rowAlignment)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRow * height)
        let background = layout.background
        let word = UInt32(background.red) | UInt32(background.green) << 8 | UInt32(background.blue) << 16 | UInt32(background.alpha) << 24
        for row in 0..<height {
            (bytes + row * bytesPerRow).initializeMemory(as: UInt32.self, repeating: word, count: width)
        }
    }

    deinit { bytes.deallocate() }

    /// Start of slot `slot`'s rectangle.
    func origin(ofSlot slot: Int) -> UnsafeMutableRawPointer {
        let rectangle = rectangles[slot]
        return bytes + rectangle.y * bytesPerRow + rectangle.x * Image.bytesPerPixel
    }

    /// Copies `image` into slot `slot`'s rectangle.
    func place(_ image: Image, inSlot slot: Int) {
        let target = origin(ofSlot: slot)
        image.pixels.withUnsafeBytes { source in
            for row in 0..<min(image.height, rectangles[slot].height) {
                (target + row * bytesPerRow).copyMemory(from: source.baseAddress! + row * image.bytesPerRow,
                                                        byteCount: min(image.width, rectangles[slot].width) * Image.bytesPerPixel)
            }
        }
    }

    /// Copies slot `source`'s rectangle into slot `destination`'s (a frame shown twice is scaled once).
    func duplicate(slot source: Int, into destination: Int) {
        let from = origin(ofSlot: source), to = origin(ofSlot: destination)
        for row in 0..<rectangles[source].height {
            (to + row * bytesPerRow).copyMemory(from: from + row * bytesPerRow, byteCount: rectangles[source].width * Image.bytesPerPixel)
        }
    }

    /// The finished strip as an `Image` (one copy of the pixels).
    public func image() -> Image {
        let pixels = [UInt8](UnsafeRawBufferPointer(start: bytes, count: bytesPerRow * height))
        return Image(width: width, height: height, bytesPerRow: bytesPerRow, pixels: pixels)
    }
}

extension StripCanvas {
    /// Dims every pixel column outside the selection, with the composers' exact formula.
    func dim(_ dimming: Dimming?) {
        guard let dimming else { return }
        let outside = [0..<min(max(dimming.selectedFromX, 0), width), min(max(dimming.selectedToX, 0), width)..<width]
        for row in 0..<height {
            let pixels = (bytes + row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for columns in outside {
                for x in columns {
                    for channel in 0..<3 {
                        pixels[x * 4 + channel] = Dimming.dim(pixels[x * 4 + channel], factor256: dimming.factor256)
                    }
                }
            }
        }
    }
}
