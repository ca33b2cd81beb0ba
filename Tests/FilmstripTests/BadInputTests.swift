import Filmstrip
import Foundation
import Testing

/// Files that are not usable videos, made on the fly from real reference videos where possible.
enum BadInput: String, CaseIterable, CustomTestStringConvertible {
    case missingFile, directory, emptyFile, textRenamedMP4, audioOnly, unsupportedCodec, zeroFrames

    var testDescription: String { rawValue }

    /// Creates the input in `folder` and returns its path.
    func make(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("\(rawValue).mp4").path
        switch self {
        case .missingFile:
            return folder.appendingPathComponent("does-not-exist.mp4").path
        case .directory:
            let directory = folder.appendingPathComponent("folder.mp4")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory.path
        case .emptyFile:
            try (Data()).write(to: URL(fileURLWithPath: path))
        case .textRenamedMP4:
            try "This is a shopping list, not a video.\nmilk\neggs\n".write(toFile: path, atomically: true, encoding: .utf8)
        case .audioOnly:
            let wav = folder.appendingPathComponent("tone.wav").path
            try (Self.waveFile(seconds: 1)).write(to: URL(fileURLWithPath: wav))
            return wav
        case .unsupportedCodec:
            // A real Matroska file whose codec id is renamed to one no decoder knows.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video("h264-180p-2s-vfr")))
            let original = Data("V_MPEG4/ISO/AVC".utf8), renamed = Data("V_FILMSTRIP/XX0".utf8)
            guard let range = bytes.range(of: original) else { throw CocoaError(.fileReadCorruptFile) }
            bytes.replaceSubrange(range, with: renamed)
            let mkv = folder.appendingPathComponent("unknown-codec.mkv").path
            try (bytes).write(to: URL(fileURLWithPath: mkv))
            return mkv
        case .zeroFrames:
            var writer = try VideoWriter(path: path, containerName: "mp4", settings: EncoderSettings(
                encoderName: "libx264", width: 64, height: 64, timeBase: Rational(1, 30), frameRate: Rational(30),
                keyframeInterval: 30, maxBFrames: 0))
            try writer.finish()
        }
        return path
    }

    /// One channel of 16-bit PCM at 8 kHz: a real audio-only file any FFmpeg reads.
    static func waveFile(seconds: Int) -> Data {
        let rate = 8000, samples = rate * seconds
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(rate)); append(UInt32(rate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples * 2))
        for sample in 0..<samples { append(Int16((sample % 40 < 20) ? 8000 : -8000)) }
        return data
    }
}

@Suite("Bad input")
struct BadInputTests {
    @Test("the probe throws a MediaError naming the file", arguments: BadInput.allCases)
    func probeRejects(input: BadInput) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try input.make(in: folder)
        let error = #expect(throws: MediaError.self) { try VideoProbe(path: path) }
        #expect(error?.file == path)
        #expect(error?.description.hasPrefix(path) == true)
        #expect(error?.description.contains("\n") == false)
        let expected: MediaError.Reason? = switch input {
        case .missingFile: .fileNotFound
        case .directory: .isDirectory
        case .emptyFile: .emptyFile
        case .audioOnly: .noVideoStream
        default: nil
        }
        if let expected { #expect(error?.reason == expected) }
        if input == .unsupportedCodec, let reason = error?.reason {
            guard case .unsupportedCodec = reason else { Issue.record("expected unsupportedCodec, got \(reason)"); return }
        }
    }

    @Test("filmstrip info prints one line naming the file and exits non-zero", arguments: BadInput.allCases)
    func commandLineRejects(input: BadInput) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try input.make(in: folder)
        let result = try TestSupport.runCLI(["info", path])
        #expect(result.status != 0)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(path) == true)
        #expect(result.standardOutput.isEmpty)
    }

    @Test("a file cut at 30 % of its bytes says its data ends early", arguments: ["h264-180p-3s", "vp9-180p-2s", "mpeg4-180p-2s"])
    func truncatedFile(id: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video(id)))
        let path = folder.appendingPathComponent("cut-\(id)").path
        try (original.prefix(original.count * 3 / 10)).write(to: URL(fileURLWithPath: path))
        do {
            let probe = try VideoProbe(path: path)
            #expect(probe.dataEndsEarly)
            #expect(probe.frameCount < TestSupport.spec(id).frameCount)
            let result = try TestSupport.runCLI(["info", path])
            #expect(result.standardError.contains("data ends early"))
        } catch let error as MediaError {
            // Where the cut takes the index with it, refusing the file is the right answer too.
            #expect(error.file == path)
        }
    }
}
