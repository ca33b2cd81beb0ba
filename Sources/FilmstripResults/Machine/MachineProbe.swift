import Foundation

/// Reads the machine's description from procfs and sysfs. Every file read of
/// the fingerprint happens here; parsing is split into pure functions so the
/// tests can feed it other machines' files.
package struct MachineProbe {
    /// Prefix of every path read, `/` normally; tests point it at a fake tree.
    var root: String = "/"

    func fingerprint(ffmpegVersions: [String: String]) -> MachineFingerprint {
        let cpuinfo = read("proc/cpuinfo") ?? ""
        return MachineFingerprint(
            cpuModel: Self.cpuModel(cpuinfo: cpuinfo),
            logicalCores: Self.logicalCores(),
            simdFeatures: Self.simdFeatures(cpuinfo: cpuinfo),
            l1dCacheBytes: cacheBytes(level: 1, type: "Data"),
            l2CacheBytes: cacheBytes(level: 2, type: "Unified"),
            l3CacheBytes: cacheBytes(level: 3, type: "Unified"),
            memoryBytes: Self.memoryBytes(meminfo: read("proc/meminfo") ?? "") ?? 0,
            kernel: read("proc/sys/kernel/osrelease")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown",
            frequencyGovernor: read("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unavailable",
            swiftVersion: MachineFingerprint.compilerVersion,
            buildConfiguration: MachineFingerprint.currentBuildConfiguration,
            ffmpegVersions: ffmpegVersions
        )
    }

    private func read(_ relativePath: String) -> String? {
        try? String(contentsOfFile: root + relativePath, encoding: .utf8)
    }

    /// Size in bytes of CPU 0's cache of `level` and `type`, scanning
    /// `cache/index*` because the index numbering differs between CPUs.
    private func cacheBytes(level: Int, type: String) -> Int? {
        let folder = root + "sys/devices/system/cpu/cpu0/cache"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        for entry in entries.sorted() where entry.hasPrefix("index") {
            let field = { (name: String) in self.read("sys/devices/system/cpu/cpu0/cache/\(entry)/\(name)")?
                .trimmingCharacters(in: .whitespacesAndNewlines) }
            if field("level") == String(level), field("type") == type, let size = field("size") {
                return Self.cacheSizeBytes(size)
            }
        }
        return nil
    }

    /// Logical CPUs online. `sysconf` rather than `ProcessInfo.activeProcessorCount`,
    /// which on some platforms reports the affinity mask rather than the machine.
    package static func logicalCores() -> Int {
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// The first of `model name` (x86), `Model` / `Hardware` (some ARM boards),
    /// else an ARM `CPU part` mapped to its core name.
    static func cpuModel(cpuinfo: String) -> String {
        let fields = firstValues(cpuinfo: cpuinfo)
        for key in ["model name", "Model", "Hardware"] {
            if let value = fields[key], !value.isEmpty { return value }
        }
        if let part = fields["CPU part"] {
            return armCoreNames[part.lowercased()].map { "ARM \($0)" } ?? "ARM part \(part)"
        }
        return "unknown"
    }

    /// ARM `CPU part` numbers of server and board cores this may run on.
    private static let armCoreNames: [String: String] = [
        "0xd03": "Cortex-A53", "0xd08": "Cortex-A72", "0xd0b": "Cortex-A76",
        "0xd0c": "Neoverse-N1", "0xd40": "Neoverse-V1", "0xd49": "Neoverse-N2",
        "0xd4f": "Neoverse-V2",
    ]

    /// The SIMD extensions relevant to the strategies, from x86 `flags` or ARM `Features`.
    static func simdFeatures(cpuinfo: String) -> [String] {
        let fields = firstValues(cpuinfo: cpuinfo)
        let flags = Set((fields["flags"] ?? fields["Features"] ?? "").split(separator: " ").map(String.init))
        return ["sse4_2", "avx2", "avx512f", "neon", "asimd"].filter(flags.contains)
    }

    /// `MemTotal:  16318252 kB` → bytes (the kernel's `kB` is KiB).
    static func memoryBytes(meminfo: String) -> Int? {
        for line in meminfo.split(separator: "\n") where line.hasPrefix("MemTotal:") {
            let parts = line.split(separator: " ")
            guard parts.count >= 2, let kibibytes = Int(parts[1]) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }

    /// sysfs cache sizes such as `48K`, `1024K`, `32M` → bytes.
    static func cacheSizeBytes(_ text: String) -> Int? {
        let multipliers: [Character: Int] = ["K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024]
        guard let last = text.last else { return nil }
        if let multiplier = multipliers[last] {
            return Int(text.dropLast()).map { $0 * multiplier }
        }
        return Int(text)
    }

    /// `key : value` pairs of cpuinfo's first processor block (all CPUs of the
    /// machines this targets are alike).
    private static func firstValues(cpuinfo: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in cpuinfo.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if result[key] == nil { result[key] = value }
        }
        return result
    }
}
