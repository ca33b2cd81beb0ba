/// Settings every extractor takes; the benchmark records them with each row.
public struct ExtractionOptions: Hashable, Sendable, Codable {
    /// Decoder threads and loop-filter skipping, passed to every FFmpeg decoder the extractor opens.
    public var decoder: DecoderOptions
    /// Let the decoder drop non-reference frames (typically B-frames) that are not targets.
    public var skipNonReferenceFrames: Bool
    /// In `keyframe` accuracy, send only keyframe packets to the decoder.
    public var keyframeOnlyDecoding: Bool
    /// The swscale filter that scales decoded frames to thumbnail size.
    public var filter: ScalingFilter
    /// Parallel workers for the extractors that split the plan (nil: one per core).
    public var workers: Int?
    /// Extractors that split the plan deal each worker its share before decoding instead of
    /// letting workers take parts from a shared queue as they finish, so what each thread
    /// decodes depends on the plan alone, not on the scheduling. For instruction counting under
    /// valgrind, which runs one thread at a time (one worker could drain a queue before another
    /// starts): the span (busiest thread) is then a property of the code. Off by default: on a
    /// real machine a worker that falls behind keeps its share. Not recorded (``fields``) nor
    /// encoded: it changes who decodes what, not what is decoded.
    public var fixedWorkerShares = false

    private enum CodingKeys: String, CodingKey {
        case decoder, skipNonReferenceFrames, keyframeOnlyDecoding, filter, workers
    }

    /// Options whose defaults decode every frame on one codec thread, send only keyframes in keyframe accuracy, scale
    /// by area and use one worker per core (the tool also skips non-reference frames,
    /// `Pipeline.defaultSkipsNonReferenceFrames`).
    public init(decoder: DecoderOptions = DecoderOptions(), skipNonReferenceFrames: Bool = false,
                keyframeOnlyDecoding: Bool = true, filter: ScalingFilter = .area, workers: Int? = nil) {
        self.decoder = decoder
        self.skipNonReferenceFrames = skipNonReferenceFrames
        self.keyframeOnlyDecoding = keyframeOnlyDecoding
        self.filter = filter
        self.workers = workers
    }

    /// The options as named values, in a fixed order: what CSV rows and manifests record.
    public var fields: KeyValuePairs<String, String> {
        ["threads": "\(decoder.threads)", "skip-nonref": "\(skipNonReferenceFrames ? 1 : 0)",
         "keyframe-only": "\(keyframeOnlyDecoding ? 1 : 0)", "skip-loop-filter": "\(decoder.skipLoopFilter ? 1 : 0)",
         "filter": filter.rawValue, "workers": workers.map(String.init) ?? "auto"]
    }

    /// Compact `key=value;…` form of ``fields``.
    public var summary: String { fields.map { "\($0.key)=\($0.value)" }.joined(separator: ";") }
}

/// Everything an extractor needs: the file, its probe, the resolved plan, the size and options.
public struct ExtractionRequest: Sendable {
    /// Path of the video file to decode.
    public let path: String
    /// The video's probe, made once and shared by every worker (no worker probes again).
    public let probe: VideoProbe
    /// The frames to show, one target per thumbnail slot.
    public let plan: SamplePlan
    /// The thumbnails' height or width in pixels; the other side follows the display aspect ratio.
    public let size: ThumbnailSize
    /// Decoder, scaling and worker settings.
    public let options: ExtractionOptions
    /// When set, thumbnails are scaled straight into this strip and delivered without pixels.
    public private(set) var canvas: StripCanvas?
    /// The largest picture and the deadline every decoder opened for the request is held to
    /// (pass the probe's started limits so that one deadline covers the probe and the decoding).
    public let limits: InputLimits

    /// A request for the thumbnails of `plan` in `path`, checked before any decoding.
    public init(path: String, probe: VideoProbe, plan: SamplePlan, size: ThumbnailSize = .default,
                options: ExtractionOptions = ExtractionOptions(), canvas: StripCanvas? = nil,
                limits: InputLimits = InputLimits()) throws(PlanError) {
        switch size {
        case .height(let value), .width(let value): guard value > 0 else { throw .sizeNotPositive(size) }
        }
        self.path = path
        self.probe = probe
        self.plan = plan
        self.size = size
        self.options = options
        self.canvas = canvas
        self.limits = limits.started()
    }

