import Foundation

/// Text drawn on a finished strip or contact sheet, as vcsi and mtn print it: each tile's
/// time in its bottom-right corner, and a header above the tiles naming the file, its
/// duration, size, bit rate, codec and display size.
///
/// Applied after composition to whatever the pipeline made (an `Image` from a composer or the
/// fused canvas), so every pipeline's tiles get the same text; the tiles themselves are not
/// changed outside the corners their times are drawn in.
public struct SheetAnnotation: Sendable, Hashable {
    /// Draw the time of the frame each tile shows (not the slot's planned time) in its corner.
    public var timestamps: Bool
    /// Put the header above the tiles.
    public var header: Bool

    /// No text unless asked for.
    public init(timestamps: Bool = false, header: Bool = false) {
        self.timestamps = timestamps
        self.header = header
    }

    /// True when nothing is drawn.
    public var isEmpty: Bool { !timestamps && !header }

    /// Rows the header adds above the tiles of a strip `stripWidth` pixels wide (0 without a header).
    public func headerHeight(stripWidth: Int) -> Int {
        guard header else { return 0 }
        let painter = Self.headerPainter(stripWidth: stripWidth)
        return 2 * Self.headerPadding(painter) + Self.headerLineCount * painter.lineHeight - (painter.lineHeight - painter.glyphHeight)
    }

    /// The header's lines for `probe`'s video: its file name; duration, file size and bit rate;
    /// codec, display size and frame rate.
    public static func headerLines(of probe: VideoProbe) -> [String] {
        let name = URL(fileURLWithPath: probe.path).lastPathComponent
        let seconds = probe.durationSeconds
        let bitRate = probe.bitRate ?? (seconds > 0 ? Int(Double(probe.fileSizeBytes) * 8 / seconds) : nil)
        let display = probe.displaySize
        let rate = probe.frameRate.doubleValue
        let fps = rate > 0 && rate.isFinite ? ", " + String(format: rate == rate.rounded() ? "%.0f fps" : "%.3f fps", rate) : ""
        return [
            "File: \(name)",
            "Duration: \(clock(seconds, decimals: 1))   Size: \(byteCount(probe.fileSizeBytes))" + (bitRate.map { "   Bit rate: \(Self.bitRate($0))" } ?? ""),
            "Video: \(probe.codec), \(display.width)x\(display.height)\(fps)",
        ]
    }

    static let headerLineCount = 3

