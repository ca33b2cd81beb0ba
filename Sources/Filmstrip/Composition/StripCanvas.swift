/// A strip's pixel memory that extraction workers scale into directly (the `fused` pipeline).
///
/// Unchecked `Sendable` is safe because of how the canvas is used: every slot's rectangle is
/// written by exactly one worker (slots are partitioned between workers), rectangles do not
/// overlap, and the owner reads the pixels only after every worker has finished.
public final class StripCanvas: PixelRows, @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    /// Width of the strip in pixels.
    public let width: Int
    /// Height of the strip in pixels.
    public let height: Int
    /// `.rgb` only when nothing in the strip can be transparent: then the canvas, the largest
    /// buffer of a run with many thumbnails, is a quarter smaller.
    public let pixelFormat: PixelFormat
    public let bytesPerRow: Int
    /// Destination rectangle of each slot, in strip pixels.
    public let rectangles: [PixelRect]

    /// A canvas of the layout's size, filled with its background colour, which must be
    /// opaque for an `.rgb` canvas.
    /// - Throws: `OutOfMemory` when the pixels cannot be allocated (the canvas is a run's
    ///   largest buffer, so it is where a memory limit is met first).
    public init(layout: StripLayout, pixelFormat: PixelFormat = .rgba) throws(OutOfMemory) {
        precondition(pixelFormat == .rgba || layout.background.alpha == 255, "an RGB canvas needs an opaque background")
        width = layout.width
        height = layout.height
        self.pixelFormat = pixelFormat
        bytesPerRow = pixelFormat.alignedRowBytes(forWidth: width)
        rectangles = layout.destinations
        bytes = try System.allocate(byteCount: bytesPerRow * height, alignment: Image.rowAlignment, for: "the strip's pixels")
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRow * height)
        let background = layout.background
        switch pixelFormat {
        case .rgba:
            for row in 0..<height {
                (bytes + row * bytesPerRow).initializeMemory(as: UInt32.self, repeating: background.word, count: width)
            }
        case .rgb:
            let first = bytes.assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                (first[3 * x], first[3 * x + 1], first[3 * x + 2]) = (background.red, background.green, background.blue)
            }
            for row in 1..<height {
                (bytes + row * bytesPerRow).copyMemory(from: bytes, byteCount: width * 3)
            }
        }
    }

    /// The canvas a fused pipeline scales `request`'s frames into: RGB when neither the
    /// background nor the video's pixel format (as probed) can be transparent.
    public convenience init(layout: StripLayout, for request: ExtractionRequest) throws(OutOfMemory) {
        try self.init(layout: layout, pixelFormat: Self.pixelFormat(layout: layout, for: request))
    }

    /// RGB when neither the background nor the video's pixel format can be transparent, else RGBA.
    static func pixelFormat(layout: StripLayout, for request: ExtractionRequest) -> PixelFormat {
        layout.background.alpha == 255 && !Scaler.hasAlpha(pixelFormatNamed: request.probe.pixelFormat) ? .rgb : .rgba
    }

    deinit { System.deallocate(bytes) }

    /// Start of slot `slot`'s rectangle.
    func origin(ofSlot slot: Int) -> UnsafeMutableRawPointer {
        let rectangle = rectangles[slot]
        return bytes + rectangle.y * bytesPerRow + rectangle.x * pixelFormat.bytesPerPixel
    }

    /// Copies RGBA `image` into slot `slot`'s rectangle (dropping alpha on an RGB canvas,
    /// which only ever receives opaque images).
    func place(_ image: Image, inSlot slot: Int) {
        let target = origin(ofSlot: slot)
        let rows = min(image.height, rectangles[slot].height), columns = min(image.width, rectangles[slot].width)
        image.pixels.withUnsafeBytes { source in
            for row in 0..<rows {
                pixelFormat.copy(columns, from: source.baseAddress! + row * image.bytesPerRow, in: .rgba, to: target + row * bytesPerRow)
            }
        }
    }

    /// Copies slot `source`'s rectangle into slot `destination`'s (a frame shown twice is scaled once).
    func duplicate(slot source: Int, into destination: Int) {
        let from = origin(ofSlot: source), to = origin(ofSlot: destination)
        for row in 0..<rectangles[source].height {
            (to + row * bytesPerRow).copyMemory(from: from + row * bytesPerRow, byteCount: rectangles[source].width * pixelFormat.bytesPerPixel)
        }
    }

    public var isOpaque: Bool {
        guard pixelFormat == .rgba else { return true }
        for row in 0..<height {
            let pixels = (bytes + row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width where pixels[4 * x + 3] != 255 { return false }
        }
        return true
    }

    public func withUnsafePixels<Result, Failure: Error>(_ body: (UnsafeRawPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(UnsafeRawPointer(bytes))
    }

    /// The finished strip as an RGBA `Image` (a copy of the pixels).
    public func rgbaImage() -> Image {
        var image = Image(width: width, height: height)
        image.pixels.withUnsafeMutableBytes { target in
            for row in 0..<height {
                PixelFormat.rgba.copy(width, from: bytes + row * bytesPerRow, in: pixelFormat, to: target.baseAddress! + row * image.bytesPerRow)
            }
        }
        return image
    }
}

extension StripCanvas {
    /// Dims every pixel column outside the selection, with the composers' exact formula.
    func dim(_ dimming: Dimming?) {
        guard let dimming else { return }
        let outside = [0..<min(max(dimming.selectedFromX, 0), width), min(max(dimming.selectedToX, 0), width)..<width]
        let stride = pixelFormat.bytesPerPixel
        for row in 0..<height {
            let pixels = (bytes + row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for columns in outside {
                for x in columns {
                    for channel in 0..<3 {
                        pixels[x * stride + channel] = Dimming.dim(pixels[x * stride + channel], factor256: dimming.factor256)
                    }
                }
            }
        }
    }
}
