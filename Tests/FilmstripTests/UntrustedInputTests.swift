import CFFmpeg
@testable import Filmstrip
@testable import FilmstripFixtures
import Foundation
import Testing

/// Inputs that are not plain video files: playlists, names FFmpeg would read as URLs, other
/// containers, oversized pictures. Each gets a clear error or opens the literal file, never
/// another one, and never hangs.
@Suite("Untrusted input files")
struct UntrustedInputTests {
    /// A scratch folder holding `x.mp4`-style playlists and a real video beside them.
    private func folder() throws -> URL { try TestSupport.scratchDirectory() }

    /// FOLDER stands for the scratch folder.
    private static let playlists: [(name: String, text: String)] = [
        // 52 bytes that list themselves: FFmpeg's HLS demuxer reloads it forever.
        ("x.mp4", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nx.mp4\n"),
        // Live (no #EXT-X-ENDLIST): the demuxer waits for the next segment.
        ("live.mp4", "#EXTM3U\n#EXT-X-TARGETDURATION:5\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:5,\nnext.ts\n"),
        // Other users' files, by relative and by absolute path.
        ("relative.mp4", "#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\n../secret/other.mp4\n#EXT-X-ENDLIST\n"),
        ("absolute.mp4", "#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\nFOLDER/secret/other.mp4\n#EXT-X-ENDLIST\n"),
        ("list.mp4", "ffconcat version 1.0\nfile secret/other.mp4\n"),
    ]

    @Test("playlists named like videos are refused by name, quickly, for info and strip", arguments: playlists.map(\.name))
    func playlistsAreRefused(name: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("secret")
        try FileManager.default.createDirectory(at: secret, withIntermediateDirectories: true)
        try TestSupport.copyOfVideo("h264-180p-3s", at: secret.appendingPathComponent("other.mp4").path)
        let path = folder.appendingPathComponent(name).path
        try Self.playlists.first { $0.name == name }!.text.replacingOccurrences(of: "FOLDER", with: folder.path).write(toFile: path, atomically: true, encoding: .utf8)
        let strip = folder.appendingPathComponent("strip.png").path
        for arguments in [["info", path], ["strip", path, "-o", strip]] {
            let outcome = try BoundedCLI.run(arguments)
            #expect(!outcome.timedOut && !outcome.crashed, "\(arguments): hung or crashed")
            #expect(outcome.status == 1, "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.contains(path) && outcome.standardError.contains("which filmstrip does not open"),
                    "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.split(separator: "\n").count == 1)
            #expect(outcome.standardOutput.isEmpty, "\(arguments): described something: \(outcome.standardOutput)")
        }
        #expect(!FileManager.default.fileExists(atPath: strip))
    }

    /// File names FFmpeg reads as protocols. `a.ts` beside them is a different video (VP9),
    /// so reading it instead of the literal file shows in the codec.
    static let specialNames = ["concat:a.ts|a.ts", "file:a.ts", "pipe:0", "subfile,,start,0,end,1000,,:a.ts", "cache:a.ts", "async:a.ts"]

    @Test("a file named like an FFmpeg URL opens as itself", arguments: specialNames)
    func specialNamesOpenTheLiteralFile(name: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try TestSupport.copyOfVideo("vp9-180p-2s", at: folder.appendingPathComponent("a.ts").path)
        let literal = folder.appendingPathComponent(name)
        try TestSupport.copyOfVideo("h264-180p-3s", at: literal.path)
        // Relative to the child's working folder too, the way a server passes upload names.
        for path in [literal.path, name] {
            let outcome = try BoundedCLI.run(["info", path], in: folder)
            #expect(!outcome.timedOut && !outcome.crashed)
            #expect(outcome.status == 0, "\(path): \(outcome.standardError)")
            #expect(outcome.standardOutput.contains("h264"), "\(path) read another file: \(outcome.standardOutput)")
            #expect(!outcome.standardOutput.contains("vp9"))
        }
    }

    @Test("every container a video comes in is accepted", arguments: [
        ("mpegts", "mpeg2video", "ts"), ("mpegts", "mpeg2video", "m2ts"), ("vob", "mpeg2video", "mpg"), ("avi", "mpeg4", "avi"),
        ("mov", "mpeg4", "mov"), ("flv", "flv", "flv"), ("asf", "wmv2", "wmv"), ("matroska", "mpeg4", "mkv"), ("m4v", "mpeg4", "m4v"),
    ])
    func videoContainersAreAccepted(muxer: String, encoder: String, fileExtension: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("clip.\(fileExtension)").path
        var writer = try VideoWriter(path: path, containerName: muxer, settings: EncoderSettings(
            encoderName: encoder, width: 64, height: 48, timeBase: Rational(1, 25), frameRate: Rational(25),
            keyframeInterval: 5, maxBFrames: 0))
        let painter = FramePainter(codedWidth: 64, codedHeight: 48, rotationDegrees: 0)
        for index in 0..<10 { try writer.encodeFrame(pts: Int64(index)) { painter.paint($0, index: index) } }
        try writer.finish()
        let probe = try VideoProbe(path: path)
        #expect(probe.codec == (encoder == "flv" ? "flv1" : encoder))
        try FirstFrameCheck.run(path: path)
    }

    @Test("a single image and raw pictures are refused, naming their format")
    func imagesAreRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("photo.mp4").path
        try StripWriter.write(Image(width: 16, height: 16), to: png, format: .png)
        let error = #expect(throws: MediaError.self) { try VideoProbe(path: png) }
        guard case .refusedContainer(let name, _) = error?.reason else {
            Issue.record("expected a refused container, got \(String(describing: error))")
            return
        }
        #expect(name == "png_pipe")
    }

