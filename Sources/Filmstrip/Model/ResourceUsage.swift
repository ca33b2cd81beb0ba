import Foundation

/// This process's resource use, from the kernel.
public enum ResourceUsage {
    /// Peak resident set size in bytes (Linux reports `ru_maxrss` in KiB).
    public static var peakResidentBytes: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
