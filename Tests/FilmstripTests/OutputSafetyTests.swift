import CLITestSupport
@testable import Filmstrip
import Foundation
import Testing

/// Outputs never destroy the input or each other, and nothing is left behind: not on an
/// error, not on SIGINT, SIGTERM or SIGHUP, and not after a kill (the next run cleans up).
@Suite("Output safety")
struct OutputSafetyTests {
    private func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("an output that is the input, or another output, is refused before any work")
    func outputsThatAreTheInput() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A video named like a PNG, and links to it.
        let video = try TestSupport.copyOfVideo("h264-180p-3s", at: folder.appendingPathComponent("in.png").path)
        let original = contents(video)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: video)
        try FileManager.default.linkItem(atPath: video, toPath: folder.appendingPathComponent("hard.png").path)
        let strip = folder.appendingPathComponent("strip.png").path
        let cases: [([String], String)] = [
            (["-o", video], "--output is the input video"),
            (["-o", folder.appendingPathComponent("link.png").path], "--output is the input video"),
            (["-o", folder.appendingPathComponent("hard.png").path], "--output is the input video"),
            (["-o", folder.appendingPathComponent("sub/../in.png").path], "--output is the input video"),
            (["-o", strip, "--manifest", video], "--manifest is the input video"),
            (["-o", strip, "--manifest", strip], "--manifest is the same file as --output"),
            (["-o", strip, "--manifest", folder.appendingPathComponent("./strip.png").path], "--manifest is the same file as --output"),
        ]
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for (arguments, says) in cases {
            let outcome = try BoundedCLI.run(["strip", video] + arguments)
            #expect(outcome.status == 1, "\(arguments)")
            #expect(outcome.standardError.contains(says), "\(arguments): \(outcome.standardError)")
            #expect(contents(video) == original, "\(arguments) changed the input")
        }
        #expect(!FileManager.default.fileExists(atPath: strip))
        #expect(BoundedCLI.leftovers(in: folder, besides: ["in.png", "link.png", "hard.png", "sub"]).isEmpty)
    }

    @Test("a manifest that cannot be written leaves no strip either")
    func manifestFailureLeavesNoStrip() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strip = folder.appendingPathComponent("strip.png").path
        let manifest = folder.appendingPathComponent("gone/manifest.json").path
        #expect(throws: OutputError.self) {
            try StripWriter.write(Image(width: 8, height: 8), to: strip, manifest: (manifest, Data("{}".utf8)))
        }
        #expect(BoundedCLI.leftovers(in: folder, besides: []).isEmpty)
        // Both are written when both can be.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("gone"), withIntermediateDirectories: true)
        try StripWriter.write(Image(width: 8, height: 8), to: strip, manifest: (manifest, Data("{}".utf8)))
        #expect(contents(manifest) == Data("{}".utf8))
        #expect(BoundedCLI.leftovers(in: folder, besides: ["strip.png", "gone"]).isEmpty)
    }

    @Test("a planted symbolic link at the old predictable temporary name is never followed")
    func plantedLinkIsNotFollowed() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim.txt").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let strip = folder.appendingPathComponent("strip.png").path
        // The name the writer used before: `.NAME.PID.tmp` (this process writes, so its PID).
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(".strip.png.\(getpid()).tmp").path, withDestinationPath: victim)
        try StripWriter.write(Image(width: 8, height: 8), to: strip)
        #expect(contents(victim) == Data("precious".utf8))
        #expect(contents(strip)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("temporary files have random names and are created exclusively")
    func temporaryNames() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("x.png").path
        let first = try TemporaryFiles.create(besides: target), second = try TemporaryFiles.create(besides: target)
        defer { [first, second].forEach { close($0.descriptor); TemporaryFiles.discard($0.path) } }
        #expect(first.path != second.path)
        let name = URL(fileURLWithPath: first.path).lastPathComponent
        #expect(name.hasPrefix(".x.png.filmstrip-\(getpid())-") && name.hasSuffix(".tmp"), "\(name)")
    }

    @Test("temporary files of dead processes are removed by the next run; a live process's are kept")
    func staleTemporariesAreCleaned() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A process that has exited: its PID is free (reuse within the test is very unlikely).
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let stale = folder.appendingPathComponent(".strip.png.filmstrip-\(finished.processIdentifier)-abc.tmp").path
        let live = folder.appendingPathComponent(".strip.png.filmstrip-1-abc.tmp").path
        for path in [stale, live] { try Data(count: 1000).write(to: URL(fileURLWithPath: path)) }
        let strip = folder.appendingPathComponent("strip.png").path
        let outcome = try BoundedCLI.run(["strip", try TestSupport.video("h264-180p-3s"), "-o", strip, "--count", "2"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live), "PID 1 is alive: its file must stay")
    }

    @Test("SIGINT, SIGTERM and SIGHUP remove the temporary file and say what was interrupted",
          arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func signalsCleanUp(signal: Int32, status: Int32) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-360p-20s")
        let strip = folder.appendingPathComponent("strip.png").path
        // A strip large enough that writing it takes a while: the signal is sent once its
        // temporary file exists (checked every millisecond).
        let process = Process()
        process.executableURL = CLIProcess.executable
        process.arguments = ["strip", video, "-o", strip, "--count", "1500", "--height", "96", "--accuracy", "keyframe", "--columns", "50"]
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errorText = ReadToEnd(error)
        var sawTemporary = false
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline {
            if BoundedCLI.leftovers(in: folder, besides: []).contains(where: { $0.hasSuffix(".tmp") }) {
                sawTemporary = true
                kill(process.processIdentifier, signal)
                break
            }
            usleep(1000)
        }
        process.waitUntilExit()
        let message = String(decoding: errorText.wait(), as: UTF8.self)
        let left = BoundedCLI.leftovers(in: folder, besides: [])
        #expect(!left.contains { $0.hasSuffix(".tmp") }, "temporary file left behind: \(left)")
        // The strip may have been committed before the handler ran: written between two looks,
        // or renamed into place between the last look and the signal (seen once in CI under
        // load: exit 0). Then it must be whole: 1,500 thumbnails in 30 rows of 96 px.
        if left == ["strip.png"] {
            #expect(try ImageDecoder.decode(path: strip).height == 30 * 96, "a partial strip was left")
        } else {
            #expect(left.isEmpty, "left behind: \(left)")
        }
        guard sawTemporary, process.terminationStatus != 0 else {
            #expect(process.terminationStatus == 0, "\(message)")
            #expect(left == ["strip.png"], "exit 0 without the strip")
            return
        }
        #expect(process.terminationReason == .exit, "killed by the signal instead of handling it")
        #expect(process.terminationStatus == status, "\(message)")
        #expect(message.contains("interrupted by") && message.contains(strip), "\(message)")
    }
}
