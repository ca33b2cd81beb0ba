import Filmstrip
import FilmstripFixtures
import Foundation
import Testing

/// What the ffmpeg CLI decodes from a file with `-copyts`: each frame's time and marker, in the
/// order the CLI outputs them. The CLI gives times to frames whose packets carry none (raw
/// streams, AVI, Matroska blocks before the cluster's time); ffprobe leaves those out, so the
/// times come from the CLI's own `showinfo`, not from `TimelineTests.decodedFrameTimes`.
struct CLIDecode {
    /// Seconds as the CLI's filters see them (nil: a frame the CLI left untimed), output order.
    var times: [Double?]
    /// The marker on each output frame (nil: unreadable).
    var markers: [Int?]
    /// Whether the CLI calls each output frame a keyframe.
    var keyframes: [Bool]

    /// Whether each output frame is ever on screen: a frame stays until the CLI outputs one at
    /// an earlier or equal time, so a frame whose time a later frame repeats (or undercuts by
    /// less than 1.5 ms: the CLI's guesses for untimed frames drift by a millisecond) is not.
    var shown: [Bool] {
        var earliestLater = Double.infinity
        var result = [Bool](repeating: false, count: times.count)
        for index in times.indices.reversed() {
            guard let time = times[index] else { continue }
            result[index] = earliestLater - time > 0.0015
            earliestLater = min(earliestLater, time)
        }
        return result
    }

    /// The earliest time of a shown frame: what "0 s into the video" means to the CLI.
    var first: Double { zip(times, shown).compactMap { time, shown in shown ? time : nil }.min() ?? 0 }

    init(path: String, width: Int, height: Int, scratch: URL) throws {
        // showinfo's lines go to standard error; a file keeps the two pipes from blocking each other.
        let log = scratch.appendingPathComponent("showinfo-\(UUID().uuidString).txt")
        try Data().write(to: log)
        let logHandle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FormatOracle.ffmpeg!)
        process.arguments = ["-hide_banner", "-nostdin", "-copyts", "-i", path, "-map", "0:v:0",
                             "-vf", "showinfo,scale=\(width):\(height):flags=area", "-fps_mode", "passthrough",
                             "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = logHandle
        try process.run()
        let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        try logHandle.close()
        #expect(process.terminationStatus == 0, "ffmpeg -copyts -i \(path)")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("Parsed_showinfo") && $0.contains(" n:") }
        times = lines.map { line in Self.field("pts_time:", in: line).flatMap(Double.init) }
        keyframes = lines.map { line in Self.field("iskey:", in: line) == "1" }
        let frameBytes = width * height * 4
        markers = stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { start in
            FrameIndexMarker.read(from: Image(width: width, height: height, bytesPerRow: width * 4, pixels: Array(bytes[start..<(start + frameBytes)])))
        }
        #expect(markers.count == times.count, "\(path): showinfo lists \(times.count) frames, the CLI wrote \(markers.count)")
    }

    /// The value after `key` up to the next space ("NOPTS" reads as no number).
    static func field(_ key: String, in line: Substring) -> String? {
        guard let range = line.range(of: key) else { return nil }
        return String(line[range.upperBound...].drop { $0 == " " }.prefix { $0 != " " })
    }

    /// The marker of the frame the CLI shows `seconds` after its first frame: the last frame it
    /// outputs whose time is at or before that moment (of frames sharing a time, the later one
    /// replaces the earlier on screen). showinfo prints six significant digits (1.06667 for
    /// 1.0666667: 3.3 µs off), so 100 µs of slack absorbs the rounding; frames are milliseconds apart.
    func expectedMarker(atSeconds seconds: Double) -> Int? { expectedFrame(atSeconds: seconds).flatMap { markers[$0] } }

    /// The output index of the frame `expectedMarker(atSeconds:)` reads.
    func expectedFrame(atSeconds seconds: Double) -> Int? {
        let moment = first + seconds + 0.000_1
        return times.indices.last { times[$0].map { $0 <= moment } ?? false }
    }

