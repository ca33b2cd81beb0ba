import Foundation

/// One timed repetition of one configuration: a row of the raw results file.
package struct RawResultRow: ResultRecord, Hashable {
    package var run: RunContext
    /// When the repetition finished; written in whole seconds, UTC.
    package var timestamp: Date
    package var pipeline: String
    package var extractor: String
    package var composer: String
    package var options: [String: String]
    package var video: VideoDescription
    /// Thumbnails requested.
    package var thumbnailCount: Int
    /// Thumbnail width in pixels.
    package var thumbWidth: Int
    /// Thumbnail height in pixels.
    package var thumbHeight: Int
    package var accuracy: String
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

    package init(
        run: RunContext, timestamp: Date, pipeline: String, extractor: String, composer: String,
        options: [String: String], video: VideoDescription, thumbnailCount: Int, thumbWidth: Int, thumbHeight: Int,
        accuracy: String, phase: Phase, repetition: Int, wallSeconds: Double?, cpuUserSeconds: Double?,
        cpuSysSeconds: Double?, peakRSSBytes: Int?, framesDecoded: Int?, thumbnailsPerSecond: Double?,
        checksum: String, maxFrameError: Int?, disagreement: Bool, status: RunStatus, error: String,
        build: BuildRole? = nil, executableCommit: String = "", packetsRead: Int? = nil, bytesRead: Int? = nil,
        seeks: Int? = nil, heapAllocations: Int? = nil, bound: PhaseBound? = nil, kind: RunKind? = nil
    ) {
        // nil: a row as an older file gives it (tests' fixtures), its kind read from its placeholders.
        self.kind = kind ?? RunKind.inferred(pipeline: pipeline, extractor: extractor, composer: composer, videoID: video.id,
                                             videoCodec: video.codec, phase: phase)
        self.run = run
        self.timestamp = timestamp
        self.pipeline = pipeline
        self.extractor = extractor
        self.composer = composer
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
            pipeline: pipeline, extractor: extractor, composer: composer, options: options, videoID: video.id,
            thumbnailCount: thumbnailCount, thumbWidth: thumbWidth, thumbHeight: thumbHeight, accuracy: accuracy, phase: phase,
            kind: kind
        )
    }

    package func cell(_ column: RawColumn) -> String {
        let machine = run.machine
        return switch column {
        case .runID: run.runID
        case .timestampUTC: Cell.text(timestamp)
        case .gitCommit: run.gitCommit
        case .gitDirty: Cell.text(run.gitDirty)
        case .buildConfig: machine.buildConfiguration
        case .machineID: machine.id
        case .machineName: machine.name
        case .cpuModel: machine.cpuModel
        case .logicalCores: Cell.text(machine.logicalCores)
        case .simdFeatures: machine.simdFeatures.joined(separator: " ")
        case .cacheL1dBytes: Cell.text(machine.l1dCacheBytes)
        case .cacheL2Bytes: Cell.text(machine.l2CacheBytes)
        case .cacheL3Bytes: Cell.text(machine.l3CacheBytes)
        case .memoryBytes: Cell.text(machine.memoryBytes)
        case .kernel: machine.kernel
        case .cpuGovernor: machine.frequencyGovernor
        case .swiftVersion: machine.swiftVersion
        case .ffmpegVersions: KeyValueList.encode(machine.ffmpegVersions)
        case .pipeline: pipeline
        case .extractor: extractor
        case .composer: composer
        case .options: KeyValueList.encode(options)
        case .videoID: video.id
        case .videoCodec: video.codec
        case .videoWidth: Cell.text(video.width)
        case .videoHeight: Cell.text(video.height)
        case .videoDurationSeconds: Cell.text(video.durationSeconds)
        case .videoFrameCount: Cell.text(video.frameCount)
        case .videoGOP: Cell.text(video.gop)
        case .thumbnailCount: Cell.text(thumbnailCount)
        case .thumbWidth: Cell.text(thumbWidth)
        case .thumbHeight: Cell.text(thumbHeight)
        case .accuracy: accuracy
        case .phase: phase.rawValue
        case .repetition: Cell.text(repetition)
        case .wallSeconds: Cell.text(wallSeconds)
        case .cpuUserSeconds: Cell.text(cpuUserSeconds)
        case .cpuSysSeconds: Cell.text(cpuSysSeconds)
        case .peakRSSBytes: Cell.text(peakRSSBytes)
        case .framesDecoded: Cell.text(framesDecoded)
        case .thumbnailsPerSecond: Cell.text(thumbnailsPerSecond)
        case .checksum: checksum
        case .maxFrameError: Cell.text(maxFrameError)
        case .disagreement: Cell.text(disagreement)
        case .status: status.rawValue
        case .error: error
        case .build: build?.rawValue ?? ""
        case .executableCommit: executableCommit
        case .packetsRead: Cell.text(packetsRead)
        case .bytesRead: Cell.text(bytesRead)
        case .seeks: Cell.text(seeks)
        case .heapAllocations: Cell.text(heapAllocations)
        case .startupCPUSeconds: Cell.text(bound?.startupCPUSeconds)
        case .cpuOverCoresSeconds: Cell.text(bound?.cpuOverCoresSeconds)
        case .longestWorkerSeconds: Cell.text(bound?.longestWorkerSeconds)
        case .boundSeconds: Cell.text(bound?.boundSeconds)
        case .workers: Cell.text(bound?.workers)
        case .videoBytes: Cell.text(videoBytes)
        case .instructions: Cell.text(instructions)
        case .profile: profile
        case .kind: kind.rawValue
        case .firstThumbnailSeconds: Cell.text(interactive?.firstThumbnailSeconds)
        case .fullRowSeconds: Cell.text(interactive?.fullRowSeconds)
        case .allThumbnailsSeconds: Cell.text(interactive?.allThumbnailsSeconds)
        case .latencyP50Seconds: Cell.text(interactive?.latencyP50Seconds)
        case .latencyP95Seconds: Cell.text(interactive?.latencyP95Seconds)
        case .wastedFrames: Cell.text(interactive?.wastedFrames)
        case .cacheHits: Cell.text(interactive?.cacheHits)
        case .residentGrowthBytes: Cell.text(interactive?.residentGrowthBytes)
        case .threadsLeft: Cell.text(interactive?.threadsLeft)
        case .busyDecoders: Cell.text(interactive?.busyDecoders)
        case .tiles: Cell.text(spriteTiles?.tiles)
        case .unreadableTiles: Cell.text(spriteTiles?.unreadable)
        case .worstFrameErrorSeconds: Cell.text(spriteTiles?.worstErrorSeconds)
        case .meanFrameErrorSeconds: Cell.text(spriteTiles?.meanErrorSeconds)
        case .spanInstructions: Cell.text(spanInstructions)
        }
    }

    package init(cells: (RawColumn) -> String) throws(CellError) {
        var machine = MachineFingerprint(
            cpuModel: cells(.cpuModel),
            logicalCores: try Cell.int(RawColumn.logicalCores, cells(.logicalCores)),
            simdFeatures: cells(.simdFeatures).split(separator: " ").map(String.init),
            l1dCacheBytes: try Cell.optionalInt(RawColumn.cacheL1dBytes, cells(.cacheL1dBytes)),
            l2CacheBytes: try Cell.optionalInt(RawColumn.cacheL2Bytes, cells(.cacheL2Bytes)),
            l3CacheBytes: try Cell.optionalInt(RawColumn.cacheL3Bytes, cells(.cacheL3Bytes)),
            memoryBytes: try Cell.int(RawColumn.memoryBytes, cells(.memoryBytes)),
            kernel: cells(.kernel),
            frequencyGovernor: cells(.cpuGovernor),
            swiftVersion: cells(.swiftVersion),
            buildConfiguration: cells(.buildConfig),
            ffmpegVersions: try Cell.keyValues(RawColumn.ffmpegVersions, cells(.ffmpegVersions))
        )
        // The file's id and name win over re-derived ones: an older harness may
        // have derived them differently, and they must still match that run.
        machine.id = cells(.machineID)
        machine.name = cells(.machineName)
        self.init(
            run: RunContext(
                runID: cells(.runID), gitCommit: cells(.gitCommit),
                gitDirty: try Cell.bool(RawColumn.gitDirty, cells(.gitDirty)), machine: machine
            ),
            timestamp: try Cell.date(RawColumn.timestampUTC, cells(.timestampUTC)),
            pipeline: cells(.pipeline),
            extractor: cells(.extractor),
            composer: cells(.composer),
            options: try Cell.keyValues(RawColumn.options, cells(.options)),
            video: VideoDescription(
                id: cells(.videoID), codec: cells(.videoCodec),
                width: try Cell.int(RawColumn.videoWidth, cells(.videoWidth)),
                height: try Cell.int(RawColumn.videoHeight, cells(.videoHeight)),
                durationSeconds: try Cell.double(RawColumn.videoDurationSeconds, cells(.videoDurationSeconds)),
                frameCount: try Cell.int(RawColumn.videoFrameCount, cells(.videoFrameCount)),
                gop: try Cell.int(RawColumn.videoGOP, cells(.videoGOP))
            ),
            thumbnailCount: try Cell.int(RawColumn.thumbnailCount, cells(.thumbnailCount)),
            thumbWidth: try Cell.int(RawColumn.thumbWidth, cells(.thumbWidth)),
            thumbHeight: try Cell.int(RawColumn.thumbHeight, cells(.thumbHeight)),
            accuracy: cells(.accuracy),
            phase: try Cell.enumeration(RawColumn.phase, cells(.phase), as: Phase.self),
            repetition: try Cell.int(RawColumn.repetition, cells(.repetition)),
            wallSeconds: try Cell.optionalDouble(RawColumn.wallSeconds, cells(.wallSeconds)),
            cpuUserSeconds: try Cell.optionalDouble(RawColumn.cpuUserSeconds, cells(.cpuUserSeconds)),
            cpuSysSeconds: try Cell.optionalDouble(RawColumn.cpuSysSeconds, cells(.cpuSysSeconds)),
            peakRSSBytes: try Cell.optionalInt(RawColumn.peakRSSBytes, cells(.peakRSSBytes)),
            framesDecoded: try Cell.optionalInt(RawColumn.framesDecoded, cells(.framesDecoded)),
            thumbnailsPerSecond: try Cell.optionalDouble(RawColumn.thumbnailsPerSecond, cells(.thumbnailsPerSecond)),
            checksum: cells(.checksum),
            maxFrameError: try Cell.optionalInt(RawColumn.maxFrameError, cells(.maxFrameError)),
            disagreement: try Cell.bool(RawColumn.disagreement, cells(.disagreement)),
            status: try Cell.enumeration(RawColumn.status, cells(.status), as: RunStatus.self),
            error: cells(.error),
            build: cells(.build).isEmpty ? nil : try Cell.enumeration(RawColumn.build, cells(.build), as: BuildRole.self),
            executableCommit: cells(.executableCommit),
            packetsRead: try Cell.optionalInt(RawColumn.packetsRead, cells(.packetsRead)),
            bytesRead: try Cell.optionalInt(RawColumn.bytesRead, cells(.bytesRead)),
            seeks: try Cell.optionalInt(RawColumn.seeks, cells(.seeks)),
            heapAllocations: try Cell.optionalInt(RawColumn.heapAllocations, cells(.heapAllocations)),
            bound: try Self.bound(cells),
            kind: cells(.kind).isEmpty ? nil : try Cell.enumeration(RawColumn.kind, cells(.kind), as: RunKind.self)
        )
        videoBytes = try Cell.optionalInt(RawColumn.videoBytes, cells(.videoBytes))
        instructions = try Cell.optionalInt(RawColumn.instructions, cells(.instructions))
        profile = cells(.profile)
        spanInstructions = try Cell.optionalInt(RawColumn.spanInstructions, cells(.spanInstructions))
        interactive = try Self.interactive(cells)
        spriteTiles = try Self.spriteTiles(cells)
    }

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
