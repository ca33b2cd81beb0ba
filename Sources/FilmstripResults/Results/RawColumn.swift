/// Columns of the raw results file: one row per timed repetition (long format).
package enum RawColumn: String, ResultColumn {
    case runID = "run_id"
    case timestampUTC = "timestamp_utc"
    case gitCommit = "git_commit"
    case gitDirty = "git_dirty"
    case buildConfig = "build_config"
    case machineID = "machine_id"
    case machineName = "machine_name"
    case cpuModel = "cpu_model"
    case logicalCores = "logical_cores"
    case simdFeatures = "simd_features"
    case cacheL1dBytes = "cache_l1d_bytes"
    case cacheL2Bytes = "cache_l2_bytes"
    case cacheL3Bytes = "cache_l3_bytes"
    case memoryBytes = "memory_bytes"
    case kernel
    case cpuGovernor = "cpu_governor"
    case swiftVersion = "swift_version"
    case ffmpegVersions = "ffmpeg_versions"
    case pipeline
    case extractor
    case composer
    case options
    case videoID = "video_id"
    case videoCodec = "video_codec"
    case videoWidth = "video_width"
    case videoHeight = "video_height"
    case videoDurationSeconds = "video_duration_s"
    case videoFrameCount = "video_frame_count"
    case videoGOP = "video_gop"
    case thumbnailCount = "frame_count"
    case thumbWidth = "thumb_width"
    case thumbHeight = "thumb_height"
    case accuracy
    case phase
    case repetition
    case wallSeconds = "wall_s"
    case cpuUserSeconds = "cpu_user_s"
    case cpuSysSeconds = "cpu_sys_s"
    case peakRSSBytes = "peak_rss_bytes"
    case framesDecoded = "frames_decoded"
    case thumbnailsPerSecond = "thumbnails_per_s"
    case checksum
    case maxFrameError = "max_frame_error"
    case disagreement
    case status
    case error
    // Added with two-build runs and work counters; older files lack them (read as empty).
    case build
    case executableCommit = "executable_commit"
    case packetsRead = "packets_read"
    case bytesRead = "bytes_read"
    case seeks
    case heapAllocations = "heap_allocations"
    // Added with the run's bound (what `strip --stats` prints); older files lack them.
    case startupCPUSeconds = "startup_cpu_s"
    case cpuOverCoresSeconds = "cpu_over_cores_s"
    case longestWorkerSeconds = "longest_worker_s"
    case boundSeconds = "bound_s"
    case workers
    // Added with deterministic work counters; older files lack it.
    case videoBytes = "video_bytes"
    // Added with instruction counts (`bench --measure instructions`); older files lack them.
    case instructions
    case profile
    // Added with run kinds; older files lack it (the kind is inferred when read).
    case kind
    // Added with interactive and sprite runs as bench kinds; older files lack them.
    case firstThumbnailSeconds = "first_thumbnail_s"
    case fullRowSeconds = "full_row_s"
    case allThumbnailsSeconds = "all_thumbnails_s"
    case latencyP50Seconds = "latency_p50_s"
    case latencyP95Seconds = "latency_p95_s"
    case wastedFrames = "wasted_frames"
    case cacheHits = "cache_hits"
    case residentGrowthBytes = "rss_growth_bytes"
    case threadsLeft = "threads_left"
    case busyDecoders = "busy_decoders"
    case tiles
    case unreadableTiles = "unreadable_tiles"
    case worstFrameErrorSeconds = "worst_error_s"
    case meanFrameErrorSeconds = "mean_error_s"
    // Added with the span of instruction runs; older files lack it.
    case spanInstructions = "span_instructions"
    // Added with waiting by kind (issue 47); older files lack them.
    case onCPUSeconds = "on_cpu_s"
    case runQueueWaitSeconds = "run_queue_wait_s"
    case blockedSeconds = "blocked_s"
    case voluntarySwitches = "voluntary_switches"
    case involuntarySwitches = "involuntary_switches"

    /// Columns that files written before they existed lack; they read as empty cells.
    package static let addedLater: Set<RawColumn> = [.build, .executableCommit, .packetsRead, .bytesRead, .seeks, .heapAllocations,
                                                      .startupCPUSeconds, .cpuOverCoresSeconds, .longestWorkerSeconds, .boundSeconds, .workers,
                                                      .videoBytes, .instructions, .profile, .kind,
                                                      .firstThumbnailSeconds, .fullRowSeconds, .allThumbnailsSeconds, .latencyP50Seconds,
                                                      .latencyP95Seconds, .wastedFrames, .cacheHits, .residentGrowthBytes,
                                                      .threadsLeft, .busyDecoders, .tiles, .unreadableTiles,
                                                      .worstFrameErrorSeconds, .meanFrameErrorSeconds, .spanInstructions,
                                                      .onCPUSeconds, .runQueueWaitSeconds, .blockedSeconds, .voluntarySwitches, .involuntarySwitches]

    package var unit: String {
        switch self {
        case .timestampUTC: "ISO 8601"
        case .gitDirty, .disagreement: "bool"
        case .cacheL1dBytes, .cacheL2Bytes, .cacheL3Bytes, .memoryBytes, .peakRSSBytes: "bytes"
        case .logicalCores, .videoFrameCount, .videoGOP, .thumbnailCount, .repetition, .framesDecoded, .maxFrameError: "count"
        case .packetsRead, .seeks, .heapAllocations, .workers, .instructions, .spanInstructions: "count"
        case .startupCPUSeconds, .cpuOverCoresSeconds, .longestWorkerSeconds, .boundSeconds: "s"
        case .bytesRead, .videoBytes, .residentGrowthBytes: "bytes"
        case .firstThumbnailSeconds, .fullRowSeconds, .allThumbnailsSeconds, .latencyP50Seconds, .latencyP95Seconds: "s"
        case .worstFrameErrorSeconds, .meanFrameErrorSeconds: "s"
        case .wastedFrames, .cacheHits, .threadsLeft, .busyDecoders, .tiles, .unreadableTiles: "count"
        case .onCPUSeconds, .runQueueWaitSeconds, .blockedSeconds: "s"
        case .voluntarySwitches, .involuntarySwitches: "count"
        case .videoWidth, .videoHeight, .thumbWidth, .thumbHeight: "px"
        case .videoDurationSeconds, .wallSeconds, .cpuUserSeconds, .cpuSysSeconds: "s"
        case .thumbnailsPerSecond: "1/s"
        default: "—"
        }
    }

    /// What the column holds, as results/README.md documents it (a test holds the two to the
    /// same words; a column without a line here fails it).
    package var meaning: String { Self.meanings[self] ?? "" }

    /// Every column's meaning, in the file's order: a table, as ``fields`` is.
    static let meanings: [RawColumn: String] = [
        .runID: "Identifier of the harness invocation; all rows written by one run share it.",
        .timestampUTC: "When the repetition finished, UTC, whole seconds (`2025-01-31T12:00:00Z`).",
        .gitCommit: "Full hash of the commit of the checkout the harness ran in (`unknown` outside a checkout); see `executable_commit` for the code that ran.",
        .gitDirty: "`true` when the working tree had uncommitted changes, so the commit does not fully describe the code.",
        .buildConfig: "`debug` or `release` (of the executable that ran the row); debug timings are not comparable with release ones.",
        .machineID: "Short stable hash of CPU model, logical cores, memory and kernel; rows with different ids come from different machines.",
        .machineName: "Human name derived from the CPU model and core count, e.g. `xeon-8375c-2c`.",
        .cpuModel: "CPU model string from `/proc/cpuinfo` (or the ARM core name).",
        .logicalCores: "Logical CPUs online (hardware threads).",
        .simdFeatures: "SIMD extensions present, space-separated, from `sse4_2 avx2 avx512f neon asimd`.",
        .cacheL1dBytes: "Level-1 data cache of CPU 0; empty when unknown.",
        .cacheL2Bytes: "Level-2 cache of CPU 0; empty when unknown.",
        .cacheL3Bytes: "Level-3 cache of CPU 0 (shared); empty when unknown.",
        .memoryBytes: "Total physical memory (`MemTotal`).",
        .kernel: "Kernel release (`uname -r`).",
        .cpuGovernor: "CPU frequency governor of CPU 0, or `unavailable` (typical in VMs); `powersave` makes timings noisy.",
        .swiftVersion: "Version of the Swift compiler that built the harness.",
        .ffmpegVersions: "FFmpeg library versions as `libavcodec=…;libavformat=…`; empty when unknown.",
        .pipeline: "Strategy name, `extractor+composer`, as in the registry.",
        .extractor: "Extraction strategy name.",
        .composer: "Composition strategy name.",
        .options: "Strategy options as `key=value;key=value`, keys sorted (e.g. `threads=4`); empty for none.",
        .videoID: "Reference video identifier.",
        .videoCodec: "Codec of the video stream (FFmpeg codec name, e.g. `h264`).",
        .videoWidth: "Coded width of the video.",
        .videoHeight: "Coded height of the video.",
        .videoDurationSeconds: "Duration of the video stream.",
        .videoFrameCount: "Number of frames in the video stream.",
        .videoGOP: "Keyframe interval of the video (frames between keyframes).",
        .thumbnailCount: "Number of thumbnails requested for the strip.",
        .thumbWidth: "Width of one thumbnail.",
        .thumbHeight: "Height of one thumbnail (the strip's height).",
        .accuracy: "Accuracy mode: `exact`, `keyframe`, `tolerance:S` or `tolerance:BEFORE,AFTER` (seconds).",
        .phase: "What was timed: `extract`, `compose`, `total` (both), `calibration` (the fixed machine-speed workload), `peer` (an external tool doing the same job), `sprite` (a sprite run), the interactive session's steps `open`, `zoom-in`, `drag`, `zoom-back`, `cold-single` and its `soak`; instruction runs add `startup` (the child from its start to the measured region: loader, runtime, probe, plan) and `process` (the whole child).",
        .repetition: "Index of the timed repetition within the configuration, from 0; warm-up runs are not written.",
        .wallSeconds: "Elapsed wall-clock time of the phase (monotonic clock); empty unless `status` is `ok`, and in instruction runs.",
        .cpuUserSeconds: "User CPU time of the process during the phase, summed over threads.",
        .cpuSysSeconds: "System CPU time of the process during the phase, summed over threads.",
        .peakRSSBytes: "Peak resident set size of the process when the phase ended (high-water mark since process start, so it never decreases within a run): the `bench-run` child's own `VmHWM`; for whole processes (`peer`, `whole-process`, `sprite`) `ru_maxrss` from `wait4`, which is at least the spawning child's own high-water mark. Rows written before this used `ru_maxrss` in the child too, which Linux makes at least the `bench` parent's high-water mark.",
        .framesDecoded: "Video frames the decoder produced during the phase (more than `frame_count` when decoding forward to targets).",
        .thumbnailsPerSecond: "`frame_count / wall_s`.",
        .checksum: "Hash of the strip's pixels; exact strategies must agree for the same request.",
        .maxFrameError: "Largest distance, in frames, between the frame a thumbnail shows and the frame the sample plan asked for; 0 for exact accuracy.",
        .disagreement: "`true` when an exact-accuracy run's `checksum` differs from the first checksum of the same request (video, count, size) in this run, or when it showed a frame other than the planned one (`max_frame_error` > 0); the harness also reports it on stderr.",
        .status: "`ok`, `error` (the run failed; see `error`) or `skipped` (the configuration does not apply).",
        .error: "Error text when `status` is `error` or the reason when `skipped`; empty otherwise.",
        .build: "`baseline` or `candidate` in a two-build run (`bench --baseline-binary` / `--baseline-rev`); empty when one executable ran everything.",
        .executableCommit: "Commit the executable that ran the repetition was built from, recorded at build time (`-dirty` appended when its tree had uncommitted changes); empty in older files.",
        .packetsRead: "Compressed packets the demuxer returned during the phase; empty when the phase does not decode.",
        .bytesRead: "Bytes the process read with `read(2)` during the phase (`rchar` of `/proc/self/io`): every thread's reads, `/proc` included, and re-reads of the I/O buffer after seeks, which depend on the GOP a worker read before; shown, not gated (`video_bytes` is).",
        .videoBytes: "Bytes of the compressed packets the phase read from the video (the library's own count): the same in every run of the same work; empty when the phase does not decode.",
        .seeks: "Seeks in the video during the phase; empty when the phase does not decode.",
        .heapAllocations: "Heap allocations (`malloc`, `calloc`, `realloc`, aligned variants) made by the process during the phase.",
        .startupCPUSeconds: "CPU seconds the process spent before `strip` began (loading libraries, the Swift runtime): filmstrip's own whole-process `peer` rows only (in-process phases start their clocks after it).",
        .cpuOverCoresSeconds: "The phase's CPU time (user + system; for a whole process, after start-up) over `logical_cores`: the time if every core were busy all along. `extract` and `total` rows of pipelines (and the decode `calibration`), filmstrip's own `peer` rows; empty elsewhere.",
        .longestWorkerSeconds: "CPU time of the busiest decoding worker's own thread (a GOP run cannot be split, so no wall time is shorter; codec threads' share is missed). Same rows as `cpu_over_cores_s`; 0 from extractors that do not count workers.",
        .boundSeconds: "`startup_cpu_s` (when present) + the larger of `cpu_over_cores_s` and `longest_worker_s`: the shortest wall time the work done allows on this machine; `wall_s / bound_s` is how far the run was from it.",
        .workers: "Decoding workers the extractor ran (chosen by its cost model unless `workers=` in `options` says); 0 from extractors that do not count them.",
        .instructions: "Instructions the phase executed, all threads, counted by valgrind's callgrind (`bench --measure instructions`); empty in time runs. The times of such rows are the instrumented run's (about 50× slow) and are not compared.",
        .kind: "What kind of work the row timed: `pipeline`, `calibration-copy`, `calibration-decode`, `synthetic-composition`, `memcpy-floor`, `peer`, `whole-process` (filmstrip's own `strip` command), `sprite` (`filmstrip sprite` or an ffmpeg command making a video's seek-bar sprite, a whole process) or `interactive` (a scripted slider session on one `ThumbnailGenerator`, a row per step). Files written before the column read it back from the placeholders the runner wrote then (`none`, `synthetic`, `memcpy`, `cli:`).",
        .firstThumbnailSeconds: "Interactive rows: from the step's first request to its first image, coarse or final.",
        .fullRowSeconds: "Interactive rows: from the step's first request until every slot of its last request had an image, coarse or final (what `--coarse-first` speeds up).",
        .allThumbnailsSeconds: "Interactive rows: from the step's first request to the last request's last final image.",
        .latencyP50Seconds: "Interactive rows: median (type 7) over the step's requests that were not superseded of the time from the request to its last final image.",
        .latencyP95Seconds: "Interactive rows: 95th percentile (type 7) of the same latencies.",
        .wastedFrames: "Interactive rows: frames decoded for requests that were cancelled or superseded.",
        .cacheHits: "Interactive rows: images served from the generator's cache.",
        .residentGrowthBytes: "Interactive `soak` rows: resident bytes after the last superseding request less those after the first (negative when memory was returned).",
        .threadsLeft: "Interactive `soak` rows: the process's threads after the last request less those after the first (0: none left behind).",
        .busyDecoders: "Interactive `soak` rows: decoders still working once the last request was answered (0: none left behind).",
        .tiles: "Sprite rows: tiles the run wrote.",
        .unreadableTiles: "Sprite rows: tiles whose frame marker could not be read.",
        .worstFrameErrorSeconds: "Sprite rows: largest distance between a tile's frame and its cue's start (cue k starts at k · interval).",
        .meanFrameErrorSeconds: "Sprite rows: mean of the same distances over the readable tiles.",
        .spanInstructions: "Instruction runs: instructions of the phase's busiest thread (the span, beside `instructions`, the work), counted in a second callgrind run with `--separate-threads=yes`; `extract` (decoding workers and their codec threads end inside it) and `process` (each thread's whole life) rows only, empty elsewhere and in time runs. `instructions / span_instructions` is the parallelism the phase had.",
        .onCPUSeconds: "Seconds the phase's threads spent on a CPU, summed over every thread of the `bench-run` child, those that ended inside the phase included (the kernel's per-thread `schedstat`; each thread reads its own as it ends). About `cpu_user_s + cpu_sys_s`; in-process phases only, empty elsewhere and in older files.",
        .runQueueWaitSeconds: "Seconds the phase's threads were runnable but waited for a CPU (`schedstat`'s run-queue time), summed over threads as `on_cpu_s`: the machine's share of the waiting (other tenants holding the cores), which the program cannot change.",
        .blockedSeconds: "Seconds the phase's own threads were blocked (a lock, a join, a condition, I/O, a sleep): per thread, its life in the phase less its on-CPU and run-queue time, summed over the threads started inside the phase (decoding workers, FFmpeg's codec threads). Threads that were there before (the main thread, the runtime's pool) are left out: they wait for the work, so their blocked time is the phase's wall time again, other tenants' delays included. The program's own waiting; the gate judges it as `cpu_blocked_s` (docs/gate.md, \"Waiting\"). Empty when a thread the child did not start began or ended inside the phase.",
        .voluntarySwitches: "Voluntary context switches in the phase (a thread gave up its CPU: it blocked), all threads of the process, ended ones included (`getrusage` `ru_nvcsw`).",
        .involuntarySwitches: "Involuntary context switches in the phase (the scheduler took a thread's CPU: its time slice ended or another task preempted it), all threads (`ru_nivcsw`).",
        .profile: "Instruction runs: the run's profile (instructions per part and per function and library), a path relative to the folder of this file.",
    ]
}

