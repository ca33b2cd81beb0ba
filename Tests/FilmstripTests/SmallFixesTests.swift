import CLITestSupport
import Foundation
import Testing

/// The small ones of issue 46: what `info`, a reversed range and a script's help say.
@Suite("small fixes of issue 46")
struct SmallFixesTests {
    @Test("info prints the frame rate in frames per second, the fraction only when it is NTSC's kind")
    func frameRateAsDecimal() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try TestSupport.runCLI(["info", try TestSupport.video("h264-180p-3s")])
        let line = try #require(whole.standardOutput.split(separator: "\n").first { $0.contains("frame rate") }, "\(whole.standardOutput)")
        #expect(line.hasSuffix(" 30 fps"), "\(line)")
        let ntsc = folder.appendingPathComponent("ntsc.mp4").path
        let made = try CLIProcess.run(program: URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                      ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=30000/1001", "-t", "1", "-c:v", "libx264", "-y", ntsc])
        try #require(made.status == 0, "\(made.standardError)")
        let info = try TestSupport.runCLI(["info", ntsc])
        let ntscLine = try #require(info.standardOutput.split(separator: "\n").first { $0.contains("frame rate") }, "\(info.standardOutput)")
        #expect(ntscLine.hasSuffix(" 29.97 fps (30000/1001)"), "\(ntscLine)")
    }

    @Test("--from after --to says so, before the video is read")
    func reversedRange() throws {
        let video = try TestSupport.video("h264-180p-3s")
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (from, to) in [("20", "10"), ("50%", "10%"), ("-1s", "-2s")] {
            let result = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("s.png").path, "--from", from, "--to", to])
            #expect(result.status == 64 && result.standardError.contains("--from is after --to"), "\(from) \(to): \(result.standardError)")
            #expect(!result.standardError.contains("outside the video"))
        }
        // Times of different kinds need the duration: still found, then as the video says.
        let mixed = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("s.png").path, "--from", "2", "--to", "10%"])
        #expect(mixed.status == 1, "\(mixed.standardError)")
    }

    @Test("scripts/ci-gate.sh --help prints its whole comment, ending at the end of a sentence")
    func ciGateHelpIsWhole() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let help = try CLIProcess.run(program: URL(fileURLWithPath: "/bin/bash"), [root.appendingPathComponent("scripts/ci-gate.sh").path, "--help"])
        #expect(help.status == 0)
        let text = help.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.hasSuffix("never let through as a warning)."), "\(text.suffix(120))")
        #expect(!text.contains("set -uo pipefail"), "the code is not part of the help")
    }
}
