/// What a raw row timed.
package enum Phase: String, Sendable, Hashable, Codable, CaseIterable {
    case extract, compose, total
    /// A fixed workload that measures the machine's speed, so runs on
    /// different machines can be compared as ratios to it.
    case calibration
    /// An external tool (e.g. the `ffmpeg` command) doing the same job.
    case peer
    /// Instruction runs only: the child from its start to the measured region (loader,
    /// runtime, configuration, probing the video, planning).
    case startup
    /// Instruction runs only: the whole child process, start-up and teardown included.
    case process
    /// Interactive runs (``RunKind/interactive``), one per step of the scripted slider session:
    /// open the clip and show N across it; zoom into its second quarter; drag a handle in 20
    /// superseding requests; zoom back out; the drag's last position asked of a fresh generator
    /// (`cold-single`, the drag's reference).
    case open, zoomIn = "zoom-in", drag, zoomBack = "zoom-back", coldSingle = "cold-single"
    /// Interactive runs: many superseding requests, then the memory, threads and decoders left behind.
    case soak
    /// Sprite runs (``RunKind/sprite``): one whole sprite of one video, as a whole process.
    case sprite

    /// The steps of an interactive slider session, in the order they run.
    package static let sessionSteps: [Phase] = [.open, .zoomIn, .drag, .zoomBack, .coldSingle]
}

/// Which executable ran a row in a two-build run (`bench --baseline-binary`).
package enum BuildRole: String, Sendable, Hashable, Codable, CaseIterable {
    case baseline, candidate
}

/// Outcome of one repetition.
package enum RunStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case ok, error, skipped
}

/// A numeric raw column that can be summarized and compared.
package enum Metric: String, Sendable, Hashable, Codable, CaseIterable {
    case wallSeconds = "wall_s"
    case cpuUserSeconds = "cpu_user_s"
    case cpuSysSeconds = "cpu_sys_s"
    /// User plus system CPU time: what the process did, without the time it waited for a
    /// core. On a loaded runner its paired ratios spread about 3× less than wall time's.
    case cpuSeconds = "cpu_s"
    case peakRSSBytes = "peak_rss_bytes"
    case framesDecoded = "frames_decoded"
    case thumbnailsPerSecond = "thumbnails_per_s"
    /// Instructions counted under callgrind (`bench --measure instructions`): the same on
    /// every run of the same work, whatever the machine's load.
    case instructions
    /// Time the phase's threads were blocked (``WaitingTimes/blockedSeconds``): the program's own
    /// waiting, which a lock that costs parallelism grows and other tenants' load hardly moves.
    case blockedSeconds = "blocked_s"
    /// CPU time plus blocked time (`cpu_s + blocked_s`): the phase's work and its own threads'
    /// waiting, without the machine's (the run queue). What the time gate judges waiting by: a
    /// change is a share of the work, so identical builds whose few hundred µs of blocked time
    /// jitter by half read as the same, and a lock that makes the workers wait as long as they
    /// decode reads as about +100 % (docs/gate.md, "Waiting").
    case cpuAndBlockedSeconds = "cpu_blocked_s"

    /// `false` for throughput, where a larger value is the better one.
    package var lowerIsBetter: Bool { self != .thumbnailsPerSecond }

    /// Seconds; only these get the ``SampleWarning/tooShort`` check.
    package var isTime: Bool { [.wallSeconds, .cpuUserSeconds, .cpuSysSeconds, .cpuSeconds].contains(self) }

    /// The metric's value in `row`, `nil` when the row did not measure it.
    package func value(in row: RawResultRow) -> Double? {
        switch self {
        case .wallSeconds: row.wallSeconds
        case .cpuUserSeconds: row.cpuUserSeconds
        case .cpuSysSeconds: row.cpuSysSeconds
        case .cpuSeconds: row.cpuUserSeconds.flatMap { user in row.cpuSysSeconds.map { user + $0 } }
        case .peakRSSBytes: row.peakRSSBytes.map(Double.init)
        case .framesDecoded: row.framesDecoded.map(Double.init)
        case .thumbnailsPerSecond: row.thumbnailsPerSecond
        case .instructions: row.instructions.map(Double.init)
        case .blockedSeconds: row.waiting?.blockedSeconds
        case .cpuAndBlockedSeconds: row.waiting?.blockedSeconds.flatMap { blocked in Metric.cpuSeconds.value(in: row).map { $0 + blocked } }
        }
    }
}

/// What kind of work a row timed: written by the runner in the `kind` column, so no reader
/// guesses it from placeholder cells (`none`, `synthetic`, `memcpy`).
package enum RunKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A strategy's extraction and composition of a reference video.
    case pipeline
    /// The fixed memory-copy workload that measures the machine (no video).
    case calibrationCopy = "calibration-copy"
    /// The fixed single-threaded decode that measures the machine.
    case calibrationDecode = "calibration-decode"
    /// A composer on synthetic thumbnails, no video.
    case syntheticComposition = "synthetic-composition"
    /// `memcpy` of the synthetic strip's bytes: the composition floor.
    case memcpyFloor = "memcpy-floor"
    /// An external tool doing the same job, timed as whole processes.
    case peer
    /// filmstrip's own `strip` command timed as a whole process.
    case wholeProcess = "whole-process"
    /// A seek-bar sprite of a video.
    case sprite
    /// Interactive thumbnails (one request at a time, as a player asks).
    case interactive

    /// `true` when the row's video columns describe a real video (not a placeholder).
    package var readsVideo: Bool {
        switch self {
        case .calibrationCopy, .syntheticComposition, .memcpyFloor: false
        case .pipeline, .calibrationDecode, .peer, .wholeProcess, .sprite, .interactive: true
        }
    }

    /// `true` for the rows that measure glibc's `memcpy`, not code of either build (the copy
    /// calibration and the composition floor): a gate shows them and never fails on them. Their
    /// instruction counts are not even the same twice: glibc's copy loop is chosen by the two
    /// buffers' addresses, which move from run to run (the floor's compose phase read +27 % in
    /// one A/A gate of 12, all in `__memcpy_avx_unaligned_erms`, docs/gate.md § 1).
    package var isReference: Bool { self == .calibrationCopy || self == .memcpyFloor }

    /// The kind of a row from a file written before the `kind` column existed, read back from
    /// the placeholders the runner then wrote. The only place placeholder cells are read.
    package static func inferred(pipeline: PipelineName, videoID: String, videoCodec: String, phase: Phase) -> RunKind {
        switch phase {
        case .calibration: return videoID == "none" || videoCodec == "none" ? .calibrationCopy : .calibrationDecode
        case .peer:
            if case .commandLine = pipeline { return .wholeProcess }
            return .peer
        default:
            if pipeline.composer == PipelineName.memcpyComposer && phase == .compose { return .memcpyFloor }
            return pipeline.extractor == PipelineName.syntheticExtractor ? .syntheticComposition : .pipeline
        }
    }
}
