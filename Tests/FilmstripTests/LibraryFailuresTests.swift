import Foundation
import Testing

/// A library with damaged files among good ones, as media servers meet them: every good video
/// is made, each failure is named with its reason in a list at the end, and the exit status
/// is 1; `--fail-fast` stops at the first failure instead.
@Suite("library runs go on past bad videos")
struct LibraryFailuresTests {
    /// Three good videos (three codecs), a truncated MP4 whose header is real but whose boxes
    /// end in garbage, and an empty file.
    static func library() throws -> (folder: URL, good: [String], bad: [String]) {
        let folder = try TestSupport.scratchDirectory()
        var good: [String] = []
        for (id, name) in [("h264-180p-3s", "a.mp4"), ("vp9-180p-2s", "b.webm"), ("hevc-180p-2s", "d.mp4")] {
            good.append(try TestSupport.copyOfVideo(id, at: folder.appendingPathComponent(name).path))
        }
        let truncated = folder.appendingPathComponent("c-truncated.mp4").path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: good[0])).prefix(32)
        var state: UInt32 = 12345
        for _ in 0..<4096 {
            state = state &* 1_103_515_245 &+ 12345
            bytes.append(UInt8(truncatingIfNeeded: state >> 16))
        }
        try bytes.write(to: URL(fileURLWithPath: truncated))
        let empty = folder.appendingPathComponent("e-empty.mkv").path
        try Data().write(to: URL(fileURLWithPath: empty))
        return (folder, good, [truncated, empty])
    }

    /// The lines after the heading `N of M videos failed…:`, each `filmstrip:   PATH: reason`.
    static func failureList(_ standardError: String) -> (heading: String, lines: [String])? {
        let lines = standardError.split(separator: "\n").map(String.init)
        guard let start = lines.lastIndex(where: { $0.hasPrefix("filmstrip: ") && $0.contains("failed") && $0.hasSuffix(":") }) else { return nil }
        return (lines[start], lines[(start + 1)...].filter { $0.hasPrefix("filmstrip:   ") })
    }

    @Test("sprite: all good videos made, both failures named with reasons at the end, exit 1; --fail-fast stops at the first")
    func spriteGoesOn() throws {
        let (folder, good, bad) = try Self.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out").path
        let arguments = ["sprite", folder.path, "-o", output, "--interval", "1", "--width", "64", "--jobs", "1"]

        let run = try TestSupport.runCLI(arguments)
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardOutput.contains("5 videos: 3 made, 0 up to date, 2 failed"), "\(run.standardOutput)")
        for video in good {
            let name = URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent
            #expect(FileManager.default.fileExists(atPath: "\(output)/\(name)/thumbnails.vtt"), "\(name) is made")
        }
        let list = try #require(Self.failureList(run.standardError), "\(run.standardError)")
        #expect(list.heading == "filmstrip: 2 of 5 videos failed:", "\(list.heading)")
        #expect(list.lines.count == 2, "\(list.lines)")
        for (line, video) in zip(list.lines, bad) {
            #expect(line.hasPrefix("filmstrip:   \(video): "), "the list names \(video): \(line)")
            #expect(line.count > "filmstrip:   \(video): ".count + 5, "with its reason: \(line)")
        }
        #expect(!(run.standardOutput + run.standardError).contains("--ignore-errors"), "the old advice is gone")

        try FileManager.default.removeItem(atPath: output)
        let stopped = try TestSupport.runCLI(arguments + ["--fail-fast"])
        #expect(stopped.status == 1, "\(stopped.standardError)")
        #expect(stopped.standardOutput.contains("stopped at the first failure"), "\(stopped.standardOutput)")
        let first = try #require(Self.failureList(stopped.standardError), "\(stopped.standardError)")
        #expect(first.lines.count == 1 && first.lines[0].hasPrefix("filmstrip:   \(bad[0]): "), "\(first.lines)")
        let made = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        #expect(!made.contains("d") && !made.contains("e-empty"), "nothing after the first failure is made: \(made)")
    }

    @Test("strip --out-dir over several videos: all good strips made, both failures named with reasons at the end, exit 1; --fail-fast stops at the first")
    func stripGoesOn() throws {
        let (folder, good, bad) = try Self.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("strips")
        let videos = [good[0], good[1], bad[0], good[2], bad[1]]
        let arguments = ["strip"] + videos + ["--out-dir", out.path, "--count", "3", "--jobs", "1"]

        let run = try TestSupport.runCLI(arguments)
        #expect(run.status == 1, "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["a.strip.png", "b.strip.png", "d.strip.png"])
        let list = try #require(Self.failureList(run.standardError), "\(run.standardError)")
        #expect(list.heading == "filmstrip: 2 of 5 videos failed:", "\(list.heading)")
        #expect(list.lines.count == 2, "\(list.lines)")
        for (line, video) in zip(list.lines, bad) {
            #expect(line.hasPrefix("filmstrip:   \(video): ") && line.count > "filmstrip:   \(video): ".count + 5, "named with its reason: \(line)")
        }

        try FileManager.default.removeItem(at: out)
        let stopped = try TestSupport.runCLI(arguments + ["--fail-fast"])
        #expect(stopped.status == 1, "\(stopped.standardError)")
        let first = try #require(Self.failureList(stopped.standardError), "\(stopped.standardError)")
        #expect(first.heading.contains("2 not made (stopped at the first failure"), "\(first.heading)")
        #expect(first.lines.count == 1 && first.lines[0].hasPrefix("filmstrip:   \(bad[0]): "), "\(first.lines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["a.strip.png", "b.strip.png"])
    }
}
