import Filmstrip
import FilmstripFixtures
import Foundation
import Testing

/// One video of the frame-accuracy matrix: a reference video (every frame carries its index
/// as a marker) and what the ffmpeg CLI does to it afterwards, as people's files are cut.
struct FrameMatrixCase: Sendable, CustomTestStringConvertible {
    /// A change made by the ffmpeg CLI with stream copy, where the project's writer cannot make it.
    enum Edit: Sendable {
        case none
        /// `-ss S -c copy`: MP4 and MOV get an edit list whose pre-roll is decoded, not shown.
        case cut(seconds: Double)
        /// `-ss S -copyts -c copy`: the cut keeps its times, so the file starts S seconds in.
        case cutKeepingTimes(seconds: Double)
        /// `-output_ts_offset S -c copy`: every time moved S seconds on.
        case offset(seconds: Double)
        /// The MP4's edit list (and movie and track durations) cut to present the first half of the media.
        case presentFirstHalf
    }

    var spec: ReferenceVideoSpec
    var edit: Edit = .none

    var testDescription: String {
        let edited = switch edit {
        case .none: ""
        case .cut(let seconds): " cut at \(seconds) s"
        case .cutKeepingTimes(let seconds): " cut at \(seconds) s, times kept"
        case .offset(let seconds): " offset \(seconds) s"
        case .presentFirstHalf: " edit list presenting half"
        }
        return spec.id + edited
    }

    /// A small H.264 barcode video: `fps` (× 1000/1001 with `ntsc`), `gop` frames per GOP (open
    /// GOPs with `open`), up to `bFrames` B-frames, and a timestamp gap of `gapSeconds` at the middle frame.
    static func video(_ container: ReferenceVideoSpec.Container, fps: Int, ntsc: Bool = false, gop: Int, open: Bool = false,
                      bFrames: Int, seconds: Int, gapSeconds: Int = 0, edit: Edit = .none) -> FrameMatrixCase {
        let rate = ntsc ? "\(fps * 1000)-1001" : "\(fps)"
        let id = "matrix-\(container.fileExtension)-\(rate)fps-gop\(gop)\(open ? "open" : "")-b\(bFrames)\(gapSeconds > 0 ? "-gap\(gapSeconds)s" : "")"
        var spec = ReferenceVideoSpec(id: id, codec: .h264, container: container, width: 160, height: 90, framesPerSecond: fps,
                                      seconds: seconds, keyframeInterval: gop, maxBFrames: bFrames, openGOP: open)
            .with(timestampJumpFrames: gapSeconds * fps)
        spec.ntscRate = ntsc
        return FrameMatrixCase(spec: spec, edit: edit)
    }

    /// The matrix CI runs: every frame rate, GOP (1, 12, 250, open), B-frames (0, 3) and
    /// container (MP4, MKV, TS, MOV) at least twice, timestamp gaps in all four containers,
    /// and stream-copy cuts, kept times, offsets and a shortening edit list.
    static let ci: [FrameMatrixCase] = [
        video(.mp4, fps: 24, ntsc: true, gop: 12, bFrames: 3, seconds: 5),
        video(.matroska, fps: 25, gop: 250, bFrames: 3, seconds: 12),
        video(.mpegts, fps: 30, gop: 15, open: true, bFrames: 3, seconds: 4),
        video(.mov, fps: 60, gop: 1, bFrames: 0, seconds: 2),
        video(.mpegts, fps: 25, gop: 12, bFrames: 0, seconds: 4),
        video(.mp4, fps: 60, gop: 250, bFrames: 0, seconds: 5),
        video(.matroska, fps: 24, ntsc: true, gop: 12, open: true, bFrames: 3, seconds: 5),
        video(.mov, fps: 30, ntsc: true, gop: 12, bFrames: 3, seconds: 4),
        video(.mp4, fps: 30, gop: 12, bFrames: 3, seconds: 4, gapSeconds: 60),
        video(.matroska, fps: 30, ntsc: true, gop: 250, bFrames: 3, seconds: 4, gapSeconds: 20),
        video(.mpegts, fps: 25, gop: 12, bFrames: 3, seconds: 4, gapSeconds: 10),
        video(.mov, fps: 60, gop: 24, open: true, bFrames: 3, seconds: 2, gapSeconds: 30),
        // The full matrix's one class of wrong frames (2026-11-27): an open GOP whose last frame
        // the decoder marks damaged when decoding starts at its keyframe (25 fps, GOP 12, 3
        // B-frames: frame 99 of 100 in all four containers, with and without a gap).
        video(.mpegts, fps: 25, gop: 12, open: true, bFrames: 3, seconds: 4, gapSeconds: 30),
        video(.mp4, fps: 30, gop: 12, bFrames: 3, seconds: 4, edit: .cut(seconds: 1.3)),
        video(.mov, fps: 25, gop: 12, bFrames: 3, seconds: 4, edit: .cut(seconds: 1.5)),
        video(.matroska, fps: 25, gop: 12, bFrames: 3, seconds: 4, edit: .cutKeepingTimes(seconds: 1.3)),
        video(.matroska, fps: 24, ntsc: true, gop: 12, bFrames: 3, seconds: 4, edit: .offset(seconds: 10)),
        video(.mp4, fps: 25, gop: 12, bFrames: 3, seconds: 4, edit: .presentFirstHalf),
        video(.mpegts, fps: 30, gop: 12, bFrames: 3, seconds: 4, edit: .cut(seconds: 1.3)),
    ]

