import Filmstrip
import Foundation
import Testing

@Suite("filmstrip strip")
struct StripCommandTests {
    @Test func writesStripAndManifest() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("strip.png").path, manifest = folder.appendingPathComponent("strip.json").path
        let result = try TestSupport.runCLI(["strip", try TestSupport.video("h264-180p-2s-opengop-offset"), "-o", output,
                                             "--count", "6", "--from", "0.5", "--to", "0:01.5", "--manifest", manifest])
        #expect(result.status == 0, "\(result.standardError)")
        let png = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        let thumbnails = try #require(decoded["thumbnails"] as? [[String: Any]])
        #expect(thumbnails.count == 6)
        // Slot centres of 6 parts of 0.5–1.5 s, relative to the first frame although the stream starts at 1.5 s.
        let requested = thumbnails.compactMap { ($0["requested"] as? [String: Any])?["seconds"] as? Double }
        #expect(zip(requested, [7, 9, 11, 13, 15, 17].map { Double($0) / 12 }).allSatisfy { abs($0 - $1) < 0.002 })
        let frames = thumbnails.compactMap { $0["frameIndex"] as? Int }
        #expect(frames == [17, 22, 27, 32, 37, 42])
        #expect(thumbnails.compactMap { $0["x"] as? Int } == [0, 114, 228, 342, 456, 570])
    }

    @Test("strips are PNG images of the expected size, also as JPEG and raw RGBA", arguments: ["png", "jpg", "rgba"])
    func formats(format: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("strip.\(format)").path
        let result = try TestSupport.runCLI(["strip", try TestSupport.video("vp9-180p-2s"), "-o", output, "--count", "5"])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        switch format {
        case "jpg": #expect(bytes.prefix(2) == Data([0xFF, 0xD8]))
        case "rgba": #expect(bytes.count == 5 * 114 * 64 * 4)
        default: #expect(bytes.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        }
    }

    @Test("bad requests fail with one line, a non-zero exit and no output file", arguments: [
        (["--count", "0"], "count"),
        (["--from", "2", "--to", "1"], "range"),
        (["--from", "0", "--to", "99"], "outside"),
        (["--height", "0"], "height"),
        (["--accuracy", "sometimes"], "accuracy"),
        (["--extractor", "magic"], "extractor"),
        (["--select", "3..1"], "select"),
    ])
    func badRequests(arguments: [String], keyword: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("strip.png").path
        let result = try TestSupport.runCLI(["strip", try TestSupport.video("h264-180p-3s"), "-o", output] + arguments)
        #expect(result.status != 0)
        #expect(result.standardError.lowercased().contains(keyword))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func unwritableOutputAndMissingVideo() throws {
        let missingFolder = "/nonexistent-\(UUID().uuidString)/strip.png"
        let unwritable = try TestSupport.runCLI(["strip", try TestSupport.video("h264-180p-3s"), "-o", missingFolder])
        #expect(unwritable.status != 0)
        #expect(unwritable.standardError.split(separator: "\n").count == 1)
        #expect(unwritable.standardError.contains(missingFolder))

        let missing = try TestSupport.runCLI(["strip", "/no/such/video.mp4", "-o", "/tmp/never-written-\(UUID().uuidString).png"])
        #expect(missing.status != 0)
        #expect(missing.standardError == "filmstrip: /no/such/video.mp4: no such file\n")
    }

    @Test("a truncated file makes a strip of what can be read, with a warning")
    func truncatedFile() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video("h264-360p-20s")))
        let cut = folder.appendingPathComponent("cut.mp4").path, output = folder.appendingPathComponent("cut.png").path
        try original.prefix(original.count * 3 / 10).write(to: URL(fileURLWithPath: cut))
        let result = try TestSupport.runCLI(["strip", cut, "-o", output, "--count", "8"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("data ends early"))
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test("a JPEG wider than 65535 px is a clear error, not a broken file")
    func jpegTooWide() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("wide.jpg").path
        let result = try TestSupport.runCLI(["strip", try TestSupport.video("h264-180p-3s"), "-o", output, "--count", "600", "--height", "64"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("65535"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
