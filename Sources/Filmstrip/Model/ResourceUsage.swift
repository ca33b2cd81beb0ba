import Foundation

/// This process's resource use, from the kernel.
public enum ResourceUsage {
    /// Peak resident set size in bytes (Linux reports `ru_maxrss` in KiB).
    public static var peakResidentBytes: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// User plus system CPU seconds of the whole process so far, every thread included.
    public static var processCPUSeconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// CPU seconds of the calling thread so far.
    public static var threadCPUSeconds: Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
