import Foundation

/// Text drawn on a finished strip or contact sheet, as vcsi prints it: each tile's time on a
/// dark box in its bottom-right corner, and a header above the tiles naming the file, its
/// size, duration, bit rate, codec and display size, set in an antialiased font (FreeType
/// with DejaVu Sans, `FontFace`), the whole sheet framed by a margin.
///
/// Applied after composition to whatever the pipeline made (an `Image` from a composer or the
/// fused canvas), so every pipeline's tiles get the same text; the tiles themselves are not
/// changed outside the corners their times are drawn in. A strip without text is not touched.
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

    /// Pixels between the tiles of a sheet with text when no gap is asked for: without them
    /// neighbouring tiles of similar frames merge into one band.
    public static let defaultGutter = 6

    /// The font's file: `FILMSTRIP_FONT` when set (the bundle sets its own copy), else DejaVu
    /// Sans from Debian's `fonts-dejavu-core`.
    public static var fontPath: String {
        ProcessInfo.processInfo.environment["FILMSTRIP_FONT"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    }

    /// The margin and header around tiles `stripWidth` pixels wide for `probe`'s video
    /// (`SheetFrame.none` without text). Opens the font to measure the header's lines.
    /// - Throws: `FontError` when the font cannot be opened.
    public func frame(stripWidth: Int, probe: VideoProbe) throws(FontError) -> SheetFrame {
        guard !isEmpty else { return .none }
        let margin = Self.margin(stripWidth: stripWidth)
        guard header else { return SheetFrame(margin: margin, headerHeight: 0) }
        var font = try FontFace(path: Self.fontPath, pixelSize: Self.headerFontSize(stripWidth: stripWidth))
        let lines = Self.headerLines(Self.headerFields(of: probe), width: stripWidth, font: &font)
        // The header's lines, then the margin's space again before the tiles.
        return SheetFrame(margin: margin, headerHeight: lines.count * font.lineHeight + margin)
    }

    /// Pixels around the sheet: 1 % of its width, at least 4.
    static func margin(stripWidth: Int) -> Int { max(4, (stripWidth + 50) / 100) }

    /// The header's text size: about 1/85 of the sheet's width, 10 to 22 pixels (14 on a sheet of six 200-pixel tiles).
    static func headerFontSize(stripWidth: Int) -> Int { min(22, max(10, stripWidth / 85)) }

    /// A tile's time size: an eighth of the tile's height, 9 to 24 pixels.
    static func timestampFontSize(tileHeight: Int) -> Int { min(24, max(9, tileHeight / 8)) }

    /// What the header says of `probe`'s video, as vcsi prints it: file name, size, duration,
    /// average bit rate, then codec, display size and frame rate.
    public static func headerFields(of probe: VideoProbe) -> [String] {
        let name = URL(fileURLWithPath: probe.path).lastPathComponent
        let seconds = probe.durationSeconds
        let bitRate = probe.bitRate ?? (seconds > 0 ? Int(Double(probe.fileSizeBytes) * 8 / seconds) : nil)
        let display = probe.displaySize
        let rate = probe.frameRate.doubleValue
        let fps = rate > 0 && rate.isFinite ? ", " + String(format: rate == rate.rounded() ? "%.0f fps" : "%.3f fps", rate) : ""
        return ["File: \(name)", "Size: \(byteCount(probe.fileSizeBytes))", "Duration: \(clock(seconds, decimals: 1))"]
            + (bitRate.map { ["Bit rate: \(Self.bitRate($0))"] } ?? [])
            + ["Video: \(probe.codec), \(display.width)x\(display.height)\(fps)"]
    }

    /// `fields` set on as few lines as hold them within the margins of a sheet `width` pixels
    /// wide, three spaces between fields on a line; a field wider than a line alone is cut with "…".
    static func headerLines(_ fields: [String], width: Int, font: inout FontFace) -> [String] {
        let room = width - 2 * margin(stripWidth: width)
        var lines: [String] = []
        for field in fields {
            if let last = lines.last, font.width(of: last + "   " + field) <= room {
                lines[lines.count - 1] = last + "   " + field
            } else {
                lines.append(fitted(field, width: room, font: &font))
            }
        }
        return lines
    }

    /// `text` cut to fit `width` pixels, its end replaced by "…" when it had to be cut.
    static func fitted(_ text: String, width: Int, font: inout FontFace) -> String {
        guard font.width(of: text) > width else { return text }
        var characters = Array(text)
        while !characters.isEmpty && font.width(of: String(characters) + "…") > width { characters.removeLast() }
        return characters.isEmpty ? "" : String(characters) + "…"
    }

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

    /// The dark box behind a tile's time: black at 70 %, so the time reads on a white frame
    /// and the frame still shows through.
    static let timeBoxColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 178)

    /// Where a tile's time goes: the text's coverage and its box in the tile's bottom-right
    /// corner, inset by a quarter of the font size. When the box would not fit across the tile,
    /// `font` is replaced by a smaller one (down to 6 pixels), which the next tiles then use too.
    static func placeTime(_ text: String, in tile: PixelRect, font: inout FontFace) throws(FontError) -> (coverage: TextCoverage, box: PixelRect, textOrigin: (x: Int, y: Int)) {
        while true {
            let size = font.pixelSize
            let coverage = font.render(text)
            let ink = coverage.inkRows.isEmpty ? 0..<coverage.height : coverage.inkRows
            let padX = max(2, size / 3), padY = max(2, size / 5), inset = max(2, size / 4)
            let box = PixelSize(width: coverage.width + 2 * padX, height: ink.count + 2 * padY)
            if box.width + 2 * inset <= tile.width || size <= 6 {
                let rectangle = PixelRect(x: tile.x + tile.width - inset - box.width, y: tile.y + tile.height - inset - box.height,
                                          width: box.width, height: box.height)
                return (coverage, rectangle, (rectangle.x + padX, rectangle.y + padY - ink.lowerBound))
            }
            font = try FontFace(path: fontPath, pixelSize: size - 1)
        }
    }

    /// Each thumbnail's time text, relative to the video's first frame, in plan order.
    static func timeTexts(of thumbnails: [Thumbnail], request: ExtractionRequest) -> [(slot: Int, text: String)] {
        let plan = request.plan
        let decimals = decimals(forStep: ((plan.to - plan.from) / Rational(Int64(max(plan.count, 1)))).doubleValue)
        let start = request.probe.startTime.seconds
        return thumbnails.map { ($0.slot, clock(($0.actualTime.seconds - start).doubleValue, decimals: decimals)) }
    }

    /// The strip `pixels` (laid out by `layout`) with this annotation drawn: a new RGBA image
    /// framed by `frame` (the margin all round, the header above), the tiles copied unchanged into it.
    func apply(to pixels: some PixelRows, layout: StripLayout, thumbnails: [Thumbnail], request: ExtractionRequest, frame: SheetFrame) throws -> Image {
        let background = layout.background
        var image = try Image(width: pixels.width + 2 * frame.margin, height: pixels.height + frame.top + frame.margin,
                              fill: (background.red, background.green, background.blue, background.alpha), roomFor: "the annotated strip's pixels")
        image.pixels.withUnsafeMutableBytes { target in
            pixels.withUnsafePixels { source in
                for row in 0..<pixels.height {
                    PixelFormat.rgba.copy(pixels.width, from: source + row * pixels.bytesPerRow, in: pixels.pixelFormat,
                                          to: target.baseAddress! + (row + frame.top) * image.bytesPerRow + frame.left * Image.bytesPerPixel)
                }
            }
        }
        if header { try drawHeader(of: request.probe, into: &image, stripWidth: pixels.width, frame: frame, background: background) }
        if timestamps {
            // One face for the sheet: its tiles share their size (`layout.cellSize`).
            var font = try FontFace(path: Self.fontPath, pixelSize: Self.timestampFontSize(tileHeight: layout.cellSize.height))
            for (slot, text) in Self.timeTexts(of: thumbnails, request: request) {
                var tile = layout.destinations[slot]
                tile.x += frame.left
                tile.y += frame.top
                let (coverage, box, origin) = try Self.placeTime(text, in: tile, font: &font)
                image.blend(Self.timeBoxColor, over: box, clip: tile)
                image.blend(coverage, x: origin.x, y: origin.y, color: .white, clip: tile)
            }
        }
        return image
    }

    private func drawHeader(of probe: VideoProbe, into image: inout Image, stripWidth: Int, frame: SheetFrame, background: RGBAColor) throws(FontError) {
        var font = try FontFace(path: Self.fontPath, pixelSize: Self.headerFontSize(stripWidth: stripWidth))
        // Dark text on a light background, light text on a dark or transparent one.
        let light = background.alpha >= 128 && 299 * Int(background.red) + 587 * Int(background.green) + 114 * Int(background.blue) >= 128_000
        let clip = PixelRect(x: 0, y: 0, width: image.width, height: frame.top)
        for (index, line) in Self.headerLines(Self.headerFields(of: probe), width: stripWidth, font: &font).enumerated() {
            image.blend(font.render(line), x: frame.margin, y: frame.margin + index * font.lineHeight, color: light ? .black : .white, clip: clip)
        }
    }
}

