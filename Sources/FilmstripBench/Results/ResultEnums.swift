/// What a raw row timed.
public enum Phase: String, Sendable, Hashable, Codable, CaseIterable {
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
}

/// Which executable ran a row in a two-build run (`bench --baseline-binary`).
public enum BuildRole: String, Sendable, Hashable, Codable, CaseIterable {
    case baseline, candidate
}

/// Outcome of one repetition.
public enum RunStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case ok, error, skipped
}

/// A numeric raw column that can be summarized and compared.
public enum Metric: String, Sendable, Hashable, Codable, CaseIterable {
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

    /// `false` for throughput, where a larger value is the better one.
    public var lowerIsBetter: Bool { self != .thumbnailsPerSecond }

    /// Seconds; only these get the ``SampleWarning/tooShort`` check.
    public var isTime: Bool { [.wallSeconds, .cpuUserSeconds, .cpuSysSeconds, .cpuSeconds].contains(self) }

    /// The metric's value in `row`, `nil` when the row did not measure it.
    public func value(in row: RawResultRow) -> Double? {
        switch self {
        case .wallSeconds: row.wallSeconds
        case .cpuUserSeconds: row.cpuUserSeconds
        case .cpuSysSeconds: row.cpuSysSeconds
        case .cpuSeconds: row.cpuUserSeconds.flatMap { user in row.cpuSysSeconds.map { user + $0 } }
        case .peakRSSBytes: row.peakRSSBytes.map(Double.init)
        case .framesDecoded: row.framesDecoded.map(Double.init)
        case .thumbnailsPerSecond: row.thumbnailsPerSecond
        case .instructions: row.instructions.map(Double.init)
        }
    }
}
