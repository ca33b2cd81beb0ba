import CLITestSupport
@testable import Filmstrip
@testable import FilmstripFixtures
import FilmstripProcess
import Foundation
import Testing

/// GNU time, which reports its child's `ru_maxrss`. Not `ChildProcess`'s own figure: a child
/// spawned from the test process inherits the test's high-water mark across exec (Linux keeps
/// the larger of the two), and the 8K frames are encoded in here.
private let gnuTime = "/usr/bin/time"

/// The memory estimate that `--max-memory` refuses requests by is checked against the peak
/// resident memory of the real run: never below it (a refused request would not have fitted),
/// never more than twice it (8K used to be refused at 4 to 40 times its peak).
@Suite("Memory estimate against measured peaks", .enabled(if: FileManager.default.isExecutableFile(atPath: gnuTime),
                                                        "needs GNU time (Debian package time) to measure peaks"))
struct MemoryEstimateTests {
    /// The estimate the CLI states when it refuses `arguments` under `--max-memory 1`, in MB.
    static func estimate(_ arguments: [String]) throws -> Int {
        let refused = try BoundedCLI.run(arguments + ["--max-memory", "1"])
        let words = refused.standardError.split(separator: " ")
        guard let at = words.firstIndex(of: "estimated"), let megabytes = Int(words[at + 1]) else {
            Issue.record("no estimate in: \(refused.standardError)")
            return 0
        }
        return megabytes
    }

    /// The peak resident memory of the CLI running `arguments`, in MB, as GNU time measures it.
    static func peak(_ arguments: [String]) throws -> Int {
        let run = try ChildProcess.run(gnuTime, ["-f", "peak %M KB", CLIProcess.executable.path] + arguments, standardError: .capture, timeLimit: 120)
        #expect(run.succeeded, "\(arguments): \(run.errors)")
        let line = run.errors.split(separator: "\n").last { $0.hasPrefix("peak ") }
        return (line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0) / 1000
    }

    static func checkEstimate(of video: String, _ options: [String]) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["strip", video, "-o", folder.appendingPathComponent("s.png").path] + options
        let estimated = try estimate(arguments), measured = try peak(arguments)
        #expect(estimated >= measured, "\(video) \(options): estimated \(estimated) MB, peak \(measured) MB")
        #expect(estimated <= 2 * measured, "\(video) \(options): estimated \(estimated) MB, peak \(measured) MB")
    }

    @Test("reference videos: estimate between the peak and twice it", arguments: [
        ("h264-180p-3s", ["--count", "1", "--workers", "1", "--threads", "1"]),
        ("h264-360p-20s", ["--count", "8", "--workers", "2", "--threads", "1"]),
        ("h264-360p-20s", ["--count", "8"]),
        ("vp9-180p-2s", ["--count", "8"]),
    ])
    func referenceVideos(id: String, options: [String]) throws {
        try Self.checkEstimate(of: try TestSupport.video(id), options)
    }

    /// `frames` frames at 8K, made by the fixture encoder: the sizes the old estimate refused.
    /// Several, so that the one thumbnail (in the middle) is decoded with references held.
    static func largeVideo(in folder: URL, encoder: String, width: Int, height: Int, frames: Int) throws -> String {
        let path = folder.appendingPathComponent("\(encoder)-\(width)x\(height).mkv").path
        var writer = try VideoWriter(path: path, containerName: "matroska", settings: EncoderSettings(
            encoderName: encoder, width: width, height: height, timeBase: Rational(1, 25), frameRate: Rational(25),
            keyframeInterval: frames, maxBFrames: 0,
            options: encoder == "libx265" ? ["preset": "ultrafast", "x265-params": "log-level=error"] : [:]))
        let painter = FramePainter(codedWidth: width, codedHeight: height, rotationDegrees: 0)
        for index in 0..<frames { try writer.encodeFrame(pts: Int64(index)) { painter.paint($0, index: index) } }
        try writer.finish()
        return path
    }

    /// Opt-in (FILMSTRIP_SLOW_TESTS=1): painting and encoding the 8K frames takes about a
    /// minute of CPU, too long for the quick tests.
    @Test("8K: 7680x4320 HEVC and 8192x8192 FFV1, one worker and one thread, within twice the peak",
          .enabled(if: ProcessInfo.processInfo.environment["FILMSTRIP_SLOW_TESTS"] == "1", "set FILMSTRIP_SLOW_TESTS=1"),
          arguments: [("libx265", 7680, 4320, 5), ("ffv1", 8192, 8192, 3)])
    func eightK(encoder: String, width: Int, height: Int, frames: Int) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.largeVideo(in: folder, encoder: encoder, width: width, height: height, frames: frames)
        try Self.checkEstimate(of: video, ["--count", "1", "--workers", "1", "--threads", "1"])
    }

    @Test("decoders are counted by codec: references by size for H.264 and HEVC, none for intra-only codecs")
    func referencePictures() {
        #expect(DecoderMemory.referencePictures(codec: "h264", pixels: 1920 * 1080) == 16)
        #expect(DecoderMemory.referencePictures(codec: "hevc", pixels: 7680 * 4320) == 6)
        #expect(DecoderMemory.referencePictures(codec: "mjpeg", pixels: 7680 * 4320) == 0)
        #expect(DecoderMemory.referencePictures(codec: "vp9", pixels: 640 * 360) == 8)
        #expect(DecoderMemory.referencePictures(codec: "unknown-codec", pixels: 640 * 360) == 16)
    }
}
