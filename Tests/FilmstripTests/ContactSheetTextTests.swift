import CLITestSupport
@testable import Filmstrip
import Foundation
import Testing

/// `strip --timestamps` and `--header`, checked on the decoded images: a margin frames the
/// sheet, the tiles inside it are the plain strip's bytes but for the time boxes in their
/// corners, the header's text is antialiased and no taller than it needs; a strip without
/// text keeps the bytes it had before the text was set in a real font.
@Suite("contact sheet text")
struct ContactSheetTextTests {
    /// A contact sheet of `video` with `options`, decoded, with its manifest's tiles.
    static func sheet(_ video: String, options: [String], in folder: URL, name: String) throws -> (image: Image, tiles: [(rect: PixelRect, actual: Double)]) {
        let output = folder.appendingPathComponent("\(name).png").path, manifest = folder.appendingPathComponent("\(name).json").path
        let result = try TestSupport.runCLI(["strip", video, "-o", output, "--manifest", manifest] + options)
        #expect(result.status == 0, "\(result.standardError)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        let entries = try #require(decoded["thumbnails"] as? [[String: Any]])
        let tiles: [(rect: PixelRect, actual: Double)] = try entries.map { entry in
            let actual = try #require((entry["actual"] as? [String: Any])?["seconds"] as? Double)
            return (PixelRect(x: entry["x"] as! Int, y: entry["y"] as! Int, width: entry["width"] as! Int, height: entry["height"] as! Int), actual)
        }
        return (try ImageDecoder.decode(path: output), tiles)
    }

    static func small(_ composer: String) -> [String] {
        ["--count", "6", "--columns", "3", "--height", "64", "--gap", "2", "--composer", composer]
    }

