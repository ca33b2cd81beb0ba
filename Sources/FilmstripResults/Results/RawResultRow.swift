import Foundation

/// One timed repetition of one configuration: a row of the raw results file.
package struct RawResultRow: ResultRecord, Hashable {
    package var run: RunContext
    /// When the repetition finished; written in whole seconds, UTC.
    package var timestamp: Date
    /// What ran: the `pipeline`, `extractor` and `composer` cells.
    package var pipeline: PipelineName
    package var options: RunOptions
    package var video: VideoDescription
    /// Thumbnails requested.
    package var thumbnailCount: Int
    /// Thumbnail width in pixels.
    package var thumbWidth: Int
    /// Thumbnail height in pixels.
    package var thumbHeight: Int
    package var accuracy: RowAccuracy
    package var phase: Phase
    /// 0-based index of the timed repetition.
    package var repetition: Int
    /// Wall-clock seconds; `nil` unless ``status`` is `ok`.
    package var wallSeconds: Double?
    /// User CPU seconds, all threads.
    package var cpuUserSeconds: Double?
    /// System CPU seconds, all threads.
    package var cpuSysSeconds: Double?
    /// Peak resident set size in bytes.
    package var peakRSSBytes: Int?
    package var framesDecoded: Int?
    /// `thumbnailCount / wallSeconds`, thumbnails per second.
    package var thumbnailsPerSecond: Double?
    /// Hash of the strip's pixels.
    package var checksum: String
    /// Largest distance in frames between shown and planned frame.
    package var maxFrameError: Int?
    /// `true` when ``checksum`` differs from the first of the same exact request, or a wrong frame was shown.
    package var disagreement: Bool
    package var status: RunStatus
    /// Error text or skip reason; empty when ``status`` is `ok`.
    package var error: String
    /// Which executable ran the row in a two-build run; nil when one executable ran everything.
    package var build: BuildRole?
    /// Commit the executable was built from (``BuildInfo``); empty in older files.
    package var executableCommit: String
    /// Work counters: the same configuration must give the same counts on any machine.
    package var packetsRead: Int?
    package var bytesRead: Int?
    package var seeks: Int?
    package var heapAllocations: Int?
    package var videoBytes: Int?
    /// The phase's bound (``PhaseBound``): nil where it was not measured.
    package var bound: PhaseBound?
    /// Instructions of the phase under callgrind; nil in time runs.
    package var instructions: Int?
    /// The run's instruction profile, relative to the results file's folder; empty in time runs.
    package var profile: String = ""
    /// Instructions of the phase's busiest thread under callgrind (``InstructionSpan``); nil where not measured.
    package var spanInstructions: Int?
    /// What kind of work the row timed (the `kind` column).
    package var kind: RunKind
    /// Interactive rows: latencies, wasted frames, what a soak left behind; nil elsewhere.
    package var interactive: InteractiveMeasures?
    /// Sprite rows: the tiles' distance from their cues; nil elsewhere.
    package var spriteTiles: SpriteTileCheck?
    /// The phase's waiting by kind (in-process phases of time runs); nil elsewhere and in older files.
    package var waiting: WaitingTimes?

    package init(
        run: RunContext, timestamp: Date, pipeline: PipelineName,
        options: RunOptions, video: VideoDescription, thumbnailCount: Int, thumbWidth: Int, thumbHeight: Int,
        accuracy: RowAccuracy, phase: Phase, repetition: Int, wallSeconds: Double?, cpuUserSeconds: Double?,
        cpuSysSeconds: Double?, peakRSSBytes: Int?, framesDecoded: Int?, thumbnailsPerSecond: Double?,
        checksum: String, maxFrameError: Int?, disagreement: Bool, status: RunStatus, error: String,
        build: BuildRole? = nil, executableCommit: String = "", packetsRead: Int? = nil, bytesRead: Int? = nil,
        seeks: Int? = nil, heapAllocations: Int? = nil, bound: PhaseBound? = nil, kind: RunKind? = nil
    ) {
        // nil: a row as an older file gives it (tests' fixtures), its kind read from its placeholders.
        self.kind = kind ?? RunKind.inferred(pipeline: pipeline, videoID: video.id, videoCodec: video.codec, phase: phase)
        self.run = run
        self.timestamp = timestamp
        self.pipeline = pipeline
        self.options = options
        self.video = video
        self.thumbnailCount = thumbnailCount
        self.thumbWidth = thumbWidth
        self.thumbHeight = thumbHeight
        self.accuracy = accuracy
        self.phase = phase
        self.repetition = repetition
        self.wallSeconds = wallSeconds
        self.cpuUserSeconds = cpuUserSeconds
        self.cpuSysSeconds = cpuSysSeconds
        self.peakRSSBytes = peakRSSBytes
        self.framesDecoded = framesDecoded
        self.thumbnailsPerSecond = thumbnailsPerSecond
        self.checksum = checksum
        self.maxFrameError = maxFrameError
        self.disagreement = disagreement
        self.status = status
        self.error = error
        self.build = build
        self.executableCommit = executableCommit
        self.packetsRead = packetsRead
        self.bytesRead = bytesRead
        self.seeks = seeks
        self.heapAllocations = heapAllocations
        self.bound = bound
    }

    /// The configuration this repetition belongs to.
    package var configurationKey: ConfigurationKey {
        ConfigurationKey(
            pipeline: pipeline, options: options, videoID: video.id,
            thumbnailCount: thumbnailCount, thumbWidth: thumbWidth, thumbHeight: thumbHeight, accuracy: accuracy, phase: phase,
            kind: kind
        )
    }

    /// The cell of `column` (``RawColumn/field``).
    package func cell(_ column: RawColumn) -> String { column.field.write(self) }

    /// The row from its cells: each column's ``RawColumn/field`` reads its own, then the groups
    /// read whole (what ran, the bound, interactive and sprite measures) and the kind of an older file.
    package init(cells: (RawColumn) -> String) throws(CellError) {
        self = .unread
        for column in RawColumn.allCases {
            try column.field.read?(&self, column, cells(column))
        }
        pipeline = PipelineName(pipeline: cells(.pipeline), extractor: cells(.extractor), composer: cells(.composer))
        kind = cells(.kind).isEmpty
            ? RunKind.inferred(pipeline: pipeline, videoID: video.id, videoCodec: video.codec, phase: phase)
            : try Cell.enumeration(RawColumn.kind, cells(.kind), as: RunKind.self)
        bound = try Self.bound(cells)
        interactive = try Self.interactive(cells)
        spriteTiles = try Self.spriteTiles(cells)
        waiting = try Self.waiting(cells)
    }

    /// The waiting columns of a row: nil when it has no on-CPU time (other kinds, older files).
    private static func waiting(_ cells: (RawColumn) -> String) throws(CellError) -> WaitingTimes? {
        guard let onCPU = try Cell.optionalDouble(RawColumn.onCPUSeconds, cells(.onCPUSeconds)) else { return nil }
        return WaitingTimes(onCPUSeconds: onCPU,
                            runQueueWaitSeconds: try Cell.optionalDouble(RawColumn.runQueueWaitSeconds, cells(.runQueueWaitSeconds)) ?? 0,
                            blockedSeconds: try Cell.optionalDouble(RawColumn.blockedSeconds, cells(.blockedSeconds)),
                            voluntarySwitches: try Cell.optionalInt(RawColumn.voluntarySwitches, cells(.voluntarySwitches)) ?? 0,
                            involuntarySwitches: try Cell.optionalInt(RawColumn.involuntarySwitches, cells(.involuntarySwitches)) ?? 0)
    }

    /// The row ``init(cells:)`` starts from: every field then reads its own cell over it.
    private static let unread = RawResultRow(
        run: RunContext(runID: "", gitCommit: "", gitDirty: false,
                        machine: MachineFingerprint(cpuModel: "", logicalCores: 0, simdFeatures: [], l1dCacheBytes: nil, l2CacheBytes: nil,
                                                    l3CacheBytes: nil, memoryBytes: 0, kernel: "", frequencyGovernor: "", swiftVersion: "",
                                                    buildConfiguration: "", ffmpegVersions: [:])),
        timestamp: Date(timeIntervalSince1970: 0), pipeline: .other(pipeline: "", extractor: "", composer: ""), options: [:],
        video: VideoDescription(id: "", codec: "", width: 0, height: 0, durationSeconds: 0, frameCount: 0, gop: 0),
        thumbnailCount: 0, thumbWidth: 0, thumbHeight: 0, accuracy: "", phase: .total, repetition: 0, wallSeconds: nil,
        cpuUserSeconds: nil, cpuSysSeconds: nil, peakRSSBytes: nil, framesDecoded: nil, thumbnailsPerSecond: nil, checksum: "",
        maxFrameError: nil, disagreement: false, status: .ok, error: "", kind: .pipeline)

    /// The interactive columns of a row: nil when every one is empty (other kinds, older files).
    private static func interactive(_ cells: (RawColumn) -> String) throws(CellError) -> InteractiveMeasures? {
        let measures = InteractiveMeasures(
            firstThumbnailSeconds: try Cell.optionalDouble(RawColumn.firstThumbnailSeconds, cells(.firstThumbnailSeconds)),
            fullRowSeconds: try Cell.optionalDouble(RawColumn.fullRowSeconds, cells(.fullRowSeconds)),
            allThumbnailsSeconds: try Cell.optionalDouble(RawColumn.allThumbnailsSeconds, cells(.allThumbnailsSeconds)),
            latencyP50Seconds: try Cell.optionalDouble(RawColumn.latencyP50Seconds, cells(.latencyP50Seconds)),
            latencyP95Seconds: try Cell.optionalDouble(RawColumn.latencyP95Seconds, cells(.latencyP95Seconds)),
            wastedFrames: try Cell.optionalInt(RawColumn.wastedFrames, cells(.wastedFrames)),
            cacheHits: try Cell.optionalInt(RawColumn.cacheHits, cells(.cacheHits)),
            residentGrowthBytes: try Cell.optionalInt(RawColumn.residentGrowthBytes, cells(.residentGrowthBytes)),
            threadsLeft: try Cell.optionalInt(RawColumn.threadsLeft, cells(.threadsLeft)),
            busyDecoders: try Cell.optionalInt(RawColumn.busyDecoders, cells(.busyDecoders)))
        return measures == InteractiveMeasures() ? nil : measures
    }

    /// The sprite columns of a row: nil when the row has no tile count (other kinds, older files).
    private static func spriteTiles(_ cells: (RawColumn) -> String) throws(CellError) -> SpriteTileCheck? {
        guard let tiles = try Cell.optionalInt(RawColumn.tiles, cells(.tiles)) else { return nil }
        return SpriteTileCheck(tiles: tiles, unreadable: try Cell.optionalInt(RawColumn.unreadableTiles, cells(.unreadableTiles)) ?? 0,
                               worstErrorSeconds: try Cell.optionalDouble(RawColumn.worstFrameErrorSeconds, cells(.worstFrameErrorSeconds)) ?? 0,
                               meanErrorSeconds: try Cell.optionalDouble(RawColumn.meanFrameErrorSeconds, cells(.meanFrameErrorSeconds)) ?? 0)
    }

    /// The bound columns of a row: nil when the row (or its file) has none.
    private static func bound(_ cells: (RawColumn) -> String) throws(CellError) -> PhaseBound? {
        guard let overCores = try Cell.optionalDouble(RawColumn.cpuOverCoresSeconds, cells(.cpuOverCoresSeconds)),
              let longest = try Cell.optionalDouble(RawColumn.longestWorkerSeconds, cells(.longestWorkerSeconds)) else { return nil }
        var bound = PhaseBound(startupCPUSeconds: try Cell.optionalDouble(RawColumn.startupCPUSeconds, cells(.startupCPUSeconds)),
                               cpuOverCoresSeconds: overCores, longestWorkerSeconds: longest,
                               workers: try Cell.optionalInt(RawColumn.workers, cells(.workers)) ?? 0)
        // The file's own bound wins over the re-derived one (they agree up to the cells' rounding).
        if let written = try Cell.optionalDouble(RawColumn.boundSeconds, cells(.boundSeconds)) { bound.boundSeconds = written }
        return bound
    }
}
