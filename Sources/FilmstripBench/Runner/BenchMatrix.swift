import Filmstrip

/// What a benchmark run measures, before it is expanded into configurations.
///
/// Not every extractor is paired with every composer on every video: that product
/// grows fast and mostly measures the same thing twice. Instead
/// - the **extractor sweep** runs every extractor with one composer (``sweepComposer``)
///   over every video × count × height × accuracy × decoder-thread setting;
/// - the **composer sweep** runs every other composer with one extractor
///   (``sweepExtractor``) on the first video, height, accuracy and thread setting, at the
///   largest count;
/// - every composer (except `fused`, which has no separate composition) is also timed on
///   ``syntheticCount`` synthetic thumbnails beside `memcpyFloor`, without a video;
/// - two **calibration** workloads (a 64 MiB copy and a fixed decode of
///   ``calibrationVideoID``) let runs on different machines be compared as ratios.
public struct BenchMatrix: Sendable, Hashable {
    public var extractors: [String]
    public var composers: [String]
    public var videoIDs: [String]
    /// Thumbnails per strip.
    public var counts: [Int]
    /// Thumbnail heights in pixels.
    public var heights: [Int]
    /// `Accuracy.description` values.
    public var accuracies: [String]
    /// Decoder threads (0: one per core, FFmpeg's choice).
    public var decoderThreads: [Int]
    /// Timed runs of every configuration.
    public var repetitions: Int
    /// Untimed runs of every configuration before the timed ones.
    public var warmup: Int
    /// Seconds one run may take before its child is killed and the configuration dropped.
    public var timeLimitSeconds: Double

    public static let syntheticCount = 500
    public static let syntheticHeight = 64
    public static let calibrationVideoID = "h264-180p-3s"
    /// Every frame of the 3 s, 30 fps calibration video.
    public static let calibrationCount = 90

    public init(extractors: [String], composers: [String], videoIDs: [String], counts: [Int], heights: [Int],
                accuracies: [String], decoderThreads: [Int], repetitions: Int, warmup: Int, timeLimitSeconds: Double) {
        self.extractors = extractors
        self.composers = composers
        self.videoIDs = videoIDs
        self.counts = counts
        self.heights = heights
        self.accuracies = accuracies
        self.decoderThreads = decoderThreads
        self.repetitions = repetitions
        self.warmup = warmup
        self.timeLimitSeconds = timeLimitSeconds
    }

    /// The default matrix of `suite`: `quick` finishes in well under two minutes on a
    /// 2-core machine in release mode, `standard` in under ten, `full` takes long.
    /// Six repetitions because fewer give no 95 % order-statistic interval of the median
    /// (the summary flags `few_samples`) and make the regression gate warn.
    /// `standard` skips the warm-up: every run is a fresh process anyway, and the
    /// reference files are in the page cache from being probed just before.
    public static func defaults(for suite: ReferenceSuite) -> BenchMatrix {
        let extractors = Extractors.all.map(\.name), composers = Composers.names
        switch suite {
        case .quick:
            return BenchMatrix(extractors: extractors, composers: composers, videoIDs: [calibrationVideoID, "hevc-180p-2s", "vp9-180p-2s"],
                               counts: [10, 50], heights: [64], accuracies: ["exact"], decoderThreads: [1],
                               repetitions: 6, warmup: 1, timeLimitSeconds: 60)
        case .standard:
            return BenchMatrix(extractors: extractors, composers: composers,
                               videoIDs: ["h264-360p-5s", "h264-720p-60s", "h264-360p-244s", "hevc-360p-5s",
                                          "vp9-360p-5s", "av1-360p-5s", "mpeg4-360p-5s"],
                               counts: [10, 100], heights: [64], accuracies: ["exact"], decoderThreads: [1],
                               repetitions: 6, warmup: 0, timeLimitSeconds: 120)
        case .full:
            return BenchMatrix(extractors: extractors, composers: composers, videoIDs: ReferenceSuite.full.specs.map(\.id),
                               counts: [10, 100, 500], heights: [64, 128], accuracies: ["exact", "keyframe"],
                               decoderThreads: [1, 0], repetitions: 6, warmup: 1, timeLimitSeconds: 900)
        }
    }

    public var sweepComposer: String { composers.contains("rowcopy") ? "rowcopy" : composers[0] }
    public var sweepExtractor: String { extractors.contains("forward") ? "forward" : extractors[0] }

    /// Every reference video the configurations read, calibration video included.
    public var requiredVideoIDs: [String] {
        videoIDs + (videoIDs.contains(Self.calibrationVideoID) ? [] : [Self.calibrationVideoID])
    }

    /// The configurations, in a fixed order that the session rotates per repetition.
    /// - Parameter videoPaths: file of every id in ``requiredVideoIDs``.
    public func configurations(videoPaths: [String: String]) -> [BenchConfiguration] {
        var result: [BenchConfiguration] = []
        for videoID in videoIDs {
            for count in counts {
                for height in heights {
                    for accuracy in accuracies {
                        for threads in decoderThreads {
                            for extractor in extractors {
                                result.append(BenchConfiguration(
                                    kind: .pipeline, extractor: extractor, composer: sweepComposer, videoID: videoID,
                                    videoPath: videoPaths[videoID], frameCount: count, thumbHeight: height,
                                    accuracy: accuracy, decoderThreads: threads))
                            }
                        }
                    }
                }
            }
        }
        for composer in composers where composer != sweepComposer {
            result.append(BenchConfiguration(
                kind: .pipeline, extractor: sweepExtractor, composer: composer, videoID: videoIDs[0],
                videoPath: videoPaths[videoIDs[0]], frameCount: counts.max()!, thumbHeight: heights[0],
                accuracy: accuracies[0], decoderThreads: decoderThreads[0]))
        }
        for composer in composers where composer != FusedComposer().name {
            result.append(BenchConfiguration(kind: .composeSynthetic, extractor: "synthetic", composer: composer,
                                             frameCount: Self.syntheticCount, thumbHeight: Self.syntheticHeight))
        }
        result.append(BenchConfiguration(kind: .memcpySynthetic, extractor: "synthetic", composer: "memcpy",
                                         frameCount: Self.syntheticCount, thumbHeight: Self.syntheticHeight))
        result.append(BenchConfiguration(kind: .calibrationCopy, extractor: "calibration", composer: "memcpy",
                                         frameCount: 1, thumbHeight: 0))
        result.append(BenchConfiguration(
            kind: .calibrationDecode, extractor: "forward", composer: "rowcopy", videoID: Self.calibrationVideoID,
            videoPath: videoPaths[Self.calibrationVideoID], frameCount: Self.calibrationCount, thumbHeight: 64))
        return result
    }
}
