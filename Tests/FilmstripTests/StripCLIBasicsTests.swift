import CLITestSupport
import Filmstrip
import FilmstripOpenMP
import Foundation
import Testing

@Suite("filmstrip strip: standard output, quiet and verbose, completion")
struct StripCLIBasicsTests {
    /// `-o -` writes the same PNG bytes as `-o FILE`, and nothing else on standard output.
    @Test func dashWritesThePNGToStandardOutput() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-180p-3s"), file = folder.appendingPathComponent("strip.png").path
        let written = try TestSupport.runCLI(["strip", video, "-o", file, "--count", "4"])
        #expect(written.status == 0, "\(written.standardError)")
        let (process, output, error) = try CLIProcess.start(["strip", video, "-o", "-", "--count", "4"])
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        _ = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["strip.png"])
    }

    /// An output that is a FIFO (or a device: `export -o /dev/null` put a regular file in
    /// /dev/null's place) is refused with one line, never replaced by the finished file, and
    /// the FIFO is still one afterwards.
    @Test func specialFileOutputIsNeverReplaced() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-180p-3s"), fifo = folder.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let strip = try TestSupport.runCLI(["strip", video, "-o", fifo, "--count", "3"])
        #expect(strip.status != 0 && strip.standardError.contains("\(fifo): is not a regular file"), "\(strip.standardError)")
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pipe.png"], "no temporary file left")
    }

    @Test func quietPrintsNothingAndVerboseDescribesTheRun() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-180p-3s"), file = folder.appendingPathComponent("strip.png").path
        let quiet = try TestSupport.runCLI(["strip", video, "-o", file, "--count", "3", "--quiet"])
        #expect(quiet.status == 0 && quiet.standardOutput.isEmpty && quiet.standardError.isEmpty, "\(quiet.standardError)")
        let verbose = try TestSupport.runCLI(["strip", video, "-o", file, "--count", "3", "--verbose"])
        #expect(verbose.status == 0 && verbose.standardOutput.contains("3 thumbnails"))
        #expect(verbose.standardError.contains(Pipeline.default.name) && verbose.standardError.contains("frames decoded"))
        let both = try TestSupport.runCLI(["strip", video, "-o", file, "-q", "-v"])
        #expect(both.status != 0 && both.standardError.contains("not both"))
    }

    /// The shell completion offers every registered extractor, composer, filter and accuracy form.
    @Test func completionListsEveryRegisteredValue() throws {
        FilmstripOpenMP.register()
        let script = try TestSupport.runCLI(["--generate-completion-script", "zsh"])
        #expect(script.status == 0)
        let values = Extractors.all.map(\.name) + Composers.names + ScalingFilter.allCases.map(\.rawValue) + Accuracy.completions
        for value in values {
            #expect(script.standardOutput.contains("'\(value)'"), "\(value) not offered")
        }
        #expect(script.standardOutput.contains("_files -g"), "no file completion")
    }

    /// The one-call API makes what the default pipeline makes, and writes it like `strip` does.
    @Test func makeStripIsTheDefaultPipelinesStrip() async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = URL(fileURLWithPath: try TestSupport.video("h264-180p-3s"))
        let made = try await Filmstrip.makeStrip(of: video, count: 5, height: 48)
        let image = made.image, rowBytes = image.width * 4
        let rows = Data((0..<image.height).flatMap { image.pixels[$0 * image.bytesPerRow ..< $0 * image.bytesPerRow + rowBytes] })
        #expect(made.manifest.thumbnails.count == 5 && made.manifest.pipeline == Pipeline.default.name)
        let output = folder.appendingPathComponent("strip.rgba")
        let manifest = try await Filmstrip.writeStrip(of: video, to: output, count: 5, height: 48)
        #expect(try Data(contentsOf: output) == rows)
        #expect(manifest.stripWidth == made.image.width && manifest.stripHeight == made.image.height)
        let cli = folder.appendingPathComponent("cli.rgba").path
        #expect(try TestSupport.runCLI(["strip", video.path, "-o", cli, "--count", "5", "--height", "48"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli)) == rows)
        await #expect(throws: OutputError.self) { try await Filmstrip.writeStrip(of: video, to: video) }
    }
}