    /// The times of shown frames, from the first, ascending.
    var shownTimes: [Double] { zip(times, shown).compactMap { time, shown in shown ? time.map { $0 - first } : nil }.sorted() }

    /// Times of the CLI's shown keyframes, from the first, ascending.
    var keyframeTimes: [Double] {
        times.indices.compactMap { keyframes[$0] && shown[$0] ? times[$0].map { $0 - first } : nil }.sorted()
    }
}

/// One video of issue 45: a marker video made by the project's writer, turned by the ffmpeg CLI
/// into a form whose packets carry partial or no times, and the slots to check it at.
struct UntimedCase: Sendable, CustomTestStringConvertible {
    enum Slots: Sendable {
        /// One slot in the middle of each shown frame's display interval.
        case everyFrame
        /// `count` slots spread as `strip --count` spreads them.
        case count(Int)
    }

    var name: String
    var source: ReferenceVideoSpec
    /// The ffmpeg CLI's arguments after `-i SOURCE`, before the output path.
    var arguments: [String]
    var fileExtension: String
    /// A second pass over the first's output (`-i FIRST -c copy` and these), into `remuxExtension`.
    var remux: [String]? = nil
    var remuxExtension = ""
    var slots: Slots = .everyFrame
    /// `--workers` for the strip extractors (nil: one per core).
    var workers: Int? = nil
    /// Seconds between sprite tiles.
    var spriteInterval: Double

    var testDescription: String { name }

    /// True for containers whose clock is the frame count (AVI's chunks, raw streams' frames at
    /// the stated rate): frame k of the decode is shown at k frame durations. The CLI's own
    /// times there are its decoder's guesses, uneven where it drains the last frames after the
    /// last packet (2.92, 2.96, 2.98 s at 25 fps); the reference is its frames in the order it
    /// outputs them, on that clock.
    /// The ffmpeg CLI's decode to judge against: of the file itself, or for Xvid's packed
    /// B-frames of a copy unpacked by the CLI's `mpeg4_unpack_bframes` (its decoder reads some
    /// packed layouts, two B-frames at 24 and 30 fps, out of order or as concealment: its own
    /// decode of them is no reference; unpacked, the same pictures decode cleanly).
    func referenceDecode(of path: String, in folder: URL) throws -> CLIDecode {
        var reference = path
        if arguments.contains("libxvid") {
            reference = folder.appendingPathComponent("reference-unpacked.avi").path
            _ = try TimelineTests.tool("ffmpeg", ["-i", path, "-c", "copy", "-bsf:v", "mpeg4_unpack_bframes", "-y", reference])
        }
        var cli = try CLIDecode(path: reference, width: 160, height: 90, scratch: folder)
        if clockedByFrameCount { cli.times = cli.times.indices.map { Double($0) / Double(source.framesPerSecond) } }
        return cli
    }

    var clockedByFrameCount: Bool { ["avi", "hevc", "h264", "m4v"].contains(remux == nil ? fileExtension : remuxExtension) }

    /// A 160x90 H.264 marker video in Matroska; `gop` 1 makes an intra-only source to re-encode.
    static func marker(fps: Int, seconds: Int, gop: Int, bFrames: Int, gapSeconds: Int = 0) -> ReferenceVideoSpec {
        ReferenceVideoSpec(id: "untimed-source-\(fps)fps-\(seconds)s-gop\(gop)-b\(bFrames)\(gapSeconds > 0 ? "-gap\(gapSeconds)s" : "")",
                           codec: .h264, container: .matroska, width: 160, height: 90, framesPerSecond: fps, seconds: seconds,
                           keyframeInterval: gop, maxBFrames: bFrames)
            .with(timestampJumpFrames: gapSeconds * fps)
    }