    static func grey(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Int {
        (Int(pixel.red) + Int(pixel.green) + Int(pixel.blue)) / 3
    }

    @Test("the header is antialiased text above unchanged tiles, framed by a margin", arguments: ["fused", "naive", "simd", "taskgroup"])
    func headerAboveUnchangedTiles(composer: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-360p-20s")
        let plain = try Self.sheet(video, options: Self.small(composer), in: folder, name: "plain")
        let headed = try Self.sheet(video, options: Self.small(composer) + ["--header"], in: folder, name: "headed")
        let frame = try SheetAnnotation(header: true).frame(stripWidth: plain.image.width, probe: VideoProbe(path: video))
        #expect(headed.image.width == plain.image.width + 2 * frame.margin && headed.image.height == plain.image.height + frame.top + frame.margin)
        #expect(frame.margin >= 4 && frame.headerHeight > 10)
        // Inside the frame: the plain sheet, byte for byte; the manifest's rectangles move with it.
        let inside = headed.image.cropped(to: PixelRect(x: frame.left, y: frame.top, width: plain.image.width, height: plain.image.height))
        #expect(inside.hasSamePixels(as: plain.image))
        #expect(zip(headed.tiles, plain.tiles).allSatisfy { $0.rect.y == $1.rect.y + frame.top && $0.rect.x == $1.rect.x + frame.left })
        // The header holds smooth text: many grey levels between the black background and white.
        var levels = Set<Int>()
        for y in 0..<frame.top {
            for x in 0..<headed.image.width { levels.insert(Self.grey(headed.image.pixel(x: x, y: y))) }
        }
        #expect(levels.contains(255) && levels.count > 20, "\(levels.count) grey levels in the header")
        let fields = SheetAnnotation.headerFields(of: try VideoProbe(path: video))
        #expect(fields[0] == "File: " + URL(fileURLWithPath: video).lastPathComponent)
        #expect(fields.contains { $0.hasPrefix("Duration: 0:20") } && fields.contains { $0.hasPrefix("Video: h264, 640x360") }, "\(fields)")
    }

    @Test("each tile's time sits on a dark box in its corner, and nothing else in the tile changes", arguments: ["fused", "rowcopy"])
    func timestampsInCorners(composer: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Keyframe accuracy: the frame shown lies away from the slot's time, so the planned time would read differently.
        let video = try TestSupport.video("h264-360p-20s")
        let plain = try Self.sheet(video, options: Self.small(composer) + ["--accuracy", "keyframe"], in: folder, name: "plain")
        let stamped = try Self.sheet(video, options: Self.small(composer) + ["--accuracy", "keyframe", "--timestamps"], in: folder, name: "stamped")
        let frame = SheetFrame(margin: SheetAnnotation.margin(stripWidth: plain.image.width), headerHeight: 0)
        #expect(stamped.image.width == plain.image.width + 2 * frame.margin)
        let inside = stamped.image.cropped(to: PixelRect(x: frame.left, y: frame.top, width: plain.image.width, height: plain.image.height))
        for (tile, stampedTile) in zip(plain.tiles, stamped.tiles) {
            // The pixels that changed lie in the bottom-right quarter; among them the box's dark ones and the text's white.
            var changed = 0, dark = 0, white = 0
            for y in tile.rect.y..<tile.rect.y + tile.rect.height {
                for x in tile.rect.x..<tile.rect.x + tile.rect.width where plain.image.pixel(x: x, y: y) != inside.pixel(x: x, y: y) {
                    #expect(x >= tile.rect.x + tile.rect.width / 2 && y >= tile.rect.y + tile.rect.height / 2, "pixel \(x),\(y) changed outside the corner")
                    changed += 1
                    let level = Self.grey(inside.pixel(x: x, y: y))
                    if level < 80 { dark += 1 }
                    if level > 230 { white += 1 }
                }
            }
            #expect(changed > 100 && dark > 40 && white > 10, "tile at \(stampedTile.rect): \(changed) changed, \(dark) dark, \(white) white")
        }
    }

    /// vcsi's sheet side by side (issue 46): 24 tiles, six across, 200 pixels wide, times and header.
    @Test("the default contact sheet: margin, gutters, time boxes, antialiased glyphs, header at most 8 % of the height")
    func defaultSheetReadsFromThePixels() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-360p-20s")
        let sheet = try Self.sheet(video, options: ["--count", "24", "--columns", "6", "--width", "200", "--timestamps", "--header"], in: folder, name: "sheet")
        let image = sheet.image
        #expect(sheet.tiles.count == 24)
        let firstTile = sheet.tiles[0].rect, secondTile = sheet.tiles[1].rect, belowTile = sheet.tiles[6].rect
        // Margin: the columns left of the first tile and right of the last are background all the way down.
        let margin = firstTile.x
        #expect(margin >= 4)
        func isBackground(_ x: Int, _ y: Int) -> Bool { Self.grey(image.pixel(x: x, y: y)) == 0 }
        #expect((0..<image.height).allSatisfy { y in (0..<margin).allSatisfy { isBackground($0, y) } }, "left margin")
        #expect((0..<image.height).allSatisfy { y in (image.width - margin..<image.width).allSatisfy { isBackground($0, y) } }, "right margin")
        #expect((image.height - margin..<image.height).allSatisfy { y in (0..<image.width).allSatisfy { isBackground($0, y) } }, "bottom margin")
        // Gutters between tiles, across and down.
        let across = secondTile.x - (firstTile.x + firstTile.width), down = belowTile.y - (firstTile.y + firstTile.height)
        #expect(across == SheetAnnotation.defaultGutter && down == SheetAnnotation.defaultGutter, "gutters \(across), \(down)")
        #expect((firstTile.y..<firstTile.y + firstTile.height).allSatisfy { y in (firstTile.x + firstTile.width..<secondTile.x).allSatisfy { isBackground($0, y) } })
        // A time box in every tile's corner: a dark run under the text, white glyph pixels on it.
        for tile in sheet.tiles.map(\.rect) {
            let corner = PixelRect(x: tile.x + tile.width * 3 / 4, y: tile.y + tile.height * 3 / 4, width: tile.width / 4, height: tile.height / 4)
            var dark = 0, white = 0
            for y in corner.y..<corner.y + corner.height {
                for x in corner.x..<corner.x + corner.width {
                    let level = Self.grey(image.pixel(x: x, y: y))
                    if level < 80 { dark += 1 }
                    if level > 230 { white += 1 }
                }
            }
            #expect(dark > corner.width * corner.height / 5 && white > 15, "tile \(tile): \(dark) dark, \(white) white")
        }
        // Antialiased glyphs: the header's text pixels take many grey levels, not only black and white.
        let headerRows = firstTile.y - margin
        var levels = Set<Int>()
        for y in margin..<firstTile.y {
            for x in 0..<image.width { levels.insert(Self.grey(image.pixel(x: x, y: y))) }
        }
        #expect(levels.count > 20, "\(levels.count) grey levels")
        let share = Double(headerRows) / Double(image.height)
        #expect(share <= 0.08, "header \(headerRows) of \(image.height) rows")
        print("default sheet: \(image.width)x\(image.height), header \(headerRows) rows (\(String(format: "%.1f", share * 100)) %), \(levels.count) grey levels in the header")
    }