    /// Every frame rate × GOP × B-frames × container, each plain and with a gap, plus the CI
    /// matrix's cuts: `scripts/frame-accuracy-sweep.sh` (`FILMSTRIP_FRAME_MATRIX=full`).
    static let full: [FrameMatrixCase] = {
        var cases: [FrameMatrixCase] = []
        let containers: [ReferenceVideoSpec.Container] = [.mp4, .matroska, .mpegts, .mov]
        for (fps, ntsc) in [(24, true), (25, false), (30, false), (60, false)] {
            for (gop, open) in [(1, false), (12, false), (250, false), (12, true)] {
                for bFrames in [0, 3] where !(gop == 1 && open) {
                    for container in containers {
                        for gap in [0, 30] {
                            cases.append(video(container, fps: fps, ntsc: ntsc, gop: gop, open: open, bFrames: bFrames,
                                               seconds: gop == 250 ? 12 : 4, gapSeconds: gap))
                        }
                    }
                }
            }
        }
        return cases + ci.filter { if case .none = $0.edit { false } else { true } }
    }()

    /// CI's matrix; `full` for the whole cross product; `full:TEXT` for the cases of the
    /// cross product whose id contains TEXT (a rerun of one class, e.g. `full:gop12open-b3`).
    static var selected: [FrameMatrixCase] {
        let setting = ProcessInfo.processInfo.environment["FILMSTRIP_FRAME_MATRIX"] ?? ""
        if setting == "full" { return full }
        if setting.hasPrefix("full:") { return full.filter { $0.spec.id.contains(setting.dropFirst(5)) } }
        return ci
    }

    /// The video, edited as the case says, in `folder`.
    func make(in folder: URL) throws -> String {
        let original = try TestSupport.cache.ensure(spec).url.path
        let path = folder.appendingPathComponent("\(spec.id)-edited.\(spec.container.fileExtension)").path
        switch edit {
        case .none: return original
        case .cut(let seconds): _ = try TimelineTests.tool("ffmpeg", ["-ss", "\(seconds)", "-i", original, "-c", "copy", "-y", path])
        case .cutKeepingTimes(let seconds):
            _ = try TimelineTests.tool("ffmpeg", ["-ss", "\(seconds)", "-copyts", "-i", original, "-c", "copy", "-y", path])
        case .offset(let seconds): _ = try TimelineTests.tool("ffmpeg", ["-i", original, "-c", "copy", "-output_ts_offset", "\(seconds)", "-y", path])
        case .presentFirstHalf: try Data(Self.presentingFirstHalf(of: Data(contentsOf: URL(fileURLWithPath: original)))).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    /// The MP4 with its edit list's first segment, the movie's and the track's durations
    /// halved (version 0 boxes, as FFmpeg writes them for short files): players present the
    /// first half of the media, and the file is complete.
    static func presentingFirstHalf(of file: Data) throws -> [UInt8] {
        var bytes = [UInt8](file)
        // Offsets of the 32-bit duration after each box's type: mvhd and tkhd after version,
        // flags and two (tkhd: three) 32-bit fields; elst's first segment after version, flags and the count.
        for (box, offset) in [("mvhd", 16), ("tkhd", 20), ("elst", 8)] {
            let type = Array(box.utf8)
            guard let start = (0..<(bytes.count - 8)).first(where: { Array(bytes[$0..<($0 + 4)]) == type }) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            let at = start + 4 + offset
            let duration = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) } / 2
            for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: duration >> (24 - 8 * index)) }
        }
        return bytes
    }
}

/// `strip`'s extractors and every interactive strategy, pixel-checked over the matrix: each
/// thumbnail's marker must be the one on the frame the ffmpeg CLI shows at its time (ffprobe's
/// frame times, the CLI's decoded pixels), for a slot in every frame's display interval.
@Suite("Frame accuracy matrix", .enabled(if: FormatOracle.ffmpeg != nil, "needs the ffmpeg CLI (scripts/setup.sh)"))
struct FrameAccuracyMatrixTests {
    /// The CLI's view of a file: each frame's time from the first (seconds) and the index its marker shows.
    struct Reference {
        var times: [Double]
        var markers: [Int?]
        var start: Double