    /// x265 (its default preset) with open GOPs and a B-pyramid four deep: the decoder outputs
    /// each frame several packets after its own. (The ultrafast preset's GOPs, B-frames fixed,
    /// are handled today: they do not show the issue.)
    static let x265OpenGOP = ["-c:v", "libx265", "-x265-params", "log-level=error:keyint=30:min-keyint=30:scenecut=0:bframes=4:b-pyramid=1:open-gop=1"]
    /// x264 with open GOPs and three B-frames: each GOP after the first opens with B-frames that show before its I-frame.
    static let x264OpenGOP = ["-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "36", "-x264-params", "open-gop=1:scenecut=0:b-adapt=0"]

    /// Class 1: raw HEVC, and the same stream copied into AVI (codec tag HEVC) as people wrap
    /// raw streams, 25 fps, keyframes every 1.2 s (x265 puts leading B-frames before each: at
    /// GOPs of 40 it made none, and the issue did not show).
    static let hevc: [UntimedCase] = [
        UntimedCase(name: "raw HEVC, open GOP, B-pyramid", source: marker(fps: 25, seconds: 3, gop: 1, bFrames: 0),
                    arguments: x265OpenGOP, fileExtension: "hevc", spriteInterval: 0.1),
        UntimedCase(name: "raw HEVC copied into AVI, open GOP, B-pyramid", source: marker(fps: 25, seconds: 3, gop: 1, bFrames: 0),
                    arguments: x265OpenGOP, fileExtension: "hevc", remux: ["-vtag", "HEVC"], remuxExtension: "avi", spriteInterval: 0.1),
    ]

    /// Class 2: H.264 with open GOPs in AVI and as a raw stream, 25 fps (AVI counts its times in
    /// frames: at 25 fps in exact hundredths of a second, where 30 fps drifts by rounding).
    static let h264OpenGOP: [UntimedCase] = [
        UntimedCase(name: "raw H.264, open GOP, 3 B-frames", source: marker(fps: 25, seconds: 3, gop: 1, bFrames: 0),
                    arguments: x264OpenGOP, fileExtension: "h264", spriteInterval: 0.1),
        UntimedCase(name: "H.264 in AVI, open GOP, 3 B-frames", source: marker(fps: 25, seconds: 3, gop: 1, bFrames: 0),
                    arguments: x264OpenGOP, fileExtension: "avi", spriteInterval: 0.1),
    ]

    /// Class 3: Xvid's packed bitstream (libxvid packs a B-frame into the packet of the
    /// P-frame before it and leaves a few-byte placeholder where the B-frame was), 25 fps: one
    /// B-frame and GOPs of 12, and three B-frames and GOPs of 50. (Two B-frames and GOPs of 30
    /// show every frame right today.)
    static let packedMPEG4: [UntimedCase] = [(1, 12), (3, 50)].map { bFrames, gop in
        UntimedCase(name: "Xvid in AVI, packed, \(bFrames) B-frames, GOP \(gop)", source: marker(fps: 25, seconds: 4, gop: 1, bFrames: 0),
                    arguments: ["-c:v", "libxvid", "-bf", "\(bFrames)", "-g", "\(gop)", "-q:v", "3"], fileExtension: "avi", spriteInterval: 0.1)
    }

    /// Class 4: stream copy with the times moved 1 s back and negative times kept: Matroska
    /// cannot store a block's time before its cluster's, so the first second's blocks have none.
    static let untimedStart = UntimedCase(name: "Matroska whose first second has no block times",
                                          source: marker(fps: 30, seconds: 3, gop: 15, bFrames: 3),
                                          arguments: ["-c", "copy", "-avoid_negative_ts", "disabled", "-output_ts_offset", "-1"],
                                          fileExtension: "mkv", spriteInterval: 0.1)

    /// Class 5: 16 s at 25 fps (x264, 3 B-frames, one GOP of 250), 45 s missing after frame
    /// 200, its times rewritten on stream copy so that some frames share a time:
    /// - every presentation time rounded to a twentieth of a second by the setts filter, so
    ///   one frame in five shares its time with a neighbour;
    /// - setts' output time base set to 1/20 s, after which this CLI (5.1) writes the packets'
    ///   presentation times as a ramp in decode order, 40 ms apart, a few of them repeated:
    ///   the times no longer follow the pictures, and the decoder, seeing them go back in
    ///   display order, times its frames by their decode times instead (as the CLI does).
    static let repeatedTimesAfterGap: [UntimedCase] = [
        UntimedCase(name: "gap of 45 s, times rounded to 1/20 s", source: marker(fps: 25, seconds: 16, gop: 250, bFrames: 3, gapSeconds: 45),
                    arguments: ["-c", "copy", "-bsf:v", "setts=pts=round(PTS*TB*20)/(TB*20)"], fileExtension: "mkv",
                    slots: .count(30), workers: 1, spriteInterval: 2),
        UntimedCase(name: "gap of 45 s, times in decode order", source: marker(fps: 25, seconds: 16, gop: 250, bFrames: 3, gapSeconds: 45),
                    arguments: ["-c", "copy", "-bsf:v", "setts=time_base=1/20"], fileExtension: "mkv",
                    slots: .count(30), workers: 1, spriteInterval: 2),
    ]

    /// True when `FILMSTRIP_FRAME_MATRIX=full` (`scripts/frame-accuracy-sweep.sh`): the classes
    /// in `full` too, and every strip extractor at 1 to 4 workers.
    static var sweepsEverything: Bool { ProcessInfo.processInfo.environment["FILMSTRIP_FRAME_MATRIX"] == "full" }

    /// The sweep's cross product beyond CI's cases: raw `.h264`/`.hevc`/`.m4v` and AVI, closed
    /// and open GOPs, B-frames and B-pyramids, MPEG-4 with B-frames and Xvid packed, at 24, 25
    /// and 30 fps; untimed Matroska starts of 0.5 and 1 s; times rounded to 1/10 and 1/20 s and
    /// a decode-order ramp, after gaps of 10 and 45 s.
    static let full: [UntimedCase] = {
        var cases: [UntimedCase] = []
        let encoders: [(name: String, arguments: [String], raw: String)] = [
            ("x264 closed GOP, 3 B-frames, pyramid", ["-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "30",
                                                       "-x264-params", "scenecut=0:b-pyramid=normal"], "h264"),
            ("x264 open GOP, 2 B-frames", ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "24", "-x264-params", "open-gop=1:scenecut=0"], "h264"),
            ("x265 closed GOP, 4 B-frames, pyramid", ["-c:v", "libx265", "-x265-params",
                                                       "log-level=error:keyint=24:min-keyint=24:scenecut=0:bframes=4:b-pyramid=1"], "hevc"),
            ("x265 open GOP, 3 B-frames", ["-c:v", "libx265", "-x265-params", "log-level=error:keyint=36:min-keyint=36:scenecut=0:bframes=3:open-gop=1"], "hevc"),
            ("MPEG-4 Part 2, 2 B-frames", ["-c:v", "mpeg4", "-bf", "2", "-g", "25", "-q:v", "3"], "m4v"),
        ]
        for fps in [24, 25, 30] {
            let source = marker(fps: fps, seconds: 3, gop: 1, bFrames: 0)
            for encoder in encoders {
                // `.m4v` alone names Apple's MP4 flavour to the CLI: the raw stream needs its muxer named.
                let raw = encoder.raw == "m4v" ? ["-f", "m4v"] : []
                cases.append(UntimedCase(name: "raw \(encoder.raw), \(encoder.name), \(fps) fps", source: source, arguments: encoder.arguments + raw,
                                         fileExtension: encoder.raw, spriteInterval: 0.1))
                let tag = encoder.raw == "hevc" ? ["-vtag", "HEVC"] : encoder.raw == "m4v" ? ["-vtag", "XVID"] : []
                cases.append(UntimedCase(name: "AVI, \(encoder.name), \(fps) fps", source: source, arguments: encoder.arguments + tag,
                                         fileExtension: "avi", spriteInterval: 0.1))
                cases.append(UntimedCase(name: "raw \(encoder.raw) copied into AVI, \(encoder.name), \(fps) fps", source: source,
                                         arguments: encoder.arguments + raw, fileExtension: encoder.raw, remux: tag, remuxExtension: "avi", spriteInterval: 0.1))
            }
            // Two B-frames in GOPs of 30 at 24 and 30 fps: the CLI's own decode of libxvid's file
            // (packed or unpacked) shows frames out of order or unreadable, so there is no
            // reference to judge by; at 25 fps it decodes cleanly. Quantiser 2 keeps the markers readable.
            for (bFrames, gop) in [(1, 12), (3, 50)] + (fps == 25 ? [(2, 30)] : []) {
                cases.append(UntimedCase(name: "Xvid in AVI, packed, \(bFrames) B-frames, GOP \(gop), \(fps) fps", source: source,
                                         arguments: ["-c:v", "libxvid", "-bf", "\(bFrames)", "-g", "\(gop)", "-q:v", "2"], fileExtension: "avi",
                                         spriteInterval: 0.1))
            }
        }
        for offset in ["-0.5", "-1"] {
            cases.append(UntimedCase(name: "Matroska whose first \(offset.dropFirst()) s has no block times", source: marker(fps: 30, seconds: 3, gop: 15, bFrames: 3),
                                     arguments: ["-c", "copy", "-avoid_negative_ts", "disabled", "-output_ts_offset", offset],
                                     fileExtension: "mkv", spriteInterval: 0.1))
        }
        for gap in [10, 45] {
            let source = marker(fps: 25, seconds: 16, gop: 250, bFrames: 3, gapSeconds: gap)
            for rate in [10, 20] {
                cases.append(UntimedCase(name: "gap of \(gap) s, times rounded to 1/\(rate) s", source: source,
                                         arguments: ["-c", "copy", "-bsf:v", "setts=pts=round(PTS*TB*\(rate))/(TB*\(rate))"], fileExtension: "mkv",
                                         slots: .count(30), spriteInterval: 2))
            }
            cases.append(UntimedCase(name: "gap of \(gap) s, times in decode order", source: source,
                                     arguments: ["-c", "copy", "-bsf:v", "setts=time_base=1/20"], fileExtension: "mkv",
                                     slots: .count(30), spriteInterval: 2))
        }
        return cases
    }()

