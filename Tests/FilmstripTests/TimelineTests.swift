import Filmstrip
import FilmstripFixtures
import Foundation
import Testing

/// Timelines as players see them, checked against ffprobe's timeline and the ffmpeg CLI's
/// decode of the same files: edit lists (stream-copy cuts that skip pre-roll, delays), raw
/// elementary streams without timestamps, and transport streams with padding.
@Suite("Container timelines", .enabled(if: FormatOracle.ffmpeg != nil, "needs the ffmpeg CLI (scripts/setup.sh)"))
struct TimelineTests {
    /// Runs ffmpeg or ffprobe (next to it) and returns standard output; fails on a non-zero exit.
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FormatOracle.ffmpeg!).deletingLastPathComponent().appendingPathComponent(name)
        process.arguments = ["-v", "error"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(name) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    /// ffprobe's presentation times, in seconds, of the frames the decoder outputs.
    static func decodedFrameTimes(_ path: String) throws -> [Double] {
        try tool("ffprobe", ["-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time", "-of", "csv=p=0", path])
            .split(separator: "\n").compactMap { line in line.split(separator: ",").first.flatMap { Double($0) } }
    }

    /// Thumbnails of `path` at `count` slots match the CLI's decode of the same frames (pixels
    /// and markers, which number the original video's frames: `markerOffset` + index), in exact
    /// and keyframe accuracy, from every extractor.
    static func checkThumbnails(_ path: String, probe: VideoProbe, count: Int = 6, markerOffset: Int?) async throws {
        for accuracy in [Accuracy.exact, .keyframe] {
            let plan = try SamplePlan(probe: probe, count: count, accuracy: accuracy)
            var oracle: FormatOracle?
            for extractor in Extractors.all {
                let request = try ExtractionRequest(path: path, probe: probe, plan: plan)
                let thumbnails = try await extractor.thumbnails(for: request).thumbnails
                if oracle == nil {
                    oracle = try FormatOracle(path: path, width: thumbnails[0].image!.width, height: thumbnails[0].image!.height, interlaced: false)
                    #expect(oracle!.frames.count == probe.frameCount, "\(path): the CLI decodes \(oracle!.frames.count) frames")
                }
                for (thumbnail, target) in zip(thumbnails, plan.targets) {
                    let cell = "\(path) \(accuracy) \(extractor.name) slot \(target.slot)"
                    #expect(!thumbnail.substituted, "\(cell): undamaged file")
                    #expect(thumbnail.frameIndex == target.frameIndex, "\(cell)")
                    if let markerOffset {
                        #expect(FrameIndexMarker.read(from: thumbnail.image!) == markerOffset + target.frameIndex, "\(cell) marker")
                    }
                    let difference = oracle!.meanAbsoluteDifference(thumbnail.image!, frame: target.frameIndex)
                    #expect(difference < FormatOracle.bound, "\(cell) frame \(target.frameIndex): \(difference) from the CLI")
                }
            }
        }
    }

    /// Cuts made by stream copy, as phone editors and `ffmpeg -c copy` make them: an edit list
    /// that starts 0.3 s after a keyframe (its pre-roll is decoded, not shown), and one that
    /// delays the first frame by 0.4 s (an empty edit). From a 30 fps H.264 MP4 with B-frames.
    @Test("an edit list's timeline is ffprobe's, and every tile is the CLI's frame at its time",
          arguments: [("mp4", "preroll"), ("mov", "preroll"), ("mp4", "delay"), ("mov", "delay")])
    func editList(container: String, edit: String) async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try TestSupport.video("h264-180p-3s")
        let path = folder.appendingPathComponent("\(edit).\(container)").path
        let cut = edit == "preroll" ? ["-ss", "1.3", "-i", base, "-t", "1.5"] : ["-itsoffset", "0.4", "-i", base]
        _ = try Self.tool("ffmpeg", cut + ["-c", "copy", "-y", path])
        let probe = try VideoProbe(path: path)
        let times = try Self.decodedFrameTimes(path)
        #expect(probe.frameCount == times.count, "\(path): \(probe.frameCount) frames, ffprobe decodes \(times.count)")
        let ours = probe.frameTimes.map { (Rational($0) * probe.timeBase).doubleValue }
        #expect(ours.count == times.count && zip(ours, times).allSatisfy { abs($0 - $1) < 0.0005 },
                "\(path): frame times \(ours.prefix(4)) …, ffprobe \(times.prefix(4)) …")
        let start = probe.startTime.seconds.doubleValue
        #expect(abs(start - (edit == "preroll" ? 0 : 0.4)) < 0.0005, "\(path): start \(start)")
        #expect(!probe.dataEndsEarly)
        // The cut's first frame is the original's frame at 1.3 s (frame 39 at 30 fps); the delayed one's is frame 0.
        try await Self.checkThumbnails(path, probe: probe, markerOffset: edit == "preroll" ? 39 : 0)
    }

    /// MPEG-TS's demuxer answers "read again" (EAGAIN) after skipping 64 KB that hold no
    /// packet: zero padding after the data (70,000 bytes), or 1 MB of it, must read as the end.
    @Test("a transport stream followed by zero padding reads to its last frame, for the library and the CLI",
          arguments: [70_000, 1 << 20])
    func zeroPaddedTransportStream(padding: Int) async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("padded.ts").path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video("ts-h264")))
        bytes.append(Data(count: padding))
        try bytes.write(to: URL(fileURLWithPath: path))
        let probe = try VideoProbe(path: path)
        #expect(probe.frameCount == TestSupport.spec("ts-h264").frameCount)
        try await Self.checkThumbnails(path, probe: probe, markerOffset: 0)
        for arguments in [["info", path], ["strip", path, "-o", folder.appendingPathComponent("s.png").path]] {
            let outcome = try BoundedCLI.run(arguments)
            #expect(outcome.status == 0 && !outcome.timedOut, "\(arguments): \(outcome.standardError)")
        }
    }

    /// Two transport streams joined end to end (`cat a.ts b.ts`), the second a negative of the
    /// first made by the CLI, so that showing the first part in place of the second shows: the
    /// times go back at the join, and players (and the CLI's decode) play the second part after
    /// the first. The probe, the thumbnails and `info` must too.
    @Test("a transport stream of two recordings joined shows both, in the CLI's order")
    func joinedTransportStreams() async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try TestSupport.video("ts-h264")
        let second = folder.appendingPathComponent("negative.ts").path
        _ = try Self.tool("ffmpeg", ["-i", first, "-vf", "negate", "-c:v", "libx264", "-bf", "2", "-g", "25", "-y", second])
        let path = folder.appendingPathComponent("joined.ts").path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        bytes.append(try Data(contentsOf: URL(fileURLWithPath: second)))
        try bytes.write(to: URL(fileURLWithPath: path))

        let probe = try VideoProbe(path: path)
        let frames = TestSupport.spec("ts-h264").frameCount
        #expect(probe.frameCount == 2 * frames)
        #expect(probe.timestampResets.count == 1)
        #expect(probe.duration.seconds == Rational(Int64(2 * frames), 25), "\(probe.duration.seconds.doubleValue) s")
        #expect(Set(probe.frameTimes).count == probe.frameTimes.count, "no two frames at one time")
        try await Self.checkThumbnails(path, probe: probe, count: 8, markerOffset: nil)
        let info = try BoundedCLI.run(["info", path])
        #expect(info.status == 0 && info.standardOutput.contains("go back 1 time"), "\(info.standardOutput)")
    }

    /// Complete files whose first frame is not at time 0 or whose edit list presents part of
    /// the media: Matroska's duration and MP4's frame count count from time 0 and over every
    /// sample, so they read as "data ends early" though nothing is missing. Variants of the
    /// reported files: 30 fps, a WebM offset, MOV instead of MP4; a file really cut short still ends early.
    @Test("a late start or a shortening edit list is not \"data ends early\"; a truncated file still is",
          arguments: [("mkv", "cut keeping times"), ("webm", "offset"), ("mov", "edit list presenting half"), ("mkv", "truncated")])
    func completeFilesDoNotEndEarly(container: String, edit: String) async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let matrixCase: FrameMatrixCase = switch edit {
        case "cut keeping times": .video(.matroska, fps: 30, gop: 15, bFrames: 3, seconds: 4, edit: .cutKeepingTimes(seconds: 2))
        case "edit list presenting half": .video(.mov, fps: 30, gop: 15, bFrames: 3, seconds: 4, edit: .presentFirstHalf)
        default: .video(.matroska, fps: 30, gop: 15, bFrames: 3, seconds: 4, edit: .offset(seconds: 10))
        }
        var path = try matrixCase.make(in: folder)
        if container == "webm" {
            path = folder.appendingPathComponent("offset.webm").path
            let vp9 = folder.appendingPathComponent("vp9.webm").path
            _ = try Self.tool("ffmpeg", ["-i", try matrixCase.make(in: folder), "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-y", vp9])
            _ = try Self.tool("ffmpeg", ["-i", vp9, "-c", "copy", "-output_ts_offset", "10", "-y", path])
        }
        if edit == "truncated" {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            path = folder.appendingPathComponent("truncated.mkv").path
            try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: path))
        }
        let probe = try VideoProbe(path: path)
        #expect(probe.dataEndsEarly == (edit == "truncated"), "\(edit) \(container): \(probe.durationSeconds) s from \(probe.startTime.seconds.doubleValue) s")
        let info = try BoundedCLI.run(["info", path])
        #expect(info.status == 0)
        #expect(info.standardError.contains("data ends early") == (edit == "truncated"), "\(info.standardError)")
        if edit != "truncated" { try await Self.checkThumbnails(path, probe: probe, markerOffset: nil) }
    }
}
