import Filmstrip
import FilmstripFixtures
import Foundation
import Testing

/// `sprite --width 128,256`: one decode, every size scaled from the same frames, each in
/// its own layout (Jellyfin's `W - CxR` folder per width, a WebVTT track per size).
@Suite("filmstrip sprite, several sizes")
struct SpriteSizesTests {
    /// Runs `sprite … --json` into a fresh folder; the folder and the "made" line's fields.
    static func run(_ video: String, _ arguments: [String]) throws -> (folder: URL, made: [String: Any]) {
        let folder = try TestSupport.scratchDirectory()
        let result = try TestSupport.runCLI(["sprite", video, "-o", folder.path, "--json"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return (folder, try #require(lines.first { $0["event"] as? String == "made" }))
    }

    @Test("--width 128,256 --format jellyfin,vtt: both Jellyfin folders and tracks, tiles of each size, frames decoded once")
    func severalWidths() throws {
        let id = "h264-360p-20s"
        let video = try TestSupport.video(id), spec = TestSupport.spec(id)
        let common = ["--accuracy", "exact", "--interval", "1.5", "--tile", "3x2", "--format", "jellyfin,vtt"]
        let both = try Self.run(video, common + ["--width", "128,256"])
        let single = try Self.run(video, common + ["--width", "256"])
        defer { for folder in [both.folder, single.folder] { try? FileManager.default.removeItem(at: folder) } }
        // One decode: as many frames as the run of the largest width alone.
        let decoded = try #require(both.made["frames_decoded"] as? Int), decodedOnce = try #require(single.made["frames_decoded"] as? Int)
        #expect(decoded == decodedOnce && decoded > 0, "several widths decoded \(decoded) frames, one width \(decodedOnce)")
        #expect(both.made["tiles"] as? String == "128x72,256x144")
        let name = URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent, count = 14
        let trickplay = both.folder.appendingPathComponent("\(name).trickplay")
        for (width, height) in [(128, 72), (256, 144)] {
            let entries = try SpriteParsers.playlist(String(contentsOf: trickplay.appendingPathComponent("\(width) - 3x2.m3u8"), encoding: .utf8))
            #expect(entries.count == 3 && entries.allSatisfy { $0.resolution == "\(width)x\(height)" })
            for index in 0..<3 {
                let sheet = try SpriteParsers.decodeImage(trickplay.appendingPathComponent("\(width) - 3x2/\(index).jpg").path)
                #expect(sheet.width == 3 * width && sheet.height == 2 * height)
                for cell in 0..<6 where index * 6 + cell < count {
                    let tile = sheet.cropped(to: PixelRect(x: cell % 3 * width, y: cell / 3 * height, width: width, height: height))
                    #expect(FrameIndexMarker.read(from: tile) == SpriteTests.displayedFrame(spec, atMilliseconds: Int64(index * 6 + cell) * 1500),
                            "\(width) px, sheet \(index), tile \(cell)")
                }
            }
            // Each size has its own WebVTT track, whose cues name its own sheets.
            let track = try SpriteParsers.webVTT(String(contentsOf: both.folder.appendingPathComponent("\(name)-w\(width)/thumbnails.vtt"), encoding: .utf8))
            #expect(track.count == count && track.allSatisfy { $0.rect.width == width && $0.rect.height == height })
        }
        // The largest size is the one decoded: its sheets are the single-width run's, byte for byte.
        #expect(try Data(contentsOf: trickplay.appendingPathComponent("256 - 3x2/1.jpg"))
                == Data(contentsOf: single.folder.appendingPathComponent("\(name).trickplay/256 - 3x2/1.jpg")))
        // A second run finds every size's outputs current.
        let again = try TestSupport.runCLI(["sprite", video, "-o", both.folder.path] + common + ["--width", "128,256"])
        #expect(again.status == 0 && again.standardOutput.contains("up to date, skipped"), "\(again.standardOutput)")
    }

    @Test("--height lists name the tracks by height; strip and thumbnails take one size")
    func heightsAndOneSizeCommands() throws {
        let video = try TestSupport.video("h264-180p-3s")
        let run = try Self.run(video, ["--height", "36,72", "--interval", "1", "--tile", "2x2"])
        defer { try? FileManager.default.removeItem(at: run.folder) }
        let name = URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent
        for height in [36, 72] {
            let sheet = try SpriteParsers.decodeImage(run.folder.appendingPathComponent("\(name)-h\(height)/sheet-0.jpg").path)
            #expect(sheet.height == 2 * height)
        }
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strip = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("s.png").path, "--width", "100,200"])
        #expect(strip.status == 64 && strip.standardError.contains("--width takes one size here"), "\(strip.standardError)")
    }
}