extension RawColumn {
    /// How this column is written from a row and read back (the file's schema, in one table).
    package var field: RawField {
        guard let field = Self.fields[self] else { preconditionFailure("RawColumn.\(self) has no line in RawColumn.fields") }
        return field
    }

    /// One entry per column. A new column is a case above (with its meaning, its unit and, for
    /// files written before it, `addedLater`), the row's property, and its line here.
    private static let fields: [RawColumn: RawField] = [
        .runID: .text(\.run.runID),
        .timestampUTC: .stored(\.timestamp, .date),
        .gitCommit: .text(\.run.gitCommit),
        .gitDirty: .stored(\.run.gitDirty, .bool),
        .buildConfig: .text(\.run.machine.buildConfiguration),
        .machineID: .text(\.run.machine.id),
        .machineName: .text(\.run.machine.name),
        .cpuModel: .text(\.run.machine.cpuModel),
        .logicalCores: .stored(\.run.machine.logicalCores, .int),
        .simdFeatures: .stored(\.run.machine.simdFeatures, .sortedWords),
        .cacheL1dBytes: .stored(\.run.machine.l1dCacheBytes, .int),
        .cacheL2Bytes: .stored(\.run.machine.l2CacheBytes, .int),
        .cacheL3Bytes: .stored(\.run.machine.l3CacheBytes, .int),
        .memoryBytes: .stored(\.run.machine.memoryBytes, .int),
        .kernel: .text(\.run.machine.kernel),
        .cpuGovernor: .text(\.run.machine.frequencyGovernor),
        .swiftVersion: .text(\.run.machine.swiftVersion),
        .ffmpegVersions: .stored(\.run.machine.ffmpegVersions, .keyValues),
        // Read together with the extractor and composer (``PipelineName/init(pipeline:extractor:composer:)``).
        .pipeline: .grouped { $0.pipeline.description },
        .extractor: .grouped { $0.pipeline.extractor },
        .composer: .grouped { $0.pipeline.composer },
        .options: .stored(\.options, .options),
        .videoID: .text(\.video.id),
        .videoCodec: .text(\.video.codec),
        .videoWidth: .stored(\.video.width, .int),
        .videoHeight: .stored(\.video.height, .int),
        .videoDurationSeconds: .stored(\.video.durationSeconds, .double),
        .videoFrameCount: .stored(\.video.frameCount, .int),
        .videoGOP: .stored(\.video.gop, .int),
        .thumbnailCount: .stored(\.thumbnailCount, .int),
        .thumbWidth: .stored(\.thumbWidth, .int),
        .thumbHeight: .stored(\.thumbHeight, .int),
        .accuracy: .stored(\.accuracy, .accuracy),
        .phase: .stored(\.phase, .enumeration),
        .repetition: .stored(\.repetition, .int),
        .wallSeconds: .stored(\.wallSeconds, .double),
        .cpuUserSeconds: .stored(\.cpuUserSeconds, .double),
        .cpuSysSeconds: .stored(\.cpuSysSeconds, .double),
        .peakRSSBytes: .stored(\.peakRSSBytes, .int),
        .framesDecoded: .stored(\.framesDecoded, .int),
        .thumbnailsPerSecond: .stored(\.thumbnailsPerSecond, .double),
        .checksum: .text(\.checksum),
        .maxFrameError: .stored(\.maxFrameError, .int),
        .disagreement: .stored(\.disagreement, .bool),
        .status: .stored(\.status, .enumeration),
        .error: .text(\.error),
        .build: .stored(\.build, .optional(BuildRole.self)),
        .executableCommit: .text(\.executableCommit),
        .packetsRead: .stored(\.packetsRead, .int),
        .bytesRead: .stored(\.bytesRead, .int),
        .seeks: .stored(\.seeks, .int),
        .heapAllocations: .stored(\.heapAllocations, .int),
        .startupCPUSeconds: .grouped { Cell.text($0.bound?.startupCPUSeconds) },
        .cpuOverCoresSeconds: .grouped { Cell.text($0.bound?.cpuOverCoresSeconds) },
        .longestWorkerSeconds: .grouped { Cell.text($0.bound?.longestWorkerSeconds) },
        .boundSeconds: .grouped { Cell.text($0.bound?.boundSeconds) },
        .workers: .grouped { Cell.text($0.bound?.workers) },
        .videoBytes: .stored(\.videoBytes, .int),
        .instructions: .stored(\.instructions, .int),
        .profile: .text(\.profile),
        // Read by `RawResultRow.init(cells:)`: an empty cell (an older file) is inferred from the placeholders.
        .kind: .grouped { $0.kind.rawValue },
        .firstThumbnailSeconds: .grouped { Cell.text($0.interactive?.firstThumbnailSeconds) },
        .fullRowSeconds: .grouped { Cell.text($0.interactive?.fullRowSeconds) },
        .allThumbnailsSeconds: .grouped { Cell.text($0.interactive?.allThumbnailsSeconds) },
        .latencyP50Seconds: .grouped { Cell.text($0.interactive?.latencyP50Seconds) },
        .latencyP95Seconds: .grouped { Cell.text($0.interactive?.latencyP95Seconds) },
        .wastedFrames: .grouped { Cell.text($0.interactive?.wastedFrames) },
        .cacheHits: .grouped { Cell.text($0.interactive?.cacheHits) },
        .residentGrowthBytes: .grouped { Cell.text($0.interactive?.residentGrowthBytes) },
        .threadsLeft: .grouped { Cell.text($0.interactive?.threadsLeft) },
        .busyDecoders: .grouped { Cell.text($0.interactive?.busyDecoders) },
        .tiles: .grouped { Cell.text($0.spriteTiles?.tiles) },
        .unreadableTiles: .grouped { Cell.text($0.spriteTiles?.unreadable) },
        .worstFrameErrorSeconds: .grouped { Cell.text($0.spriteTiles?.worstErrorSeconds) },
        .meanFrameErrorSeconds: .grouped { Cell.text($0.spriteTiles?.meanErrorSeconds) },
        .spanInstructions: .stored(\.spanInstructions, .int),
        .onCPUSeconds: .grouped { Cell.text($0.waiting?.onCPUSeconds) },
        .runQueueWaitSeconds: .grouped { Cell.text($0.waiting?.runQueueWaitSeconds) },
        .blockedSeconds: .grouped { Cell.text($0.waiting?.blockedSeconds) },
        .voluntarySwitches: .grouped { Cell.text($0.waiting?.voluntarySwitches) },
        .involuntarySwitches: .grouped { Cell.text($0.waiting?.involuntarySwitches) },
    ]
}
