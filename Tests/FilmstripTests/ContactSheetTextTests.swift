@testable import Filmstrip
import Foundation
import Testing

/// `strip --timestamps` and `--header`, checked on the decoded images: the header's text
/// exists and the tiles below it are the plain strip's bytes; each tile's time is the frame
/// it shows (the manifest's actual time) drawn in its corner, and nothing else changes.
@Suite("contact sheet text")
struct ContactSheetTextTests {
    /// A contact sheet of `video` with `extra` options, decoded, with its manifest's tiles.
    static func sheet(_ video: String, composer: String, extra: [String], in folder: URL, name: String) throws -> (image: Image, tiles: [(rect: PixelRect, actual: Double)]) {
        let output = folder.appendingPathComponent("\(name).png").path, manifest = folder.appendingPathComponent("\(name).json").path
        let result = try TestSupport.runCLI(["strip", video, "-o", output, "--count", "6", "--columns", "3", "--height", "64", "--gap", "2",
                                             "--composer", composer, "--manifest", manifest] + extra)
        #expect(result.status == 0, "\(result.standardError)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        let entries = try #require(decoded["thumbnails"] as? [[String: Any]])
        let tiles: [(rect: PixelRect, actual: Double)] = try entries.map { entry in
            let actual = try #require((entry["actual"] as? [String: Any])?["seconds"] as? Double)
            return (PixelRect(x: entry["x"] as! Int, y: entry["y"] as! Int, width: entry["width"] as! Int, height: entry["height"] as! Int), actual)
        }
        return (try ImageDecoder.decode(path: output), tiles)
    }

    @Test("the header is text above unchanged tiles", arguments: ["fused", "naive", "simd", "taskgroup"])
    func headerAboveUnchangedTiles(composer: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-360p-20s")
        let plain = try Self.sheet(video, composer: composer, extra: [], in: folder, name: "plain")
        let headed = try Self.sheet(video, composer: composer, extra: ["--header"], in: folder, name: "headed")
        let top = headed.image.height - plain.image.height
        #expect(top == SheetAnnotation(header: true).headerHeight(stripWidth: plain.image.width))
        #expect(top > 20 && headed.image.width == plain.image.width)
        // Below the header: the plain sheet, byte for byte; the manifest's rectangles move down with it.
        let below = headed.image.cropped(to: PixelRect(x: 0, y: top, width: plain.image.width, height: plain.image.height))
        #expect(below.hasSamePixels(as: plain.image))
        #expect(zip(headed.tiles, plain.tiles).allSatisfy { $0.rect.y == $1.rect.y + top && $0.rect.x == $1.rect.x })
        // The header holds text: white pixels on the black background, on each of its three lines.
        let painter = SheetAnnotation.headerPainter(stripWidth: plain.image.width), padding = SheetAnnotation.headerPadding(painter)
        for line in 0..<SheetAnnotation.headerLineCount {
            let lineTop = padding + line * painter.lineHeight
            let white = (lineTop..<lineTop + painter.glyphHeight).reduce(0) { count, y in
                count + (0..<headed.image.width).filter { headed.image.pixel(x: $0, y: y) == (255, 255, 255, 255) }.count
            }
            #expect(white > 50, "line \(line) of the header has \(white) text pixels")
        }
        // The text is the video's: drawn again from its probe, it matches pixel for pixel.
        var expected = Image(width: plain.image.width, height: top, fill: (0, 0, 0, 255))
        let probe = try VideoProbe(path: video)
        for (index, line) in SheetAnnotation.headerLines(of: probe).enumerated() {
            painter.draw(painter.fitted(line, width: expected.width - 2 * padding), into: &expected, x: padding, y: padding + index * painter.lineHeight,
                         color: .white, shadow: .black, clip: PixelRect(x: 0, y: 0, width: expected.width, height: top))
        }
        #expect(headed.image.cropped(to: PixelRect(x: 0, y: 0, width: plain.image.width, height: top)).hasSamePixels(as: expected))
        #expect(SheetAnnotation.headerLines(of: probe)[0] == "File: " + URL(fileURLWithPath: video).lastPathComponent)
    }

    @Test("each tile shows the time of its frame in its corner, and nothing else changes", arguments: ["fused", "rowcopy"])
    func timestampsInCorners(composer: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Keyframe accuracy: the frame shown lies away from the slot's time, so the planned time would read differently.
        let video = try TestSupport.video("h264-360p-20s")
        let plain = try Self.sheet(video, composer: composer, extra: ["--accuracy", "keyframe"], in: folder, name: "plain")
        let stamped = try Self.sheet(video, composer: composer, extra: ["--accuracy", "keyframe", "--timestamps"], in: folder, name: "stamped")
        #expect(stamped.image.width == plain.image.width && stamped.image.height == plain.image.height)
        var expected = plain.image
        var boxes: [PixelRect] = []
        for tile in plain.tiles {
            let text = SheetAnnotation.clock(tile.actual, decimals: 0)
            let (painter, box) = SheetAnnotation.timestampBox(of: text, in: tile.rect)
            #expect(painter.scale == 2, "legible at 64 px: \(painter.glyphHeight) px glyphs")
            painter.draw(text, into: &expected, x: box.x, y: box.y, color: .white, shadow: .black, clip: tile.rect)
            boxes.append(box)
            // In the tile's bottom-right quarter.
            #expect(box.x >= tile.rect.x + tile.rect.width / 2 && box.y >= tile.rect.y + tile.rect.height / 2)
        }
        #expect(stamped.image.hasSamePixels(as: expected))
        // Every changed pixel lies in a box, and every box changed.
        var changedPerBox = [Int](repeating: 0, count: boxes.count)
        for y in 0..<plain.image.height {
            for x in 0..<plain.image.width where plain.image.pixel(x: x, y: y) != stamped.image.pixel(x: x, y: y) {
                let box = try #require(boxes.firstIndex { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }, "pixel \(x),\(y) changed outside the corners")
                changedPerBox[box] += 1
            }
        }
        #expect(changedPerBox.allSatisfy { $0 > 20 })
    }

    @Test func clockText() {
        #expect(SheetAnnotation.clock(4.96, decimals: 0) == "0:04")
        #expect(SheetAnnotation.clock(65.25, decimals: 1) == "1:05.2")
        #expect(SheetAnnotation.clock(3725.5, decimals: 2) == "1:02:05.50")
        #expect(SheetAnnotation.decimals(forStep: 0.5) == 1)
        // Too narrow a tile gets smaller text rather than text cut off.
        #expect(SheetAnnotation.timestampPainter(for: "1:02:05", tile: PixelSize(width: 60, height: 120)).scale == 1)
        #expect(SheetAnnotation.timestampPainter(for: "0:04", tile: PixelSize(width: 114, height: 64)).scale == 2)
    }
}
