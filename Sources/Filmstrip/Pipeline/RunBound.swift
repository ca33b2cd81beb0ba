import Foundation

/// The shortest wall time a run could have taken with the work it did, for `--stats`: the
/// decode and scale CPU time spread over every core, but no shorter than the busiest worker's
/// share (a GOP run cannot be split: its frames depend on each other), plus the start-up.
public struct RunBound: Sendable {
    /// CPU seconds the process had used when the command began (loading ~150 shared libraries,
    /// the Swift runtime, parsing arguments): spent before any work could be shared out.
    public var startupCPUSeconds: Double
    /// CPU seconds of the whole process after the pipeline, start-up included.
    public var processCPUSeconds: Double
    /// Cores the work could be spread over (active processors).
    public var cores: Int
    /// CPU seconds of the busiest worker's thread: a floor on the walk, which cannot end before that share is done.
    public var longestWorkerSeconds: Double
    /// Workers that decoded (0 from extractors that do not count them).
    public var workers: Int

    /// A bound from the extractor's `counters` and the process's CPU seconds at start-up and now.
    public init(counters: DecodeCounters, startupCPUSeconds: Double,
                processCPUSeconds: Double = ResourceUsage.processCPUSeconds,
                cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.startupCPUSeconds = startupCPUSeconds
        self.processCPUSeconds = processCPUSeconds
        self.cores = cores
        longestWorkerSeconds = counters.longestWorkerSeconds
        workers = counters.workers
    }

    /// The work after start-up, over the cores.
    public var cpuOverCoresSeconds: Double { max(0, processCPUSeconds - startupCPUSeconds) / Double(max(1, cores)) }

    /// The bound in seconds: start-up plus the larger of the work over the cores and the busiest worker's share.
    public var boundSeconds: Double {
        Self.seconds(startup: startupCPUSeconds, cpuOverCores: cpuOverCoresSeconds, longestWorker: longestWorkerSeconds)
    }

    /// The one bound rule, for this run and for the bench's rows: `startup` plus the larger of
    /// `cpuOverCores` and `longestWorker` (all seconds).
    public static func seconds(startup: Double, cpuOverCores: Double, longestWorker: Double) -> Double {
        startup + max(cpuOverCores, longestWorker)
    }

    /// Every figure above under its `--stats` key (seconds, except `cores` and `workers`).
    public var measurements: [String: Double] {
        ["startup_cpu_s": startupCPUSeconds, "cpu_s": processCPUSeconds, "cores": Double(cores),
         "cpu_over_cores_s": cpuOverCoresSeconds, "longest_worker_s": longestWorkerSeconds, "bound_s": boundSeconds,
         "workers": Double(workers)]
    }
}