    /// The same request with other options.
    public func with(options: ExtractionOptions) throws(PlanError) -> ExtractionRequest {
        try ExtractionRequest(path: path, probe: probe, plan: plan, size: size, options: options, canvas: canvas, limits: limits)
    }

    /// The same request, scaling into `canvas`.
    public func scaling(into canvas: StripCanvas) -> ExtractionRequest {
        // A copy with the canvas set: the initialiser's checks (the size) were passed already.
        var request = self
        request.canvas = canvas
        return request
    }

    /// Upright thumbnail size in pixels (sample aspect ratio and rotation applied).
    public var thumbnailPixels: (width: Int, height: Int) { size.pixels(forDisplayAspectRatio: probe.displayAspectRatio) }
}

/// What an extractor's cost depends on beyond the common options, so the benchmark can sweep
/// it without knowing the extractor by name.
public enum ExtractorSetting: Sendable, Hashable {
    /// `ExtractionOptions.workers`: it splits the plan over parallel workers.
    case workers
    /// One decoder reads the whole plan, so the codec's own threads are its parallelism.
    case codecThreads
    /// It seeks before every thumbnail: its cost grows with the count, not the video.
    case seeksPerThumbnail
}

/// What an extractor stands for when strategies are compared, so reports can pick "the
/// concurrent one" and "the sequential reference" without knowing them by name.
public enum ExtractorRole: String, Sendable, Hashable, CaseIterable {
    /// The plain one-decoder walk every other strategy is checked and scaled against.
    case sequentialReference = "sequential-reference"
    /// Splits the plan over parallel workers: its speed-up over the reference is the machine's scaling.
    case concurrent
    /// Any other strategy.
    case alternative
}

/// A way to turn a plan into thumbnails. Conformers are one file each, listed in `Extractors.all`.
public protocol ThumbnailExtractor: Sendable {
    /// Registry key, used by `--extractor` and in CSV rows.
    var name: String { get }
    /// One line for `--help`.
    var summary: String { get }
    /// What its cost depends on (default: nothing beyond the common options).
    var settings: Set<ExtractorSetting> { get }
    /// What it stands for in comparisons (default: ``ExtractorRole/alternative``).
    var role: ExtractorRole { get }
    /// Decodes the plan's frames, hands each thumbnail to `delivery` (which puts them in plan
    /// order) and returns the decoding work it did. Stops promptly with `CancellationError`
    /// when the task is cancelled.
    func extract(_ request: ExtractionRequest, into delivery: ThumbnailDelivery) async throws -> DecodeCounters
    /// This extractor for one video of a batch sharing `budget`'s cores: one that can add
    /// workers part way takes the cores the batch leaves idle (default: itself, unchanged).
    func sharing(_ budget: CoreBudget) -> any ThumbnailExtractor
}

extension ThumbnailExtractor {
    public var settings: Set<ExtractorSetting> { [] }
    public var role: ExtractorRole { .alternative }
    public func sharing(_ budget: CoreBudget) -> any ThumbnailExtractor { self }
}

/// The registry: the CLI, the tests and the harness enumerate this one list.
public enum Extractors {
    /// Every extractor, default-configured, the reference (`sequential`) first.
    public static let all: [any ThumbnailExtractor] = [
        SequentialExtractor(), ForwardExtractor(), TaskGroupExtractor(), ScanExtractor(),
    ]

    /// The extractor the benchmark pairs with every composer: one decoder, no seeking it can
    /// avoid, so the composers are compared on the same frames at a steady cost.
    public static var composerSweepPartner: any ThumbnailExtractor { ForwardExtractor() }

    /// The extractor every other is compared with (``ExtractorRole/sequentialReference``).
    public static var sequentialReference: any ThumbnailExtractor { all.first { $0.role == .sequentialReference }! }

    /// The role of the extractor registered as `name` (as results files record it), or nil for a name
    /// this build does not know.
    public static func role(ofNamed name: String) -> ExtractorRole? { named(name)?.role }

    /// The extractor registered as `name` (as `--extractor` spells it), or nil.
    public static func named(_ name: String) -> (any ThumbnailExtractor)? { all.first { $0.name == name } }
}
