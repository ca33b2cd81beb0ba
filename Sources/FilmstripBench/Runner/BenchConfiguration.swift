import Filmstrip
import FilmstripResults

/// One timed unit of work: what a `bench-run` child process runs once.
///
/// Each kind of run carries only what it uses, typed: a pipeline's extractor and destination
/// come from the registries and its accuracy is an ``Accuracy``, parsed once where the matrix is
/// made (or where the child reads its JSON). Encoded as JSON on the child's command line, so the
/// parent and the child agree on the work without sharing memory; the JSON keeps the flat keys and
/// strings of the struct this enum replaced (``FlatRecord``), so an older `bench-run` child
/// (`bench --baseline-rev`) reads what this build writes, and the other way round.
package enum BenchConfiguration: Sendable, Hashable, Codable {
    /// Extract from a reference video, then compose: rows for `extract`, `compose` and `total`.
    case pipeline(PipelineRun)
    /// One composer on synthetic thumbnails, no video: one `compose` row.
    case composeSynthetic(SyntheticComposer, thumbnailCount: Int, thumbHeight: Int)
    /// `memcpyFloor` of the synthetic strip's bytes: the composition floor, one `compose` row.
    case memcpySynthetic(thumbnailCount: Int, thumbHeight: Int)
    /// A fixed copy of ``calibrationCopyBytes`` bytes: one `calibration` row.
    case calibrationCopy
    /// A fixed extraction of a quick reference video: one `calibration` row.
    case calibrationDecode(PipelineRun)
    /// A real external tool (``Peer``, never ``Peer/filmstrip``) doing the same job, timed as whole processes:
    /// one `peer` row.
    case peer(Peer, StripTarget)
    /// `filmstrip strip` (the peer ``Peer/filmstrip``) with this pipeline and its options, timed as a whole
    /// process: one `peer` row.
    case commandLine(PipelineRun)
    /// A scripted slider session (or a soak) on one `ThumbnailGenerator`: a row per step.
    case interactive(InteractiveRun)
    /// One video's seek-bar sprite by `filmstrip sprite` or an ffmpeg command, a whole process: one `sprite` row.
    case sprite(SpriteRun)

    /// An interactive strategy's generator on one video, with its pool and cache, driven by a script.
    package struct InteractiveRun: Sendable, Hashable {
        /// What the generator is driven by.
        package enum Script: Sendable, Hashable {
            /// ``InteractiveSessions/run(path:strategy:count:box:decoders:cacheBytes:dragInterval:)``: a row per ``Phase/sessionSteps``.
            case session
            /// ``InteractiveSessions/soak(path:count:strategy:decoders:cacheBytes:)`` with this many superseding requests: one `soak` row.
            case soak(requests: Int)
        }

        /// From `InteractiveStrategies`.
        package var strategy: any InteractiveStrategy {
            get { registered.strategy }
            set { registered.strategy = newValue }
        }
        private var registered: RegisteredStrategy
        package var script: Script
        /// The video, and the thumbnails of each open and zoom request.
        package var target: StripTarget
        /// Decoders in the generator's pool (nil: its default).
        package var decoders: Int?
        /// The generator's cache in bytes (0: off).
        package var cacheBytes: Int

        /// The generator's cache when it is on: 64 MiB, `thumbnails`' default.
        package static let defaultCacheBytes = ThumbnailGeneratorOptions().cacheBytes

        package init(strategy: any InteractiveStrategy, script: Script = .session, videoID: String, videoPath: String?,
                    thumbnailCount: Int = 20, thumbHeight: Int = 64, decoders: Int? = nil, cacheBytes: Int = defaultCacheBytes) {
            registered = RegisteredStrategy(strategy: strategy)
            self.script = script
            target = StripTarget(videoID: videoID, videoPath: videoPath, thumbnailCount: thumbnailCount, thumbHeight: thumbHeight)
            self.decoders = decoders
            self.cacheBytes = cacheBytes
        }

        /// The `options` column: `decoders`, `cache` (bytes, 0 off) and a soak's `requests`.
        package var options: RunOptions {
            var options: RunOptions = [:]
            options[.cache] = "\(cacheBytes)"
            if let decoders { options[.decoders] = "\(decoders)" }
            if case .soak(let requests) = script { options[.requests] = "\(requests)" }
            return options
        }

        /// The strategy compared and hashed by its registry name (strategies are stateless), so
        /// the run's equality and hash are the synthesized ones.
        private struct RegisteredStrategy: Sendable, Hashable {
            var strategy: any InteractiveStrategy
            static func == (lhs: Self, rhs: Self) -> Bool { lhs.strategy.name == rhs.strategy.name }
            func hash(into hasher: inout Hasher) { hasher.combine(strategy.name) }
        }
    }

    /// One contender making one video's sprite.
    package struct SpriteRun: Sendable, Hashable {
        package var contender: SpriteBench.Contender
        /// Reference video id.
        package var videoID: String
        /// Path of the video file (nil when the parent has none for the id: the run fails).
        package var videoPath: String?

    }

    /// An extractor and a destination on one reference video, with the request and the decoder settings.
    package struct PipelineRun: Sendable, Hashable {
        /// From ``Extractors``.
        package var extractor: any ThumbnailExtractor
        /// A registered composer's thumbnails, or the canvas.
        package var destination: StripDestination
        /// The video and the strip's thumbnails (the width follows the display aspect ratio).
        package var target: StripTarget
        /// Which frame each thumbnail may show.
        package var accuracy: Accuracy
        /// Decoder threads (0: FFmpeg picks one per core).
        package var decoderThreads: Int
        /// Let the decoder drop non-reference frames that are not shown.
        package var skipNonReference: Bool
        /// Skip the deblocking filter (same frames, different pixels: never compared with the others).
        package var skipLoopFilter: Bool
        /// Workers of the extractors that declare them (nil: one per core).
        package var workers: Int?

        package init(extractor: any ThumbnailExtractor, destination: StripDestination, videoID: String, videoPath: String?,
                    thumbnailCount: Int, thumbHeight: Int, accuracy: Accuracy = .exact, decoderThreads: Int = 1,
                    skipNonReference: Bool = false, skipLoopFilter: Bool = false, workers: Int? = nil) {
            self.extractor = extractor
            self.destination = destination
            target = StripTarget(videoID: videoID, videoPath: videoPath, thumbnailCount: thumbnailCount, thumbHeight: thumbHeight)
            self.accuracy = accuracy
            self.decoderThreads = decoderThreads
            self.skipNonReference = skipNonReference
            self.skipLoopFilter = skipLoopFilter
            self.workers = workers
        }

        /// `extractor+destination`, the `pipeline` column.
        package var name: String { "\(extractor.name)+\(destination.name)" }

        /// The extraction options recorded in the `options` column.
        package var extractionOptions: ExtractionOptions {
            ExtractionOptions(decoder: DecoderOptions(threads: decoderThreads, skipLoopFilter: skipLoopFilter),
                              skipNonReferenceFrames: skipNonReference, workers: workers)
        }

        /// Arguments of `filmstrip strip` for this run, writing into `folder`.
        func stripArguments(folder: String) -> [String] {
            ["strip", target.videoPath ?? "", "-o", "\(folder)/strip.png", "--count", "\(target.thumbnailCount)", "--height", "\(target.thumbHeight)",
             "--extractor", extractor.name, "--composer", destination.name, "--accuracy", accuracy.description,
             "--threads", "\(decoderThreads)"]
                + [skipNonReference ? "--skip-non-reference" : "--no-skip-non-reference"] + (skipLoopFilter ? ["--skip-loop-filter"] : [])
                + (workers.map { ["--workers", "\($0)"] } ?? [])
        }

        /// Equal when every setting is, the extractor compared by its registry name.
        package static func == (lhs: PipelineRun, rhs: PipelineRun) -> Bool {
            lhs.extractor.name == rhs.extractor.name && lhs.destination == rhs.destination && lhs.target == rhs.target
                && lhs.accuracy == rhs.accuracy && lhs.decoderThreads == rhs.decoderThreads
                && lhs.skipNonReference == rhs.skipNonReference && lhs.skipLoopFilter == rhs.skipLoopFilter && lhs.workers == rhs.workers
        }

        /// Hashes what `==` compares.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(extractor.name)
            hasher.combine(destination)
            hasher.combine(target)
            hasher.combine(accuracy)
            hasher.combine(decoderThreads)
            hasher.combine(skipNonReference)
            hasher.combine(skipLoopFilter)
            hasher.combine(workers)
        }
    }

    /// What a run asks of one reference video: a strip (or an interactive request) of so many
    /// thumbnails of one height. A peer tool is asked for just this.
    package struct StripTarget: Sendable, Hashable, CustomStringConvertible {
        /// Reference video id.
        package var videoID: String
        /// Path of the reference video file (nil when the parent has none for the id: the run fails).
        package var videoPath: String?
        /// Thumbnails in the strip.
        package var thumbnailCount: Int
        /// Thumbnail height in pixels.
        package var thumbHeight: Int

        /// `h264-180p-3s ×10 h64`, as progress lines and errors name it.
        package var description: String { "\(videoID) ×\(thumbnailCount) h\(thumbHeight)" }
    }

    /// A registered composer, compared by its registry name (composers are stateless).
    package struct SyntheticComposer: Sendable, Hashable {
        package var composer: any StripComposer
        package init(_ composer: any StripComposer) { self.composer = composer }
        package static func == (lhs: SyntheticComposer, rhs: SyntheticComposer) -> Bool { lhs.composer.name == rhs.composer.name }
        /// Hashes the name only, consistently with `==`.
        package func hash(into hasher: inout Hasher) { hasher.combine(composer.name) }
    }

    /// A peer tool on a reference video.
    package static func peer(_ peer: Peer, videoID: String, videoPath: String?, thumbnailCount: Int, thumbHeight: Int) -> BenchConfiguration {
        .peer(peer, StripTarget(videoID: videoID, videoPath: videoPath, thumbnailCount: thumbnailCount, thumbHeight: thumbHeight))
    }

    /// Bytes copied by the calibration copy: 64 MiB, far beyond any cache, so it measures memory bandwidth.
    package static let calibrationCopyBytes = 64 << 20
    /// Width of a synthetic thumbnail in pixels: 64 px high at 16:9.
    package static let syntheticThumbWidth = 114

    /// The pipeline of the kinds that run one (in this process or as `filmstrip strip`).
    package var pipelineRun: PipelineRun? {
        switch self {
        case .pipeline(let run), .calibrationDecode(let run), .commandLine(let run): run
        case .composeSynthetic, .memcpySynthetic, .calibrationCopy, .peer, .interactive, .sprite: nil
        }
    }

    /// The external tool of the peer kinds (``Peer/filmstrip`` for filmstrip's command line).
    package var peer: Peer? {
        switch self {
        case .peer(let peer, _): peer
        case .commandLine: .filmstrip
        default: nil
        }
    }

    /// What kind of work the run is: the rows' `kind` column, and (in the child's JSON, by its
    /// older names) what the child runs. filmstrip's own command line is a `whole-process`.
    package var kind: RunKind {
        switch self {
        case .pipeline: .pipeline
        case .composeSynthetic: .syntheticComposition
        case .memcpySynthetic: .memcpyFloor
        case .calibrationCopy: .calibrationCopy
        case .calibrationDecode: .calibrationDecode
        case .peer: .peer
        case .commandLine: .wholeProcess
        case .interactive: .interactive
        case .sprite: .sprite
        }
    }

    /// Reference video id; nil for the kinds without a video.
    package var videoID: String? { video?.id }
    /// Path of the reference video file; nil for the kinds without a video.
    package var videoPath: String? { video?.path }
    /// The reference video's id and path (nil when the parent has none for the id), for the kinds with a video.
    private var video: (id: String, path: String?)? {
        if case .sprite(let run) = self { return (run.videoID, run.videoPath) }
        return target.map { ($0.videoID, $0.videoPath) }
    }
    /// The video and thumbnails asked for, for the kinds that make a strip or a row of a reference video.
    package var target: StripTarget? {
        switch self {
        case .pipeline(let run), .calibrationDecode(let run), .commandLine(let run): run.target
        case .peer(_, let target): target
        case .interactive(let run): run.target
        case .composeSynthetic, .memcpySynthetic, .calibrationCopy, .sprite: nil
        }
    }
    /// Thumbnails in the strip.
    package var thumbnailCount: Int {
        switch self {
        case .composeSynthetic(_, let count, _), .memcpySynthetic(let count, _): count
        // A sprite's tiles follow from the video's length; the row's count is filled in from the run.
        default: target?.thumbnailCount ?? 1
        }
    }
    /// Thumbnail height in pixels.
    package var thumbHeight: Int {
        switch self {
        case .composeSynthetic(_, _, let height), .memcpySynthetic(_, let height): height
        default: target?.thumbHeight ?? 0
        }
    }
    /// The accuracy of the kinds that decode or compete with decoding; nil for the others.
    package var accuracy: Accuracy? {
        switch self {
        case .pipeline(let run), .calibrationDecode(let run), .commandLine(let run): run.accuracy
        case .peer(let peer, _): peer.accuracy
        // Every final image an interactive strategy delivers is the exact frame.
        case .interactive: .exact
        case .composeSynthetic, .memcpySynthetic, .calibrationCopy, .sprite: nil
        }
    }

    /// What ran, as the rows' `pipeline`, `extractor` and `composer` cells name it: the
    /// registries' names, the peer's, or the placeholders of the kinds without them.
    package var pipeline: PipelineName {
        switch self {
        case .pipeline(let run), .calibrationDecode(let run): .strategies(extractor: run.extractor.name, composer: run.destination.name)
        case .commandLine(let run): .commandLine(extractor: run.extractor.name, composer: run.destination.name)
        case .composeSynthetic(let composer, _, _): .strategies(extractor: PipelineName.syntheticExtractor, composer: composer.composer.name)
        case .memcpySynthetic: .strategies(extractor: PipelineName.syntheticExtractor, composer: PipelineName.memcpyComposer)
        case .calibrationCopy: .strategies(extractor: PipelineName.calibrationExtractor, composer: PipelineName.memcpyComposer)
        case .peer(let peer, _): .peer(peer)
        case .interactive(let run): .interactive(strategy: run.strategy.name)
        case .sprite(let run): .sprite(contender: run.contender.rawValue)
        }
    }

    /// `filmstrip strip` timed as a whole process with this pipeline and its options (self for the other kinds).
    package func asCommandLine() -> BenchConfiguration {
        guard case .pipeline(let run) = self else { return self }
        return .commandLine(run)
    }

    /// Options recorded in the `options` column: the extraction options for kinds that decode
    /// (and for filmstrip's own command line).
    package var extractionOptions: ExtractionOptions {
        pipelineRun?.extractionOptions ?? ExtractionOptions()
    }

    /// The `options` column: the extraction options of the kinds that decode a strip, an
    /// interactive run's pool, cache and soak.
    package var optionsColumn: RunOptions {
        if case .interactive(let run) = self { return run.options }
        return pipelineRun.map { RunOptions($0.extractionOptions) } ?? [:]
    }

    /// The phases a run of this configuration reports, in row order.
    package var phases: [Phase] {
        switch kind {
        case .pipeline: [.extract, .compose, .total]
        case .syntheticComposition, .memcpyFloor: [.compose]
        case .calibrationCopy, .calibrationDecode: [.calibration]
        case .peer, .wholeProcess: [.peer]
        case .interactive:
            if case .interactive(let run) = self, case .soak = run.script { [.soak] } else { Phase.sessionSteps }
        case .sprite: [.sprite]
        }
    }

    /// `true` when the strip must be byte-identical to every other exact run of the same
    /// request (same video, count, size), so its checksum is compared.
    package var isCheckedForAgreement: Bool {
        switch self {
        case .pipeline(let run): run.accuracy == .exact && !run.skipLoopFilter
        case .composeSynthetic: true
        case .memcpySynthetic, .calibrationCopy, .calibrationDecode, .peer, .commandLine, .interactive, .sprite: false
        }
    }

    /// One line for progress and error messages, e.g. `forward+simd h264-180p-3s ×10 h64 exact threads=1`.
    package var label: String {
        let accuracyText = accuracy?.description ?? ""
        func settings(_ run: PipelineRun) -> String {
            "threads=\(run.decoderThreads)" + (run.workers.map { " workers=\($0)" } ?? "")
                + (run.skipNonReference ? " skip-nonref" : "") + (run.skipLoopFilter ? " skip-loop-filter" : "")
        }
        return switch self {
        case .pipeline(let run), .calibrationDecode(let run):
            "\(pipeline) \(run.target) \(accuracyText) \(settings(run))"
                + (kind == .calibrationDecode ? " (calibration)" : "")
        case .commandLine(let run):
            "\(pipeline) \(run.target) \(accuracyText) (whole process) \(settings(run))"
        case .peer(_, let target):
            "\(pipeline) \(target) \(accuracyText) (whole process)"
        case .composeSynthetic, .memcpySynthetic:
            "\(pipeline.composer) synthetic ×\(thumbnailCount) \(Self.syntheticThumbWidth)x\(thumbHeight) compose only"
        case .calibrationCopy:
            "calibration copy of \(Self.calibrationCopyBytes >> 20) MiB"
        case .interactive(let run):
            "\(pipeline) \(run.target) " + run.options.spaced
        case .sprite(let run):
            "\(pipeline) \(run.videoID) (whole process)"
        }
    }

    package init(from decoder: any Swift.Decoder) throws {
        self = try FlatRecord(from: decoder).configuration()
    }

    package func encode(to encoder: any Swift.Encoder) throws {
        try FlatRecord(self).encode(to: encoder)
    }
}