    /// A time as `m:ss` (or `h:mm:ss` from an hour on) with `decimals` decimals, cut rather
    /// than rounded: the frame shown at 4.96 s is not yet the one at 0:05.
    public static func clock(_ seconds: Double, decimals: Int) -> String {
        let scale = [1, 10, 100, 1000][min(max(decimals, 0), 3)]
        let units = Int((max(seconds, 0) * Double(scale)).rounded(.down))
        let whole = units / scale, fraction = units % scale
        let hours = whole / 3600, minutes = whole / 60 % 60, secondsPart = whole % 60
        var text = hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secondsPart) : String(format: "%d:%02d", minutes, secondsPart)
        if decimals > 0 { text += "." + String(format: "%0\(min(decimals, 3))d", fraction) }
        return text
    }

    /// Decimals that tell apart tiles `stepSeconds` apart: none from a second on, then one or two.
    static func decimals(forStep stepSeconds: Double) -> Int {
        stepSeconds >= 1 ? 0 : stepSeconds >= 0.1 ? 1 : 2
    }

    static func byteCount(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value >= 1e9 { return String(format: "%.2f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
        if value >= 1e3 { return String(format: "%.1f kB", value / 1e3) }
        return "\(bytes) B"
    }

    static func bitRate(_ bitsPerSecond: Int) -> String {
        let value = Double(bitsPerSecond)
        return value >= 1e6 ? String(format: "%.2f Mb/s", value / 1e6) : String(format: "%.0f kb/s", value / 1e3)
    }

    /// The header's text: larger on wider sheets, 1 to 3 font pixels per pixel.
    static func headerPainter(stripWidth: Int) -> TextPainter {
        TextPainter(scale: min(3, max(1, stripWidth / 400)))
    }

    static func headerPadding(_ painter: TextPainter) -> Int { 3 * painter.scale }

    /// A tile's time text: two image pixels per font pixel at 64 px tiles (14 px high glyphs),
    /// growing with the tile, and smaller when the text would not fit across the tile.
    static func timestampPainter(for text: String, tile: PixelSize) -> TextPainter {
        var scale = max(2, tile.height / 60)
        while scale > 1 && TextPainter(scale: scale).width(of: text) + 4 * scale + max(1, scale / 2) > tile.width { scale -= 1 }
        return TextPainter(scale: scale)
    }

    /// Where a tile's time is drawn: its bottom-right corner, two font pixels in from the edges.
    /// The box covers the text and its shadow; nothing outside it is changed.
    static func timestampBox(of text: String, in rectangle: PixelRect) -> (painter: TextPainter, box: PixelRect) {
        let painter = timestampPainter(for: text, tile: PixelSize(width: rectangle.width, height: rectangle.height))
        let margin = 2 * painter.scale
        let size = painter.box(of: text, x: 0, y: 0, shadow: true)
        let box = PixelRect(x: rectangle.x + rectangle.width - margin - size.width, y: rectangle.y + rectangle.height - margin - size.height,
                            width: size.width, height: size.height)
        return (painter, box)
    }

    /// Each thumbnail's time text, relative to the video's first frame, in plan order.
    static func timeTexts(of thumbnails: [Thumbnail], request: ExtractionRequest) -> [(slot: Int, text: String)] {
        let plan = request.plan
        let decimals = decimals(forStep: ((plan.to - plan.from) / Rational(Int64(max(plan.count, 1)))).doubleValue)
        let start = request.probe.startTime.seconds
        return thumbnails.map { ($0.slot, clock(($0.actualTime.seconds - start).doubleValue, decimals: decimals)) }
    }

    /// The strip `pixels` (laid out by `layout`) with this annotation drawn: a new RGBA image,
    /// `headerHeight(stripWidth:)` rows taller, the tiles copied unchanged below the header.
    func apply(to pixels: some PixelRows, layout: StripLayout, thumbnails: [Thumbnail], request: ExtractionRequest) throws(OutOfMemory) -> Image {
        let top = headerHeight(stripWidth: pixels.width)
        let background = layout.background
        var image = try Image(width: pixels.width, height: pixels.height + top, fill: (background.red, background.green, background.blue, background.alpha),
                              roomFor: "the annotated strip's pixels")
        image.pixels.withUnsafeMutableBytes { target in
            pixels.withUnsafePixels { source in
                for row in 0..<pixels.height {
                    PixelFormat.rgba.copy(pixels.width, from: source + row * pixels.bytesPerRow, in: pixels.pixelFormat,
                                          to: target.baseAddress! + (row + top) * image.bytesPerRow)
                }
            }
        }
        if header { drawHeader(of: request.probe, into: &image, height: top, background: background) }
        if timestamps {
            for (slot, text) in Self.timeTexts(of: thumbnails, request: request) {
                var rectangle = layout.destinations[slot]
                rectangle.y += top
                let (painter, box) = Self.timestampBox(of: text, in: rectangle)
                painter.draw(text, into: &image, x: box.x, y: box.y, color: .white, shadow: .black, clip: rectangle)
            }
        }
        return image
    }

    private func drawHeader(of probe: VideoProbe, into image: inout Image, height: Int, background: RGBAColor) {
        let painter = Self.headerPainter(stripWidth: image.width), padding = Self.headerPadding(painter)
        // Dark text on a light background; light text, with a shadow, on a dark or transparent one.
        let light = background.alpha >= 128 && 299 * Int(background.red) + 587 * Int(background.green) + 114 * Int(background.blue) >= 128_000
        let clip = PixelRect(x: 0, y: 0, width: image.width, height: height)
        for (index, line) in Self.headerLines(of: probe).enumerated() {
            let text = painter.fitted(line, width: image.width - 2 * padding)
            painter.draw(text, into: &image, x: padding, y: padding + index * painter.lineHeight,
                         color: light ? .black : .white, shadow: light ? nil : .black, clip: clip)
        }
    }
}

extension RGBAColor {
    /// Opaque white, the colour of text drawn on tiles.
    static let white = RGBAColor(red: 255, green: 255, blue: 255)
}