/// The room a sheet's text takes around its tiles: a margin all round, and the header's rows
/// between the top margin and the tiles. Tile rectangles of the layout lie `left` pixels right
/// and `top` pixels down in the annotated image.
public struct SheetFrame: Sendable, Hashable {
    /// Pixels of background on each side of the sheet.
    public var margin: Int
    /// Rows of the header, with its space below, between the top margin and the tiles (0 without a header).
    public var headerHeight: Int

    /// No frame: the strip as the pipeline made it.
    public static let none = SheetFrame(margin: 0, headerHeight: 0)

    /// A frame of `margin` pixels all round and `headerHeight` rows of header above the tiles.
    public init(margin: Int, headerHeight: Int) {
        self.margin = margin
        self.headerHeight = headerHeight
    }

    /// Columns left of the tiles.
    public var left: Int { margin }
    /// Rows above the tiles.
    public var top: Int { margin + headerHeight }

    /// The annotated image's size for tiles laid out in `width` x `height` pixels.
    public func sheetSize(width: Int, height: Int) -> PixelSize {
        PixelSize(width: width + 2 * margin, height: height + top + margin)
    }
}

extension RGBAColor {
    /// Opaque white, the colour of text drawn on tiles.
    static let white = RGBAColor(red: 255, green: 255, blue: 255)
}