    /// The video, made in `folder`.
    func make(in folder: URL) throws -> String {
        let source = try TestSupport.cache.ensure(self.source).url.path
        let path = folder.appendingPathComponent("untimed.\(fileExtension)").path
        _ = try TimelineTests.tool("ffmpeg", ["-i", source] + arguments + ["-y", path])
        guard let remux else { return path }
        let remuxed = folder.appendingPathComponent("untimed-remuxed.\(remuxExtension)").path
        _ = try TimelineTests.tool("ffmpeg", ["-i", path, "-c", "copy"] + remux + ["-y", remuxed])
        return remuxed
    }
}

/// Issue 45: videos whose packets carry no presentation times (raw streams, AVI's decode-order
/// times, Matroska blocks without times) or times that repeat. Every `strip` extractor, every
/// `thumbnails` strategy and both sprite indexes (WebVTT, Jellyfin) must show in each slot the
/// frame the plan chose, and the plan must choose the frame the ffmpeg CLI shows at that time.
@Suite("Untimed containers: the CLI's frame in every slot", .enabled(if: FormatOracle.ffmpeg != nil, "needs the ffmpeg CLI (scripts/setup.sh)"))
struct UntimedContainerFrameTests {
    /// Checks every path over `path` and returns the wrong slots, described.
    static func wrongSlots(_ testCase: UntimedCase, path: String, folder: URL) async throws -> [String] {
        let probe = try VideoProbe(path: path)
        let cli = try testCase.referenceDecode(of: path, in: folder)
        // The marker must survive the CLI's re-encode, or no slot below can be judged.
        try #require(cli.markers.allSatisfy { $0 != nil }, "\(path): the CLI decodes \(cli.markers.filter { $0 == nil }.count) frames without a readable marker")
        // libxvid drops the last frames it holds back for B-frames, so not every source frame is there.
        #expect(zip(cli.markers, cli.markers.dropFirst()).allSatisfy { $0! < $1! }, "\(path): the CLI shows each frame once, in order")

        let plan: SamplePlan = switch testCase.slots {
        case .everyFrame:
            try SamplePlan(probe: probe, times: Self.middles(of: cli.shownTimes).map { Rational(Int64(($0 * 1_000_000).rounded()), 1_000_000) })
        case .count(let count): try SamplePlan(probe: probe, count: count)
        }
        let slotSeconds = plan.targets.map { ($0.requestedTime.seconds - probe.startTime.seconds).doubleValue }
        let expected = slotSeconds.map { cli.expectedMarker(atSeconds: $0) }
        var wrong: [String] = []
        for target in plan.targets {
            // The probe numbers shown frames only (a frame the CLI never shows has no index), so
            // the plan is judged by its frame's time from the start against the CLI's frame's.
            let planned = (Rational(target.framePts) * probe.timeBase - probe.startTime.seconds).doubleValue
            let cliTime = cli.expectedFrame(atSeconds: slotSeconds[target.slot]).flatMap { cli.times[$0] }.map { $0 - cli.first }
            if cliTime.map({ abs($0 - planned) > 0.001 }) ?? true {
                wrong.append("plan slot \(target.slot) at \(slotSeconds[target.slot]) s: the frame at \(planned) s, the CLI shows the frame at \(cliTime.map { "\($0)" } ?? "?") s")
            }
        }
        func judge(_ runner: String, slot: Int, image: Image) {
            let shown = FrameIndexMarker.read(from: image)
            if shown == nil || shown != expected[slot] {
                wrong.append("\(runner) slot \(slot) at \(slotSeconds[slot]) s: frame \(Self.text(shown)), the CLI shows \(Self.text(expected[slot]))")
            }
        }

        // The full sweep runs the strip extractors at every worker count of a small machine.
        let workerCounts: [Int?] = UntimedCase.sweepsEverything ? [1, 2, 3, 4] : [testCase.workers]
        for workers in workerCounts {
            let options = ExtractionOptions(skipNonReferenceFrames: Pipeline.defaultSkipsNonReferenceFrames, workers: workers)
            for extractor in Extractors.all {
                let request = try ExtractionRequest(path: path, probe: probe, plan: plan, size: .height(90), options: options)
                let runner = workerCounts.count > 1 ? "\(extractor.name)-w\(workers ?? 0)" : extractor.name
                for thumbnail in try await extractor.thumbnails(for: request).thumbnails {
                    judge(runner, slot: thumbnail.slot, image: thumbnail.image!)
                }
            }
        }
        // The plan's own times, exact: rounded to microseconds, a time on a frame's start in a
        // coarse time base (AVI's 1/25 s) could fall a hair before it, on the frame before.
        let times = plan.targets.map { $0.requestedTime.seconds - probe.startTime.seconds }
        for strategy in InteractiveStrategies.all {
            // Two decoders as on CI's two cores; no cache, so every slot is decoded.
            let generator = try ThumbnailGenerator(path: path, options: ThumbnailGeneratorOptions(strategy: strategy, decoders: 2, cacheBytes: 0))
            defer { generator.close() }
            var finals = 0
            for try await thumbnail in try generator.thumbnails(for: ThumbnailRequest(times: times, box: .height(90))) where thumbnail.isFinal {
                finals += 1
                judge(strategy.name, slot: thumbnail.slot, image: thumbnail.image)
            }
            #expect(finals == times.count, "\(strategy.name): one final image per slot")
        }
        return wrong + (try Self.wrongSpriteTiles(testCase, path: path, cli: cli))
    }

