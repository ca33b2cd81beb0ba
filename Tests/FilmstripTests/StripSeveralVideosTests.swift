import Foundation
import Testing

/// `filmstrip strip A B C`: one strip each, next to each video or in `--out-dir`; a bad video
/// is named and skipped, the exit status says so, and no strip is ever another input.
@Suite("filmstrip strip with several videos")
struct StripSeveralVideosTests {
    /// Two real videos (different codecs and containers) and a file that is not a video, in a scratch folder.
    static func inputs() throws -> (folder: URL, videos: [String]) {
        let folder = try TestSupport.scratchDirectory()
        var videos: [String] = []
        for (id, name) in [("h264-180p-3s", "first.mp4"), ("vp9-180p-2s", "second.webm")] {
            let path = try TestSupport.copyOfVideo(id, at: folder.appendingPathComponent(name).path)
            videos.append(path)
        }
        return (folder, videos)
    }

    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("next to each video: the same bytes as one video at a time; a bad video is named, skipped, exit 1, nothing partial")
    func besideEachVideo() throws {
        let (folder, videos) = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.mp4").path
        try Data("not a video at all".utf8).write(to: URL(fileURLWithPath: broken))
        let result = try TestSupport.runCLI(["strip", videos[0], broken, videos[1], "--count", "4"])
        #expect(result.status == 1)
        let errorLines = result.standardError.split(separator: "\n")
        #expect(errorLines.count == 3, "\(result.standardError)")
        #expect(errorLines.first?.hasPrefix("filmstrip: \(broken): ") == true, "the bad video is named")
        #expect(errorLines.dropFirst().first == "filmstrip: 1 of 3 videos failed:")
        #expect(errorLines.last == "filmstrip:   " + errorLines[0].dropFirst("filmstrip: ".count), "listed again at the end with its reason")
        #expect(try Self.files(in: folder) == ["broken.mp4", "first.mp4", "first.strip.png", "second.strip.png", "second.webm"],
                "one strip per good video, nothing for the broken one, no temporary files")
        // Each strip is byte for byte the one `strip VIDEO -o FILE` makes (checked against ffmpeg elsewhere).
        let single = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: single) }
        for video in videos {
            let name = URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent + ".strip.png"
            let alone = single.appendingPathComponent(name).path
            let one = try TestSupport.runCLI(["strip", video, "-o", alone, "--count", "4"])
            #expect(one.status == 0, "\(one.standardError)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: alone)) == Data(contentsOf: folder.appendingPathComponent(name)), "\(name)")
        }
    }

    @Test("--out-dir and --format; colliding names, a strip that is another input, and -o with several videos are refused before any work")
    func outDirAndRefusals() throws {
        let (folder, videos) = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("strips")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        let made = try TestSupport.runCLI(["strip"] + videos + ["--out-dir", out.path, "--format", "jpg", "--count", "3", "--quiet"])
        #expect(made.status == 0 && made.standardOutput.isEmpty, "\(made.standardError)")
        #expect(try Self.files(in: out) == ["first.strip.jpg", "second.strip.jpg"])
        for name in try Self.files(in: out) {
            let bytes = try Data(contentsOf: out.appendingPathComponent(name))
            #expect(bytes.prefix(3) == Data([0xFF, 0xD8, 0xFF]), "\(name) is a JPEG")
        }

        // Two videos named alike would write one strip: refused, nothing made.
        let sub = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
        let twin = sub.appendingPathComponent("first.mkv").path
        try FileManager.default.copyItem(atPath: videos[0], toPath: twin)
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        let collide = try TestSupport.runCLI(["strip", videos[0], twin, "--out-dir", empty.path])
        #expect(collide.status != 0 && collide.standardError.contains("same file"), "\(collide.standardError)")
        #expect(try Self.files(in: empty).isEmpty)

        // A strip whose name is another input: the input is never overwritten.
        let victim = folder.appendingPathComponent("first.strip.png")
        try FileManager.default.copyItem(atPath: videos[1], toPath: victim.path)
        let before = try Data(contentsOf: victim)
        let overwrite = try TestSupport.runCLI(["strip", videos[0], victim.path, "--count", "2"])
        #expect(overwrite.status != 0 && overwrite.standardError.contains("refusing to overwrite"), "\(overwrite.standardError)")
        #expect(try Data(contentsOf: victim) == before)

        let usage = try TestSupport.runCLI(["strip"] + videos + ["-o", folder.appendingPathComponent("one.png").path])
        #expect(usage.status == 64 && usage.standardError.contains("--out-dir"))
        // A missing --out-dir is made, as `thumbnails --out-dir` and `sprite -o` make theirs.
        let absent = folder.appendingPathComponent("absent/deeper")
        let missing = try TestSupport.runCLI(["strip"] + videos + ["--out-dir", absent.path, "--count", "2"])
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: absent.path, isDirectory: &isFolder) && isFolder.boolValue, "\(missing.standardError)")
        #expect(!missing.standardError.contains("not an existing folder"), "\(missing.standardError)")
    }
}
