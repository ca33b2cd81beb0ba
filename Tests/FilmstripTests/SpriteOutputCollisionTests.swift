import CLITestSupport
@testable import Filmstrip
@testable import FilmstripFixtures
import Foundation
import Testing

/// Issue 45, part 7: outputs of one run, or of two runs, that would land on each other.
@Suite("Sprite outputs that collide")
final class SpriteOutputCollisionTests: Sendable {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws { scratch = try ScratchFolder() }

    /// A 2 s portrait H.264 video, 54x96: heights 10 and 11 give tiles 6 px wide (5.625 and 6.19 rounded).
    func portraitVideo() throws -> String {
        let path = folder.appendingPathComponent("portrait.mp4").path
        var writer = try VideoWriter(path: path, containerName: "mp4", settings: EncoderSettings(
            encoderName: "libx264", width: 54, height: 96, timeBase: Rational(1, 10), frameRate: Rational(10),
            keyframeInterval: 10, maxBFrames: 0))
        let painter = FramePainter(codedWidth: 54, codedHeight: 96, rotationDegrees: 0)
        for index in 0..<20 { try writer.encodeFrame(pts: Int64(index)) { painter.paint($0, index: index) } }
        try writer.finish()
        return path
    }

    /// Every file under `root` by its path relative to it, with its bytes.
    static func files(under root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return files }
        for case let url as URL in walker where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test("two heights that give one Jellyfin width are refused before anything is written")
    func jellyfinWidthsCollide() throws {
        let video = try portraitVideo()
        let output = folder.appendingPathComponent("out")
        let result = try TestSupport.runCLI(["sprite", video, "-o", output.path, "--format", "jellyfin", "--height", "10,11"])
        #expect(result.status == 1, "\(result.standardOutput) \(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first.map { $0.contains("h10") && $0.contains("h11") && $0.contains("6 px wide") && $0.contains("'6 - 10x10'") } == true,
                "\(result.standardError)")
        let written = try Self.files(under: output)
        #expect(written.isEmpty, "written: \(written.keys.sorted())")
        // Widths that differ are made, one folder each.
        let apart = try TestSupport.runCLI(["sprite", video, "-o", output.path, "--format", "jellyfin", "--height", "10,16"])
        #expect(apart.status == 0, "\(apart.standardError)")
        #expect(Set(try Self.files(under: output).keys).isSuperset(of: ["portrait.trickplay/6 - 10x10/0.jpg", "portrait.trickplay/9 - 10x10/0.jpg"]))
    }

    @Test("a run into a folder another run holds stops at once with one line, writes nothing, and the lock file goes with its holder")
    func heldFolderIsRefused() throws {
        let video = try TestSupport.video("h264-180p-2s-vfr")
        let output = folder.appendingPathComponent("held")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        do {
            let lock = try OutputFolderLock(folder: output.path)
            let result = try TestSupport.runCLI(["sprite", video, "-o", output.path])
            #expect(result.status == 1)
            #expect(result.standardError == "filmstrip: \(output.path): another filmstrip run is writing there (it holds .filmstrip.lock); "
                    + "wait for it to finish, or give another output folder\n", "\(result.standardError)")
            #expect(try Self.files(under: output).keys.sorted() == [OutputFolderLock.fileName])
            withExtendedLifetime(lock) {}
        }
        #expect(try Self.files(under: output).isEmpty, "the lock file is removed with the lock")
        let made = try TestSupport.runCLI(["sprite", video, "-o", output.path])
        #expect(made.status == 0, "\(made.standardError)")
        #expect(try Self.files(under: output)[OutputFolderLock.fileName] == nil)
        // Resuming is unchanged: the finished run's outputs are up to date.
        let again = try TestSupport.runCLI(["sprite", video, "-o", output.path])
        #expect(again.standardOutput.contains("outputs up to date, skipped"), "\(again.standardOutput)")
    }

    @Test("two sprite runs with other settings started together into one folder never mix their outputs")
    func simultaneousRunsNeverMix() throws {
        let video = try TestSupport.video("h264-360p-20s")
        let settings = [["--tile", "2x2", "--interval", "1"], ["--tile", "3x3", "--interval", "1", "--width", "160"]]
        // Each alone, into a folder of its own: what a run that was not disturbed leaves.
        var alone: [[String: Data]] = []
        for (index, options) in settings.enumerated() {
            let reference = folder.appendingPathComponent("alone-\(index)")
            let result = try TestSupport.runCLI(["sprite", video, "-o", reference.path] + options)
            #expect(result.status == 0, "\(result.standardError)")
            alone.append(try Self.files(under: reference))
        }
        for round in 0..<3 {
            let shared = folder.appendingPathComponent("shared-\(round)")
            let started = try settings.map { try CLIProcess.start(["sprite", video, "-o", shared.path] + $0) }
            let results = started.map { process, output, error in
                let errors = ReadToEnd(error)
                let printed = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self), errors: String(decoding: errors.wait(), as: UTF8.self))
            }
            #expect(results.contains { $0.status == 0 }, "\(results)")
            for result in results where result.status != 0 {
                #expect(result.errors == "filmstrip: \(shared.path): another filmstrip run is writing there (it holds .filmstrip.lock); "
                        + "wait for it to finish, or give another output folder\n", "\(result.errors)")
            }
            // The folder is one run's outputs, whole: the one that ran, or the later of two that ran one after the other.
            let left = try Self.files(under: shared)
            #expect(left == alone[0] || left == alone[1], "round \(round): \(left.keys.sorted()) against \(alone.map { $0.keys.sorted() })")
        }
    }
}
