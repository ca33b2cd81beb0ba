import Filmstrip

/// Named sets of reference videos: `quick` for tests and CI, `standard` for the committed
/// baseline, `full` adds the seed's 4 min 4 s 1080p H.264 case and its GOP variants.
public enum ReferenceSuite: String, Sendable, Codable, CaseIterable {
    /// `quick` (tests and CI), `standard` (the committed baseline), `full` (standard plus the 4 min 1080p H.264 case
    /// and its GOP variants) and `formats` (every container and codec, CI-sized).
    case quick, standard, full, formats
    /// The trimming slider's sessions (`bench --suite interactive`): one short clip by default.
    case interactive
    /// Seek-bar sprites of a library (`bench --suite sprite`, `sprite-bench`): about 35 minutes of
    /// video in five codecs and three containers, GOPs of about 8 s as encoders make by default;
    /// small pictures keep generation to a few minutes.
    case sprite

    /// The reference videos of this suite, in the order they are generated and benchmarked.
    public var specs: [ReferenceVideoSpec] {
        switch self {
        case .quick: Self.quickSpecs
        case .standard: Self.standardSpecs
        case .full: Self.standardSpecs + Self.fullOnlySpecs
        case .formats: Self.formatSpecs
        case .interactive: Self.quickSpecs.filter { $0.id == "h264-360p-20s" }
        case .sprite: Self.spriteLibrarySpecs
        }
    }

    static let spriteLibrarySpecs: [ReferenceVideoSpec] = [
        .init(id: "lib-h264-360p-10m", codec: .h264, width: 640, height: 360, seconds: 600, keyframeInterval: 250),
        .init(id: "lib-h264-180p-5m-opengop", codec: .h264, container: .matroska, width: 320, height: 180, seconds: 300,
              keyframeInterval: 250, maxBFrames: 3, openGOP: true),
        .init(id: "lib-hevc-180p-5m", codec: .hevc, container: .matroska, width: 320, height: 180, seconds: 300, keyframeInterval: 250),
        .init(id: "lib-vp9-180p-5m", codec: .vp9, container: .webm, width: 320, height: 180, seconds: 300, keyframeInterval: 240),
        .init(id: "lib-av1-180p-5m", codec: .av1, container: .matroska, width: 320, height: 180, seconds: 300, keyframeInterval: 240),
        .init(id: "lib-mpeg4-360p-5m", codec: .mpeg4, container: .matroska, width: 640, height: 360, seconds: 300, keyframeInterval: 250),
    ]

    /// A two-video sprite library of 30 s each, to check `sprite-bench` end to end (`--smoke`).
    public static let spriteSmokeSpecs: [ReferenceVideoSpec] = [
        .init(id: "lib-h264-180p-30s", codec: .h264, width: 320, height: 180, seconds: 30, keyframeInterval: 250),
        .init(id: "lib-vp9-180p-30s", codec: .vp9, container: .webm, width: 320, height: 180, seconds: 30, keyframeInterval: 240),
    ]

    /// Frames of 25 fps video before a 33-bit 90 kHz clock wraps, less two seconds: a transport
    /// stream starting there wraps two seconds in.
    static let framesBeforeTimestampWrap = Int((Int64(1) << 33) / 90_000 - 2) * 25

    /// Every common container and codec beside MP4 and Matroska, CI-sized (320x180, 2–3 s, 25 fps):
    /// transport and program streams, AVI with B-frames, MOV with an edit list, FLV, raw H.264 and HEVC, Ogg, ASF,
    /// MJPEG, VP8, interlaced H.264, 10-bit HEVC and AV1, and full-range video. Also in the quick
    /// suite's tests (FormatConformanceTests).
    static let formatSpecs: [ReferenceVideoSpec] = {
        typealias Spec = ReferenceVideoSpec
        func spec(_ id: String, _ codec: Spec.Codec, _ container: Spec.Container, seconds: Int = 2, gop: Int = 25,
                  startOffsetFrames: Int = 0) -> Spec {
            Spec(id: id, codec: codec, container: container, width: 320, height: 180, framesPerSecond: 25, seconds: seconds,
                 keyframeInterval: gop, maxBFrames: 2, startOffsetFrames: startOffsetFrames).with()
        }
        return [
            spec("ts-h264", .h264, .mpegts, seconds: 3),
            spec("ts-hevc", .hevc, .mpegts, seconds: 3),
            spec("ts-mpeg2", .mpeg2, .mpegts, seconds: 3, gop: 12),
            spec("ts-h264-jump", .h264, .mpegts, seconds: 3).with(timestampJumpFrames: 250),
            spec("ts-h264-wrap", .h264, .mpegts, seconds: 3, startOffsetFrames: framesBeforeTimestampWrap),
            spec("m2ts-h264", .h264, .m2ts),
            spec("ps-mpeg2", .mpeg2, .mpegps, seconds: 3, gop: 12),
            spec("avi-h264", .h264, .avi),
            spec("avi-mpeg4", .mpeg4, .avi, gop: 12),
            // A first frame at 0.4 s: the MOV muxer writes an empty edit that delays it.
            spec("mov-h264-editlist", .h264, .mov, startOffsetFrames: 10),
            spec("flv-h264", .h264, .flv),
            // Elementary streams with B-frames: no timestamps at all, times come from the frame rate.
            spec("raw-h264", .h264, .h264Stream),
            spec("raw-hevc", .hevc, .hevcStream),
            spec("ogg-theora", .theora, .ogg),
            spec("wmv-wmv2", .wmv2, .asf, gop: 12),
            spec("avi-mjpeg", .mjpeg, .avi, gop: 1),
            spec("webm-vp8", .vp8, .webm),
            spec("ts-h264-tff", .h264, .mpegts).with(fieldOrder: .topFieldFirst),
            spec("mkv-h264-bff", .h264, .matroska).with(fieldOrder: .bottomFieldFirst),
            spec("mkv-hevc-10bit", .hevc, .matroska).with(bitDepth: 10),
            spec("mkv-av1-10bit", .av1, .matroska).with(bitDepth: 10),
            spec("mp4-h264-fullrange", .h264, .mp4).with(fullRange: true),
            spec("mp4-h264-bt709", .h264, .mp4).with(taggedBT709: true),
            spec("mkv-hevc-10bit-fullrange", .hevc, .matroska).with(bitDepth: 10, fullRange: true),
            // mkv-hevc-10bit's picture converted to HDR: tone-mapped, it must look like that video.
            spec("mkv-hevc-pq", .hevc, .matroska).with(bitDepth: 10, hdrTransfer: .pq),
            spec("mkv-hevc-hlg", .hevc, .matroska).with(bitDepth: 10, hdrTransfer: .hlg),
        ]
    }()