    /// `sprite --format vtt,jellyfin --accuracy exact`: each tile against the CLI's frame at its time.
    static func wrongSpriteTiles(_ testCase: UntimedCase, path: String, cli: CLIDecode) throws -> [String] {
        let (columns, rows) = (8, 5)
        let (folder, name) = try SpriteTests.run(path, ["--accuracy", "exact", "--interval", "\(testCase.spriteInterval)", "--tile", "\(columns)x\(rows)",
                                                        "--width", "160", "--format", "vtt,jellyfin"])
        defer { try? FileManager.default.removeItem(at: folder) }
        var wrong: [String] = []
        for (cue, tile) in try SpriteTests.checkedTrack(folder: folder, name: name, video: path) {
            let shown = FrameIndexMarker.read(from: tile), expected = cli.expectedMarker(atSeconds: Double(cue.start) / 1000)
            if shown == nil || shown != expected { wrong.append("WebVTT cue at \(cue.start) ms: frame \(Self.text(shown)), the CLI shows \(Self.text(expected))") }
        }
        let trickplay = folder.appendingPathComponent("\(name).trickplay")
        let entries = try SpriteParsers.playlist(String(contentsOf: trickplay.appendingPathComponent("160 - \(columns)x\(rows).m3u8"), encoding: .utf8))
        var tile = 0
        for entry in entries {
            let sheet = try SpriteParsers.decodeImage(trickplay.appendingPathComponent(entry.url.removingPercentEncoding!).path)
            let (width, height) = (sheet.width / columns, sheet.height / rows)
            for cell in 0..<(columns * rows) {
                // A sheet's tiles cover its EXTINF seconds; the last sheet's grid is only partly filled.
                guard Double(cell) * testCase.spriteInterval < (Double(entry.seconds) ?? 0) - 0.000_5 else { break }
                let image = sheet.cropped(to: PixelRect(x: cell % columns * width, y: cell / columns * height, width: width, height: height))
                let shown = FrameIndexMarker.read(from: image), expected = cli.expectedMarker(atSeconds: Double(tile) * testCase.spriteInterval)
                if shown == nil || shown != expected { wrong.append("Jellyfin tile \(tile): frame \(Self.text(shown)), the CLI shows \(Self.text(expected))") }
                tile += 1
            }
        }
        return wrong
    }

