import CLITestSupport
@testable import Filmstrip
import Foundation
import Testing

/// Library scans see every file and say what they cannot read: a folder that cannot be listed
/// is a failure named on stderr and in the exit status, never "0 videos"; a file whose name is
/// not UTF-8 is found, opened as itself, and can be named on the command line.
@Suite("Library scans")
struct LibraryScanTests {
    /// "café.mp4" in Latin-1: the é is the single byte 0xE9, which is not UTF-8.
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".mp4".utf8)

    /// Copies a reference video to `folder` under the file name `name` (bytes).
    static func copyVideo(to folder: URL, named name: [UInt8]) throws -> String {
        let temporary = try TestSupport.copyOfVideo("h264-180p-3s", at: folder.appendingPathComponent("copying.mp4").path)
        let path = FileSystemName.string(fromBytes: Array(folder.path.utf8) + Array("/".utf8) + name)
        let renamed = FileSystemName.withCString(path) { rename(temporary, $0) }
        #expect(renamed == 0)
        return path
    }

    /// Runs `filmstrip ARGUMENTS` through the shell, which passes each argument's bytes as
    /// they are (Foundation's `Process` takes only UTF-8 strings); `$0` is the CLI.
    static func runThroughShell(_ script: String, in folder: URL) throws -> BoundedCLI.Outcome {
        try BoundedCLI.run(["-c", script, CLIProcess.executable.path], in: folder, executable: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test("names are bytes: a file name that is not UTF-8 survives the round trip through strings")
    func nameRoundTrip() {
        let samples: [[UInt8]] = [Self.latin1Name, Array("plain.mp4".utf8), Array("日本.mp4".utf8), [0xFF, 0xFE, 0x2E],
                                  [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80], [0xC3], [0xE2, 0x82]]
        for bytes in samples {
            let string = FileSystemName.string(fromBytes: bytes)
            #expect(FileSystemName.bytes(of: string) == bytes, "\(bytes)")
        }
        #expect(FileSystemName.string(fromBytes: Array("日本.mp4".utf8)) == "日本.mp4")
        #expect(FileSystemName.display(FileSystemName.string(fromBytes: Self.latin1Name)) == "caf\\xE9.mp4")
    }

    @Test("a video whose name is not UTF-8 is found by the scan and made, and opens when named on the command line")
    func nonUTF8Names() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let path = try Self.copyVideo(to: library.appendingPathComponent("sub"), named: Self.latin1Name)

        let scan = SpriteLibrary.scan(inputs: [library.path], outputRoot: folder.appendingPathComponent("out").path, recursive: true)
        #expect(scan.failures.isEmpty)
        #expect(scan.targets.map(\.input) == [path])
        #expect(try VideoProbe(path: scan.targets[0].input).frameCount == TestSupport.spec("h264-180p-3s").frameCount)

        let sprite = try BoundedCLI.run(["sprite", library.path, "-o", folder.appendingPathComponent("out").path, "--recursive", "--format", "vtt"])
        #expect(sprite.status == 0, "\(sprite.standardError)")
        #expect(sprite.standardOutput.contains("1 video: 1 made"), "\(sprite.standardOutput)")
        #expect(sprite.standardOutput.contains("caf\\xE9.mp4"), "named with its byte shown: \(sprite.standardOutput)")
        // WebVTT names its sheets in UTF-8 text: the outputs' name is the repaired one.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/sub/caf\u{FFFD}/thumbnails.vtt").path))
        let again = try BoundedCLI.run(["sprite", library.path, "-o", folder.appendingPathComponent("out").path, "--recursive", "--format", "vtt"])
        #expect(again.standardOutput.contains("0 made, 1 up to date"), "its time is read by its bytes: \(again.standardOutput)")

        // Named on the command line, by its bytes: info describes it, strip writes next to it under its own bytes.
        let info = try Self.runThroughShell(#""$0" info "sub/$(printf 'caf\351.mp4')""#, in: library)
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("sub/caf\\xE9.mp4"), "\(info.standardOutput)")
        let strip = try Self.runThroughShell(#""$0" strip "sub/$(printf 'caf\351.mp4')" --count 3 --out-dir sub"#, in: library)
        #expect(strip.status == 0, "\(strip.standardError)")
        let written = Array("caf".utf8) + [0xE9] + Array(".strip.png".utf8)
        #expect(try System.directoryEntries(library.appendingPathComponent("sub").path).contains(FileSystemName.string(fromBytes: written)))
        // An output folder named by bytes that are not UTF-8 is that folder.
        let elsewhere = try Self.runThroughShell(#""$0" sprite sub -o "$(printf 'out\376')" --format vtt"#, in: library)
        #expect(elsewhere.status == 0, "\(elsewhere.standardError)")
        let outputFolder = FileSystemName.string(fromBytes: Array(library.path.utf8) + Array("/out".utf8) + [0xFE])
        #expect(try System.directoryEntries(outputFolder + "/caf\u{FFFD}").contains("thumbnails.vtt"))
    }

    @Test("an unreadable subfolder or input folder is a failure named on stderr, as an unprivileged user",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
    func unreadableFolders() throws {
        let folder = try TestSupport.scratchDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.appendingPathComponent("library/locked").path)
            try? FileManager.default.removeItem(at: folder)
        }
        let library = folder.appendingPathComponent("library")
        for sub in ["library/open", "library/locked", "closed", "out"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        _ = try Self.copyVideo(to: library.appendingPathComponent("open"), named: Array("a.mp4".utf8))
        _ = try Self.copyVideo(to: library.appendingPathComponent("locked"), named: Array("b.mp4".utf8))
        _ = try Self.copyVideo(to: folder.appendingPathComponent("closed"), named: Array("c.mp4".utf8))
        for (path, mode) in [(folder.path, 0o755), (library.path, 0o755), (library.appendingPathComponent("open").path, 0o755),
                             (library.appendingPathComponent("locked").path, 0o000), (folder.appendingPathComponent("closed").path, 0o700),
                             (folder.appendingPathComponent("out").path, 0o777)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        let unprivileged = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", CLIProcess.executable.path]
        let out = folder.appendingPathComponent("out").path
        for (input, unread) in [(library.path, library.appendingPathComponent("locked").path),
                                (folder.appendingPathComponent("closed").path, folder.appendingPathComponent("closed").path)] {
            for failFast in [true, false] {
                let outcome = try BoundedCLI.run(unprivileged + ["sprite", input, "-o", out, "--recursive", "--format", "vtt"]
                                                    + (failFast ? ["--fail-fast"] : []),
                                                 executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
                #expect(outcome.status == 1, "\(input): \(outcome.standardOutput) \(outcome.standardError)")
                #expect(outcome.standardError.contains("\(unread): opendir failed: Permission denied"), "\(outcome.standardError)")
                #expect(outcome.standardOutput.contains("1 path not read"), "\(outcome.standardOutput)")
                if !failFast && input == library.path {
                    #expect(outcome.standardOutput.contains("1 video: 1 made"), "the readable video is still made: \(outcome.standardOutput)")
                }
            }
        }
    }
}