    /// Checksums of strips made without text by the build before the text moved to FreeType
    /// (commit 2, issue 46): the text's frame, gutters and font reach no plain strip or sprite.
    @Test("strips and sprites without text keep their bytes")
    func plainOutputsKeepTheirBytes() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-360p-20s")
        let name = URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent
        let cases: [(arguments: [String], file: String, sha256: String)] = [
            (["strip", video, "-o", "\(folder.path)/sheet.png", "--count", "6", "--columns", "3", "--height", "64"], "sheet.png", Golden.sheetPNG),
            (["strip", video, "-o", "\(folder.path)/row.jpg", "--count", "10"], "row.jpg", Golden.rowJPEG),
            (["sprite", video, "-o", "\(folder.path)/sprite", "--interval", "2", "--width", "96"], "sprite/\(name)/sheet-0.jpg", Golden.spriteJPEG),
            (["strip", video, "-o", "\(folder.path)/grid.jpg", "--count", "24", "--columns", "6", "--width", "200"], "grid.jpg", Golden.gridJPEG),
        ]
        for (arguments, file, expected) in cases {
            let result = try TestSupport.runCLI(arguments)
            #expect(result.status == 0, "\(result.standardError)")
            let digest = try Self.sha256(of: folder.appendingPathComponent(file).path)
            #expect(digest == expected, "\(file)")
        }
    }

    /// coreutils' digest of the file at `path`, in hex.
    static func sha256(of path: String) throws -> String {
        let result = try CLIProcess.run(program: URL(fileURLWithPath: "/usr/bin/sha256sum"), [path])
        return String(result.standardOutput.prefix(64))
    }

    enum Golden {
        static let sheetPNG = "f8698a96ea09d61912353643d996a5d64a1487c178ba031a8e9bc0dd860f13f3"
        static let rowJPEG = "4f82e814c01f816373e338ba80cd17622cbcced1b3e76d6d9320deda086e5ac6"
        static let spriteJPEG = "490e132264b240f7f7f2cba371f20cdf64faba4d0dd9257d961bfab64955bb80"
        static let gridJPEG = "085610852f6c372e49cfb5002d492c5c9e5e698721070496a3b2bb1148630770"
    }

    @Test func clockText() {
        #expect(SheetAnnotation.clock(4.96, decimals: 0) == "0:04")
        #expect(SheetAnnotation.clock(65.25, decimals: 1) == "1:05.2")
        #expect(SheetAnnotation.clock(3725.5, decimals: 2) == "1:02:05.50")
        #expect(SheetAnnotation.decimals(forStep: 0.5) == 1)
    }

    @Test("a missing font is one line naming the file and the package")
    func missingFont() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-180p-3s")
        let result = try CLIProcess.run(program: URL(fileURLWithPath: "/usr/bin/env"),
                                        ["FILMSTRIP_FONT=/nonexistent/font.ttf", CLIProcess.executable.path, "strip", video, "-o", "\(folder.path)/s.png", "--timestamps"])
        #expect(result.status == 1 && result.standardError.contains("/nonexistent/font.ttf") && result.standardError.contains("fonts-dejavu-core"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "\(folder.path)/s.png"))
    }
}