    /// The middle of each interval between neighbouring times, and a hundredth of a second into the last.
    static func middles(of times: [Double]) -> [Double] {
        times.indices.map { $0 + 1 < times.count ? (times[$0] + times[$0 + 1]) / 2 : times[$0] + 0.01 }
    }

    static func text(_ frame: Int?) -> String { frame.map(String.init) ?? "?" }

    /// Makes the video, checks it is what the case says with `checkVideo`, and then every path over it.
    static func run(_ testCase: UntimedCase, checkVideo: (String) throws -> Void = { _ in }) async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try testCase.make(in: folder)
        try checkVideo(path)
        let wrong = try await wrongSlots(testCase, path: path, folder: folder)
        let runners = Set(wrong.map { $0.prefix { $0 != " " } })
        let perRunner = runners.sorted().map { runner in "\(runner) \(wrong.filter { $0.hasPrefix(runner + " ") }.count)" }
        #expect(wrong.isEmpty, "\(testCase.name): \(wrong.count) wrong (\(perRunner.joined(separator: ", "))), e.g. \(wrong.prefix(6))")
    }

    @Test("class 1: raw HEVC and HEVC in AVI with open GOPs and a B-pyramid", arguments: UntimedCase.hevc)
    func hevcOpenGOP(_ testCase: UntimedCase) async throws { try await Self.run(testCase) }

    @Test("class 2: H.264 with open GOPs in AVI and as a raw stream", arguments: UntimedCase.h264OpenGOP)
    func h264OpenGOP(_ testCase: UntimedCase) async throws { try await Self.run(testCase) }

    @Test("class 3: MPEG-4 part 2 with packed B-frames in AVI", arguments: UntimedCase.packedMPEG4)
    func packedMPEG4(_ testCase: UntimedCase) async throws {
        try await Self.run(testCase) { path in
            // Packed: placeholders of a few bytes stand where B-frames were (an unpacked file has none).
            let sizes = try TimelineTests.tool("ffprobe", ["-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
                .split(separator: "\n").compactMap { Int($0) }
            try #require(sizes.filter { $0 <= 8 }.count >= 10, "\(path): libxvid packed the B-frames")
        }
    }

    @Test("class 4: Matroska whose first second has no block times: every path shows the CLI's frame")
    func untimedMatroskaStart() async throws { try await Self.run(UntimedCase.untimedStart) }

    @Test("class 5: a 45 s gap and times that repeat: strip --count 30 --workers 1 and every other path",
          arguments: UntimedCase.repeatedTimesAfterGap)
    func repeatedTimesAfterGap(_ testCase: UntimedCase) async throws { try await Self.run(testCase) }

    /// `info` on the complete files of classes 1 to 3: keyframe times in display order (the
    /// times the CLI shows the keyframes at, from the first frame), and no truncation warning.
    /// `scripts/frame-accuracy-sweep.sh` only (`FILMSTRIP_FRAME_MATRIX=full`): `full`, every
    /// strip extractor at 1 to 4 workers.
    @Test("the sweep: every untimed form, rate and worker count", .enabled(if: UntimedCase.sweepsEverything), arguments: UntimedCase.full)
    func sweep(_ testCase: UntimedCase) async throws { try await Self.run(testCase) }

    @Test("info: keyframes at their display times, and a complete AVI or raw stream is not \"data ends early\"",
          arguments: UntimedCase.hevc + UntimedCase.h264OpenGOP + UntimedCase.packedMPEG4)
    func infoKeyframesAndCompleteness(_ testCase: UntimedCase) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try testCase.make(in: folder)
        let probe = try VideoProbe(path: path)
        let cli = try testCase.referenceDecode(of: path, in: folder)
        #expect(!probe.dataEndsEarly, "\(testCase.name): complete, at \(probe.frameRate) fps, \(probe.frameCount) frames, \(probe.durationSeconds) s")
        #expect(probe.frameRate == testCase.source.frameRate, "\(testCase.name): \(probe.frameRate) fps")
        #expect(probe.frameCount == cli.markers.count, "\(testCase.name): \(probe.frameCount) frames, the CLI decodes \(cli.markers.count)")
        let info = try BoundedCLI.run(["info", path])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(!info.standardError.contains("data ends early") && !info.standardOutput.contains("ENDS EARLY"), "\(testCase.name): \(info.standardError)")
        // The rows print seconds with three decimals; keyframe times from the start time row.
        func row(_ name: String) -> [Double] {
            let line = info.standardOutput.split(separator: "\n").first { $0.hasPrefix(name + " ") } ?? ""
            return line.dropFirst(name.count).split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") }
        }
        let start = row("start time").first ?? .nan
        let listed = row("keyframe times").map { (($0 - start) * 1000).rounded() / 1000 }
        let shown = cli.keyframeTimes.prefix(12).map { ($0 * 1000).rounded() / 1000 }
        #expect(listed == Array(shown), "\(testCase.name): info lists keyframes at \(listed) s from the start, the CLI shows them at \(Array(shown))")
    }
}
