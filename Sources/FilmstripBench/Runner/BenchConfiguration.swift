import Filmstrip

/// One timed unit of work: what a `bench-run` child process runs once.
///
/// Encoded as JSON on the child's command line, so the parent and the child
/// agree on the work without sharing memory.
public struct BenchConfiguration: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Extract from a reference video, then compose: rows for `extract`, `compose` and `total`.
        case pipeline
        /// One composer on synthetic thumbnails, no video: one `compose` row.
        case composeSynthetic
        /// `memcpyFloor` of the synthetic strip's bytes: the composition floor, one `compose` row.
        case memcpySynthetic
        /// A fixed copy of ``calibrationCopyBytes`` bytes: one `calibration` row.
        case calibrationCopy
        /// A fixed extraction of a quick reference video: one `calibration` row.
        case calibrationDecode
        /// A real external tool (``Peer``) doing the same job, timed as whole processes: one `peer` row.
        case peer
    }

    public var kind: Kind
    /// Extractor registry name; `synthetic` or `calibration` for the kinds without a video.
    public var extractor: String
    /// Composer registry name, or `memcpy`.
    public var composer: String
    /// Reference video id; nil for the kinds without a video.
    public var videoID: String?
    /// Path of the reference video file; nil for the kinds without a video.
    public var videoPath: String?
    /// Thumbnails in the strip.
    public var thumbnailCount: Int
    /// Thumbnail height in pixels (the width follows the display aspect ratio).
    public var thumbHeight: Int
    /// `Accuracy.description`, e.g. `exact`.
    public var accuracy: String
    /// Decoder threads (0: FFmpeg picks one per core).
    public var decoderThreads: Int
    /// Let the decoder drop non-reference frames that are not shown.
    public var skipNonReference: Bool
    /// Skip the deblocking filter (same frames, different pixels: never compared with the others).
    public var skipLoopFilter: Bool
    /// Workers of the `taskgroup` extractor (nil: one per core).
    public var workers: Int?
    /// The external tool of a `.peer` configuration.
    public var peer: Peer?

    /// The `bench-run` JSON keys: the thumbnail count keeps its old key `frameCount`, so a
    /// baseline build from before the rename (`bench --baseline-rev`) reads what this one writes.
    private enum CodingKeys: String, CodingKey {
        case kind, extractor, composer, videoID, videoPath, thumbnailCount = "frameCount", thumbHeight, accuracy
        case decoderThreads, skipNonReference, skipLoopFilter, workers, peer
    }

    public init(kind: Kind, extractor: String, composer: String, videoID: String? = nil, videoPath: String? = nil,
                thumbnailCount: Int, thumbHeight: Int, accuracy: String = "exact", decoderThreads: Int = 1,
                skipNonReference: Bool = false, skipLoopFilter: Bool = false, workers: Int? = nil, peer: Peer? = nil) {
        self.kind = kind
        self.extractor = extractor
        self.composer = composer
        self.videoID = videoID
        self.videoPath = videoPath
        self.thumbnailCount = thumbnailCount
        self.thumbHeight = thumbHeight
        self.accuracy = accuracy
        self.decoderThreads = decoderThreads
        self.skipNonReference = skipNonReference
        self.skipLoopFilter = skipLoopFilter
        self.workers = workers
        self.peer = peer
    }

    /// A peer tool on a reference video.
    public static func peer(_ peer: Peer, videoID: String, videoPath: String?, thumbnailCount: Int, thumbHeight: Int) -> BenchConfiguration {
        BenchConfiguration(kind: .peer, extractor: "peer", composer: peer.rawValue, videoID: videoID, videoPath: videoPath,
                           thumbnailCount: thumbnailCount, thumbHeight: thumbHeight, accuracy: peer.accuracy, peer: peer)
    }

    /// Bytes copied by the calibration copy: 64 MiB, far beyond any cache, so it measures memory bandwidth.
    public static let calibrationCopyBytes = 64 << 20
    /// Width of a synthetic thumbnail in pixels: 64 px high at 16:9.
    public static let syntheticThumbWidth = 114

    public var pipeline: String {
        switch peer {
        case .filmstrip: "cli:\(extractor)+\(composer)"
        case let other?: other.rawValue
        case nil: "\(extractor)+\(composer)"
        }
    }

    /// `filmstrip strip` timed as a whole process with this pipeline and its options.
    public func asCommandLine() -> BenchConfiguration {
        var copy = self
        copy.kind = .peer
        copy.peer = .filmstrip
        return copy
    }

    /// Arguments of `filmstrip strip` for this configuration, writing into `folder`.
    func stripArguments(folder: String) -> [String] {
        ["strip", videoPath ?? "", "-o", "\(folder)/strip.png", "--count", "\(thumbnailCount)", "--height", "\(thumbHeight)",
         "--extractor", extractor, "--composer", composer, "--accuracy", accuracy, "--threads", "\(decoderThreads)"]
            + [skipNonReference ? "--skip-non-reference" : "--no-skip-non-reference"] + (skipLoopFilter ? ["--skip-loop-filter"] : [])
            + (workers.map { ["--workers", "\($0)"] } ?? [])
    }

    /// Options recorded in the `options` column: the extraction options for kinds that decode
    /// (and for filmstrip's own command line).
    public var extractionOptions: ExtractionOptions {
        ExtractionOptions(decoder: DecoderOptions(threads: decoderThreads, skipLoopFilter: skipLoopFilter),
                          skipNonReferenceFrames: skipNonReference, workers: workers)
    }

    /// The phases a run of this configuration reports, in row order.
    public var phases: [Phase] {
        switch kind {
        case .pipeline: [.extract, .compose, .total]
        case .composeSynthetic, .memcpySynthetic: [.compose]
        case .calibrationCopy, .calibrationDecode: [.calibration]
        case .peer: [.peer]
        }
    }

    /// `true` when the strip must be byte-identical to every other exact run of the same
    /// request (same video, count, size), so its checksum is compared.
    public var isCheckedForAgreement: Bool {
        switch kind {
        case .pipeline: accuracy == Accuracy.exact.description && !skipLoopFilter
        case .composeSynthetic: true
        case .memcpySynthetic, .calibrationCopy, .calibrationDecode, .peer: false
        }
    }

    /// One line for progress and error messages, e.g. `forward+simd h264-180p-3s ×10 h64 exact threads=1`.
    public var label: String {
        switch kind {
        case .pipeline, .calibrationDecode:
            "\(pipeline) \(videoID ?? "-") ×\(thumbnailCount) h\(thumbHeight) \(accuracy) threads=\(decoderThreads)"
                + (workers.map { " workers=\($0)" } ?? "") + (skipNonReference ? " skip-nonref" : "")
                + (skipLoopFilter ? " skip-loop-filter" : "") + (kind == .calibrationDecode ? " (calibration)" : "")
        case .peer:
            "\(pipeline) \(videoID ?? "-") ×\(thumbnailCount) h\(thumbHeight) \(accuracy) (whole process)"
                + (peer == .filmstrip ? " threads=\(decoderThreads)" + (workers.map { " workers=\($0)" } ?? "")
                    + (skipNonReference ? " skip-nonref" : "") + (skipLoopFilter ? " skip-loop-filter" : "") : "")
        case .composeSynthetic, .memcpySynthetic:
            "\(composer) synthetic ×\(thumbnailCount) \(Self.syntheticThumbWidth)x\(thumbHeight) compose only"
        case .calibrationCopy:
            "calibration copy of \(Self.calibrationCopyBytes >> 20) MiB"
        }
    }
}