/// The `bench-run` JSON: the flat record every build since the child existed reads and writes,
/// placeholders included (`synthetic`, `calibration`, `peer`, `memcpy`). Only this file builds or
/// reads it; the rest of the bench works on ``BenchConfiguration``'s cases.
struct FlatRecord: Codable, Hashable {
    /// The run's kind by the name the child's JSON has always used (``RunKind/childName``).
    var kind: String
    var extractor: String
    var composer: String
    var videoID: String?
    var videoPath: String?
    var thumbnailCount: Int
    var thumbHeight: Int
    var accuracy: String
    var decoderThreads: Int
    var skipNonReference: Bool
    var skipLoopFilter: Bool
    var workers: Int?
    var peer: Peer?
    /// Interactive runs: the pool size, the cache's bytes, and a soak's requests (nil: a session).
    var decoders: Int?
    var cacheBytes: Int?
    var soakRequests: Int?

    /// The thumbnail count keeps its old key `frameCount`, so a baseline build from before the
    /// rename (`bench --baseline-rev`) reads what this one writes.
    private enum CodingKeys: String, CodingKey {
        case kind, extractor, composer, videoID, videoPath, thumbnailCount = "frameCount", thumbHeight, accuracy
        case decoderThreads, skipNonReference, skipLoopFilter, workers, peer, decoders, cacheBytes, soakRequests
    }

}

