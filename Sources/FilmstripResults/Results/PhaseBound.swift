import Filmstrip
import Foundation

/// The shortest wall time a timed phase could have taken with the work it did (``RunBound``
/// as `--stats` prints it), carried into the bench rows so each figure stands beside its bound.
package struct PhaseBound: Sendable, Hashable, Codable {
    /// CPU seconds the process had spent before the command began; nil for in-process phases,
    /// whose clocks start after start-up (only whole-process rows pay it).
    package var startupCPUSeconds: Double?
    /// The phase's CPU time (after start-up) over the machine's cores.
    package var cpuOverCoresSeconds: Double
    /// The busiest decoding worker's own thread CPU time.
    package var longestWorkerSeconds: Double
    /// Start-up (when it applies) + the larger of the two above.
    package var boundSeconds: Double
    /// Workers that decoded (0 from extractors that do not count them).
    package var workers: Int

    package init(startupCPUSeconds: Double?, cpuOverCoresSeconds: Double, longestWorkerSeconds: Double, workers: Int) {
        self.startupCPUSeconds = startupCPUSeconds
        self.cpuOverCoresSeconds = cpuOverCoresSeconds
        self.longestWorkerSeconds = longestWorkerSeconds
        self.workers = workers
        boundSeconds = RunBound.seconds(startup: startupCPUSeconds ?? 0, cpuOverCores: cpuOverCoresSeconds, longestWorker: longestWorkerSeconds)
    }

    /// The bound of an in-process phase that used `cpuSeconds` of CPU, from the run's counters.
    package init(phaseCPUSeconds cpuSeconds: Double, counters: DecodeCounters,
                cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(startupCPUSeconds: nil, cpuOverCoresSeconds: max(0, cpuSeconds) / Double(max(1, cores)),
                  longestWorkerSeconds: counters.longestWorkerSeconds, workers: counters.workers)
    }

    /// The bound of a whole `filmstrip strip` process from the JSON line its `--stats` prints
    /// (``RunBound/measurements``); nil when the line lacks the fields (an older executable).
    package init?(statsLine: String) {
        // A count no Int holds is a line not to believe, not a reason to trap.
        guard let stats = try? JSONDecoder().decode(StatsLine.self, from: Data(statsLine.utf8)),
              let workers = Int(exactly: stats.workers.rounded(.towardZero))
        else { return nil }
        self.init(startupCPUSeconds: stats.startupCPUSeconds, cpuOverCoresSeconds: stats.cpuOverCoresSeconds,
                  longestWorkerSeconds: stats.longestWorkerSeconds, workers: workers)
    }

    /// The fields of the `--stats` line the bound needs; the line's other measurements are ignored.
    private struct StatsLine: Decodable {
        var startupCPUSeconds: Double
        var cpuOverCoresSeconds: Double
        var longestWorkerSeconds: Double
        /// A number like every value of the line (``RunBound/measurements`` is `[String: Double]`).
        var workers: Double

        enum CodingKeys: String, CodingKey {
            case startupCPUSeconds = "startup_cpu_s", cpuOverCoresSeconds = "cpu_over_cores_s"
            case longestWorkerSeconds = "longest_worker_s", workers
        }
    }
}
