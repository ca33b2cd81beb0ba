/// Named sets of reference videos: `quick` for tests and CI, `standard` for the committed
/// baseline, `full` adds the seed's 4 min 4 s 1080p H.264 case and its GOP variants.
public enum ReferenceSuite: String, Sendable, Codable, CaseIterable {
    case quick, standard, full

    public var specs: [ReferenceVideoSpec] {
        switch self {
        case .quick: Self.quickSpecs
        case .standard: Self.standardSpecs
        case .full: Self.standardSpecs + Self.fullOnlySpecs
        }
    }

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
        ReferenceSuite.full.specs.first { $0.id == id } ?? quickSpecs.first { $0.id == id }
    }
}