// In an extension, so that the struct keeps its synthesized memberwise initializer (the
// optionals default to nil), which the cases below build their records with.
extension FlatRecord {
    init(_ configuration: BenchConfiguration) {
        let kind = configuration.kind.childName
        func pipeline(_ run: BenchConfiguration.PipelineRun, peer: Peer? = nil) -> FlatRecord {
            FlatRecord(kind: kind, extractor: run.extractor.name, composer: run.destination.name, videoID: run.target.videoID,
                       videoPath: run.target.videoPath, thumbnailCount: run.target.thumbnailCount, thumbHeight: run.target.thumbHeight,
                       accuracy: run.accuracy.description, decoderThreads: run.decoderThreads,
                       skipNonReference: run.skipNonReference, skipLoopFilter: run.skipLoopFilter, workers: run.workers, peer: peer)
        }
        func placeholder(_ extractor: String, _ composer: String, count: Int, height: Int) -> FlatRecord {
            FlatRecord(kind: kind, extractor: extractor, composer: composer, thumbnailCount: count, thumbHeight: height,
                       accuracy: Accuracy.exact.description, decoderThreads: 1, skipNonReference: false, skipLoopFilter: false)
        }
        switch configuration {
        case .pipeline(let run), .calibrationDecode(let run): self = pipeline(run)
        case .commandLine(let run): self = pipeline(run, peer: .filmstrip)
        case let .composeSynthetic(composer, count, height):
            self = placeholder(PipelineName.syntheticExtractor, composer.composer.name, count: count, height: height)
        case let .memcpySynthetic(count, height):
            self = placeholder(PipelineName.syntheticExtractor, PipelineName.memcpyComposer, count: count, height: height)
        case .calibrationCopy:
            self = placeholder(PipelineName.calibrationExtractor, PipelineName.memcpyComposer, count: 1, height: 0)
        case let .peer(peer, target):
            self = FlatRecord(kind: kind, extractor: PipelineName.peerExtractor, composer: peer.rawValue, videoID: target.videoID,
                       videoPath: target.videoPath, thumbnailCount: target.thumbnailCount, thumbHeight: target.thumbHeight,
                       accuracy: peer.accuracy.description, decoderThreads: 1, skipNonReference: false, skipLoopFilter: false, peer: peer)
        case .interactive(let run):
            var soakRequests: Int?
            if case .soak(let requests) = run.script { soakRequests = requests }
            self = FlatRecord(kind: kind, extractor: run.strategy.name, composer: PipelineName.generatorComposer,
                              videoID: run.target.videoID, videoPath: run.target.videoPath, thumbnailCount: run.target.thumbnailCount,
                              thumbHeight: run.target.thumbHeight, accuracy: Accuracy.exact.description, decoderThreads: 1,
                              skipNonReference: false, skipLoopFilter: false, decoders: run.decoders, cacheBytes: run.cacheBytes,
                              soakRequests: soakRequests)
        case .sprite(let run):
            self = FlatRecord(kind: kind, extractor: run.contender.rawValue, composer: PipelineName.sheetComposer, videoID: run.videoID,
                              videoPath: run.videoPath, thumbnailCount: 1, thumbHeight: 0, accuracy: "", decoderThreads: 1,
                              skipNonReference: false, skipLoopFilter: false)
        }
    }