    /// Small, a few seconds each: every codec plus the awkward cases extractors must handle.
    static let quickSpecs: [ReferenceVideoSpec] = [
        .init(id: "h264-180p-3s", codec: .h264, width: 320, height: 180, seconds: 3, keyframeInterval: 30),
        .init(id: "hevc-180p-2s", codec: .hevc, width: 320, height: 180, seconds: 2, keyframeInterval: 24),
        .init(id: "vp9-180p-2s", codec: .vp9, container: .webm, width: 320, height: 180, seconds: 2, keyframeInterval: 24),
        .init(id: "av1-180p-2s", codec: .av1, container: .matroska, width: 320, height: 180, seconds: 2, keyframeInterval: 24),
        .init(id: "mpeg4-180p-2s", codec: .mpeg4, container: .matroska, width: 320, height: 180, seconds: 2, keyframeInterval: 15),
        .init(id: "h264-180p-2s-rot90", codec: .h264, width: 320, height: 180, seconds: 2, keyframeInterval: 30, rotationDegrees: 90),
        .init(id: "h264-180p-2s-rot270", codec: .h264, width: 320, height: 180, seconds: 2, keyframeInterval: 30, rotationDegrees: 270),
        .init(id: "h264-180p-2s-sar43", codec: .h264, width: 240, height: 180, seconds: 2, keyframeInterval: 30,
              sampleAspectRatio: Rational(4, 3)),
        .init(id: "h264-180p-2s-opengop-offset", codec: .h264, container: .matroska, width: 320, height: 180, seconds: 2,
              keyframeInterval: 20, maxBFrames: 3, openGOP: true, startOffsetFrames: 45),
        .init(id: "h264-180p-2s-vfr", codec: .h264, container: .matroska, width: 320, height: 180, seconds: 2,
              keyframeInterval: 30, variableFrameRate: true),
        // 600 distinct frames of 345 KB: a strategy that kept decoded frames per thumbnail would show in peak memory.
        .init(id: "h264-360p-20s", codec: .h264, width: 640, height: 360, seconds: 20, keyframeInterval: 60),
        // x264 needs even sizes for 4:2:0; VP9 takes odd ones.
        .init(id: "vp9-179p-2s-odd", codec: .vp9, container: .webm, width: 319, height: 179, seconds: 2, keyframeInterval: 30),
    ]

    /// H.264 at about 5 s, 60 s and 244 s, plus HEVC, VP9, AV1 and MPEG-4 part 2 at small size.
    static let standardSpecs: [ReferenceVideoSpec] = [
        .init(id: "h264-360p-5s", codec: .h264, width: 640, height: 360, seconds: 5, keyframeInterval: 60),
        .init(id: "h264-720p-60s", codec: .h264, width: 1280, height: 720, seconds: 60, keyframeInterval: 120),
        .init(id: "h264-360p-244s", codec: .h264, width: 640, height: 360, seconds: 244, keyframeInterval: 250),
        .init(id: "hevc-360p-5s", codec: .hevc, width: 640, height: 360, seconds: 5, keyframeInterval: 60),
        .init(id: "vp9-360p-5s", codec: .vp9, container: .webm, width: 640, height: 360, seconds: 5, keyframeInterval: 60),
        .init(id: "av1-360p-5s", codec: .av1, container: .matroska, width: 640, height: 360, seconds: 5, keyframeInterval: 60),
        .init(id: "mpeg4-360p-5s", codec: .mpeg4, container: .matroska, width: 640, height: 360, seconds: 5, keyframeInterval: 30),
    ]

    /// The seed's case (4 min 4 s, 1920x1080, 30 fps, H.264) with x264's default GOP, a short and a long GOP.
    static let fullOnlySpecs: [ReferenceVideoSpec] = [
        .init(id: "h264-1080p-244s", codec: .h264, width: 1920, height: 1080, seconds: 244, keyframeInterval: 250),
        .init(id: "h264-1080p-244s-gop30", codec: .h264, width: 1920, height: 1080, seconds: 244, keyframeInterval: 30),
        .init(id: "h264-1080p-244s-gop600-open", codec: .h264, width: 1920, height: 1080, seconds: 244,
              keyframeInterval: 600, maxBFrames: 3, openGOP: true),
    ]

    /// Every spec of every suite, by id.
    public static func spec(id: String) -> ReferenceVideoSpec? {
        ReferenceSuite.full.specs.first { $0.id == id } ?? quickSpecs.first { $0.id == id } ?? formatSpecs.first { $0.id == id }
            ?? spriteLibrarySpecs.first { $0.id == id } ?? spriteSmokeSpecs.first { $0.id == id }
    }
}