        init(path: String, width: Int, height: Int) throws {
            let times = try TimelineTests.decodedFrameTimes(path)
            let oracle = try FormatOracle(path: path, width: width, height: height, interlaced: false)
            #expect(times.count == oracle.frames.count, "\(path): ffprobe lists \(times.count) frames, the CLI decodes \(oracle.frames.count)")
            let markers = oracle.frames.map { FrameIndexMarker.read(from: Image(width: width, height: height, bytesPerRow: width * 4, pixels: $0)) }
            let order = times.indices.sorted { times[$0] < times[$1] }
            start = times.min() ?? 0
            self.times = order.map { times[$0] - (times.min() ?? 0) }
            self.markers = order.map { $0 < markers.count ? markers[$0] : nil }
        }

        /// One time inside each frame's display interval (its middle; a quarter frame into the last).
        func slotTimes(frameSeconds: Double) -> [Rational] {
            times.indices.map { index in
                let seconds = index + 1 < times.count ? (times[index] + times[index + 1]) / 2 : times[index] + frameSeconds / 4
                return Rational(Int64((seconds * 1_000_000).rounded()), 1_000_000)
            }
        }
    }

    /// Slots whose thumbnail shows another frame than the CLI at its time, described.
    static func wrongSlots(_ images: [(slot: Int, image: Image)], reference: Reference, runner: String) -> [String] {
        images.compactMap { slot, image in
            let shown = FrameIndexMarker.read(from: image)
            return shown == reference.markers[slot] && shown != nil
                ? nil : "\(runner) slot \(slot) at \(reference.times[slot]) s: frame \(shown.map(String.init) ?? "?"), the CLI shows \(reference.markers[slot].map(String.init) ?? "?")"
        }
    }

    @Test("every strip extractor and every interactive strategy shows the frame the CLI shows, in every slot",
          arguments: FrameMatrixCase.selected)
    func everySlotShowsTheCLIsFrame(_ matrixCase: FrameMatrixCase) async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try matrixCase.make(in: folder)
        let probe = try VideoProbe(path: path)
        #expect(!probe.dataEndsEarly, "\(path): a complete file")
        let size = ThumbnailSize.height(64)
        let options = ExtractionOptions(skipNonReferenceFrames: Pipeline.defaultSkipsNonReferenceFrames)
        var reference: Reference?
        var wrong: [String] = []
        var times: [Rational] = []
        for extractor in Extractors.all {
            if reference == nil {
                // The plan needs times; the first extractor's thumbnail gives the reference's size.
                let first = try ExtractionRequest(path: path, probe: probe, plan: SamplePlan(probe: probe, count: 1), size: size, options: options)
                let image = try #require(try await extractor.thumbnails(for: first).thumbnails.first?.image)
                reference = try Reference(path: path, width: image.width, height: image.height)
                #expect(abs(reference!.start - probe.startTime.seconds.doubleValue) < 0.001, "\(path): starts where ffprobe's first frame is")
                times = reference!.slotTimes(frameSeconds: (Rational(1) / probe.frameRate).doubleValue)
            }
            let request = try ExtractionRequest(path: path, probe: probe, plan: SamplePlan(probe: probe, times: times), size: size, options: options)
            let thumbnails = try await extractor.thumbnails(for: request).thumbnails
            wrong += Self.wrongSlots(thumbnails.map { ($0.slot, $0.image!) }, reference: reference!, runner: extractor.name)
        }
        for strategy in InteractiveStrategies.all {
            // Two decoders, as on CI's two cores, and no cache, so the second request decodes every slot.
            let generator = try ThumbnailGenerator(path: path, options: ThumbnailGeneratorOptions(strategy: strategy, decoders: 2, cacheBytes: 0))
            defer { generator.close() }
            // Every other slot first, then all: the second request's frames lie next to each
            // other and between the ones the pool's decoders, kept from the first request, walked past.
            let everyOther = times.enumerated().filter { $0.offset % 2 == 0 }
            for (slots, request) in [(everyOther.map(\.offset), everyOther.map(\.element)), (Array(times.indices), times)] {
                let results = try generator.thumbnails(for: ThumbnailRequest(times: request, box: .height(64)))
                var finals: [(slot: Int, image: Image)] = []
                for try await thumbnail in results where thumbnail.isFinal {
                    finals.append((slots[thumbnail.slot], thumbnail.image))
                    if !thumbnail.isExact { wrong.append("\(strategy.name) slot \(slots[thumbnail.slot]): not exact") }
                }
                #expect(finals.count == request.count, "\(strategy.name): one final image per slot")
                wrong += Self.wrongSlots(finals, reference: reference!, runner: strategy.name)
            }
        }
        #expect(wrong.isEmpty, "\(matrixCase.testDescription): \(wrong.count) wrong of \(times.count) slots × \(Extractors.all.count + 2 * InteractiveStrategies.all.count) runs, e.g. \(wrong.prefix(5))")
    }
}