    /// A real MP4 file (320x180 pictures) whose sample description is edited to claim `width`x`height`.
    private func editedHeader(in folder: URL, width: UInt16, height: UInt16) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video("h264-180p-3s")))
        // The avc1 sample entry (not the brand in ftyp): its 16-bit width and height lie 24 bytes after the type.
        var searchFrom = bytes.startIndex
        var found: Int?
        while found == nil, let type = bytes.range(of: Data("avc1".utf8), in: searchFrom..<bytes.endIndex) {
            let candidate = type.upperBound + 24
            if candidate + 4 <= bytes.endIndex, bytes[candidate..<candidate + 4] == Data([0x01, 0x40, 0x00, 0xB4]) { found = candidate }
            searchFrom = type.upperBound
        }
        guard let at = found else { throw CocoaError(.fileReadCorruptFile) }
        bytes.replaceSubrange(at..<at + 4, with: Data([UInt8(width >> 8), UInt8(width & 0xFF), UInt8(height >> 8), UInt8(height & 0xFF)]))
        let path = folder.appendingPathComponent("edited-\(width)x\(height).mp4").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a header claiming 16000x16000 pictures is refused before anything decodes")
    func hugePicturesAreRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try editedHeader(in: folder, width: 16000, height: 16000)
        let error = #expect(throws: MediaError.self) { try VideoProbe(path: path) }
        #expect(error?.reason == .pictureTooLarge(width: 16000, height: 16000, limit: InputLimits.defaultMaximumPixels))
        let outcome = try BoundedCLI.run(["strip", path, "-o", folder.appendingPathComponent("s.png").path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("exceeds the limit of 67108864 pixels"), "\(outcome.standardError)")
    }

    @Test("--max-pixels refuses larger pictures: from the header, and in the decoder when the header claims less")
    func maxPixelsOption() throws {
        let video = try TestSupport.video("h264-180p-3s")
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strip = folder.appendingPathComponent("s.png").path
        let refused = try BoundedCLI.run(["strip", video, "-o", strip, "--max-pixels", "50000"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("picture of 320x180 exceeds the limit of 50000 pixels"), "\(refused.standardError)")
        let accepted = try BoundedCLI.run(["strip", video, "-o", strip, "--max-pixels", "57600"])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        // The header says 160x90 (14400 px), the frames are 320x180 (57600 px): the decoder refuses them.
        let lying = try editedHeader(in: folder, width: 160, height: 90)
        try? FileManager.default.removeItem(atPath: strip)
        for arguments in [["strip", lying, "-o", strip, "--max-pixels", "20000"], ["info", lying, "--max-pixels", "20000"]] {
            let outcome = try BoundedCLI.run(arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.contains(lying), "\(outcome.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: strip))
    }

    @Test("--timeout stops a long decode at its deadline with a clear error and no output")
    func deadline() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strip = folder.appendingPathComponent("s.png").path
        // Every one of 600 frames, each decoded from its keyframe: several seconds of decoding.
        // No wall-clock assertion (shared machines): the deadline's own message says it fired,
        // and BoundedCLI's time limit catches a run the deadline failed to stop.
        let outcome = try BoundedCLI.run(["strip", try TestSupport.video("h264-360p-20s"), "-o", strip, "--count", "600",
                                          "--extractor", "sequential", "--workers", "1", "--timeout", "1"])
        // A machine that decodes all of it within the second has nothing to stop.
        if outcome.status == 0 { return }
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("gave up after 1 s, the time limit") && outcome.standardError.contains("(--timeout)"), "\(outcome.standardError)")
        #expect(BoundedCLI.leftovers(in: folder, besides: []).isEmpty)
    }
}