    /// Why a record names no runnable configuration.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// The configuration this record names, its names looked up in the registries and its accuracy parsed.
    func configuration() throws -> BenchConfiguration {
        func pipelineRun() throws -> BenchConfiguration.PipelineRun {
            guard let extractor = Extractors.named(extractor) else { throw Invalid(description: "unknown extractor \(self.extractor)") }
            guard let destination = StripDestination.named(composer) else { throw Invalid(description: "unknown composer \(composer)") }
            guard let accuracy = Accuracy(parsing: accuracy) else { throw Invalid(description: "unknown accuracy \(self.accuracy)") }
            guard let videoID else { throw Invalid(description: "no video for \(extractor.name)+\(destination.name)") }
            return BenchConfiguration.PipelineRun(
                extractor: extractor, destination: destination, videoID: videoID, videoPath: videoPath,
                thumbnailCount: thumbnailCount, thumbHeight: thumbHeight, accuracy: accuracy, decoderThreads: decoderThreads,
                skipNonReference: skipNonReference, skipLoopFilter: skipLoopFilter, workers: workers)
        }
        guard let runKind = RunKind(childName: kind, peer: peer) else { throw Invalid(description: "unknown kind \(kind)") }
        switch runKind {
        case .pipeline: return .pipeline(try pipelineRun())
        case .calibrationDecode: return .calibrationDecode(try pipelineRun())
        case .wholeProcess: return .commandLine(try pipelineRun())
        case .syntheticComposition:
            guard let composer = Composers.named(composer) else { throw Invalid(description: "unknown composer \(composer)") }
            return .composeSynthetic(.init(composer), thumbnailCount: thumbnailCount, thumbHeight: thumbHeight)
        case .memcpyFloor: return .memcpySynthetic(thumbnailCount: thumbnailCount, thumbHeight: thumbHeight)
        case .calibrationCopy: return .calibrationCopy
        case .peer:
            guard let peer else { throw Invalid(description: "a peer run names no peer") }
            guard let videoID else { throw Invalid(description: "no video for \(peer.rawValue)") }
            return .peer(peer, .init(videoID: videoID, videoPath: videoPath, thumbnailCount: thumbnailCount, thumbHeight: thumbHeight))
        case .interactive:
            guard let strategy = InteractiveStrategies.named(extractor) else { throw Invalid(description: "unknown interactive strategy \(extractor)") }
            guard let videoID else { throw Invalid(description: "no video for \(strategy.name)") }
            return .interactive(.init(strategy: strategy, script: soakRequests.map { .soak(requests: $0) } ?? .session, videoID: videoID,
                                      videoPath: videoPath, thumbnailCount: thumbnailCount, thumbHeight: thumbHeight,
                                      decoders: decoders, cacheBytes: cacheBytes ?? BenchConfiguration.InteractiveRun.defaultCacheBytes))
        case .sprite:
            guard let contender = SpriteBench.Contender(rawValue: extractor) else { throw Invalid(description: "unknown sprite contender \(extractor)") }
            guard let videoID else { throw Invalid(description: "no video for \(contender.rawValue)") }
            return .sprite(.init(contender: contender, videoID: videoID, videoPath: videoPath))
        }
    }
}

extension RunKind {
    /// The kind's name in the child's JSON, as every build since the child existed wrote it
    /// (so `bench --baseline-rev`'s older children read it): a peer's process and filmstrip's own
    /// command line are both `peer`, told apart by the record's `peer`.
    var childName: String {
        switch self {
        case .pipeline: "pipeline"
        case .syntheticComposition: "composeSynthetic"
        case .memcpyFloor: "memcpySynthetic"
        case .calibrationCopy: "calibrationCopy"
        case .calibrationDecode: "calibrationDecode"
        case .peer, .wholeProcess: "peer"
        case .interactive: "interactive"
        case .sprite: "sprite"
        }
    }

    /// The kind a child's JSON names (nil for a name no build wrote).
    init?(childName: String, peer: Peer?) {
        if childName == "peer" {
            self = peer == .filmstrip ? .wholeProcess : .peer
            return
        }
        guard let kind = RunKind.allCases.first(where: { $0 != .peer && $0 != .wholeProcess && $0.childName == childName }) else { return nil }
        self = kind
    }
}
