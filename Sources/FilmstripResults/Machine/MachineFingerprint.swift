/// What a benchmark result depends on beyond the code: the machine, the
/// toolchain and the libraries. Every CSV row carries it so results from
/// different machines are never compared as if they were alike.
package struct MachineFingerprint: Sendable, Hashable, Codable {
    /// CPU model as the kernel reports it, e.g. `Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz`.
    package var cpuModel: String
    /// Logical CPUs online (hardware threads).
    package var logicalCores: Int
    /// SIMD extensions the strategies may use, from the cpuinfo flags, e.g. `["avx2", "sse4_2"]`; sorted.
    package var simdFeatures: [String]
    /// Level-1 data cache of CPU 0, in bytes; `nil` when sysfs does not say.
    package var l1dCacheBytes: Int?
    /// Level-2 cache of CPU 0, in bytes; `nil` when sysfs does not say.
    package var l2CacheBytes: Int?
    /// Level-3 cache of CPU 0, in bytes; `nil` when sysfs does not say.
    package var l3CacheBytes: Int?
    /// Total physical memory, in bytes.
    package var memoryBytes: Int
    /// Kernel release (`uname -r`).
    package var kernel: String
    /// CPU frequency governor of CPU 0 (`performance`, `powersave`, …), or
    /// `unavailable` (common in VMs and containers).
    package var frequencyGovernor: String
    /// Version of the Swift compiler that built the harness, e.g. `6.3`.
    package var swiftVersion: String
    /// `debug` or `release`: debug timings are not comparable with release ones.
    package var buildConfiguration: String
    /// FFmpeg library name → version, e.g. `["libavcodec": "60.31.102"]`.
    package var ffmpegVersions: [String: String]
    /// Short stable identifier: a hash of CPU model, cores, memory and kernel.
    package var id: String
    /// Short human name for file names, e.g. `xeon-8375c-2c`.
    package var name: String

    /// A fingerprint from explicit values; ``id`` and ``name`` are derived.
    package init(
        cpuModel: String, logicalCores: Int, simdFeatures: [String],
        l1dCacheBytes: Int?, l2CacheBytes: Int?, l3CacheBytes: Int?,
        memoryBytes: Int, kernel: String, frequencyGovernor: String,
        swiftVersion: String, buildConfiguration: String, ffmpegVersions: [String: String]
    ) {
        self.cpuModel = cpuModel
        self.logicalCores = logicalCores
        self.simdFeatures = simdFeatures.sorted()
        self.l1dCacheBytes = l1dCacheBytes
        self.l2CacheBytes = l2CacheBytes
        self.l3CacheBytes = l3CacheBytes
        self.memoryBytes = memoryBytes
        self.kernel = kernel
        self.frequencyGovernor = frequencyGovernor
        self.swiftVersion = swiftVersion
        self.buildConfiguration = buildConfiguration
        self.ffmpegVersions = ffmpegVersions
        id = Self.identifier(cpuModel: cpuModel, logicalCores: logicalCores, memoryBytes: memoryBytes, kernel: kernel)
        name = Self.humanName(cpuModel: cpuModel, logicalCores: logicalCores)
    }

    /// The fingerprint of the machine this process runs on.
    /// - Parameter ffmpegVersions: supplied by the caller because the versions
    ///   come from the Filmstrip library's FFmpeg bindings, not from this target.
    package static func current(ffmpegVersions: [String: String] = [:]) -> MachineFingerprint {
        MachineProbe().fingerprint(ffmpegVersions: ffmpegVersions)
    }

    /// The compiler version this file was built with, from `#if compiler` checks
    /// so nothing runs at run time.
    package static var compilerVersion: String {
        #if compiler(>=6.4)
        ">=6.4"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #elseif compiler(>=6.0)
        "6.0"
        #else
        "<6.0"
        #endif
    }

    /// `debug` or `release`, from the `DEBUG` condition SwiftPM sets for debug builds.
    package static var currentBuildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// FNV-1a 64 of the identifying fields, 12 hex digits. Not `Hasher`: its
    /// seed changes per process, and the id must be equal across runs.
    static func identifier(cpuModel: String, logicalCores: Int, memoryBytes: Int, kernel: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(cpuModel)|\(logicalCores)|\(memoryBytes)|\(kernel)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
    }

    /// Words of CPU model strings that say nothing about which CPU it is.
    private static let vendorNoise: Set<String> = [
        "intel", "amd", "r", "tm", "cpu", "processor", "core", "platinum", "gold", "silver",
        "bronze", "with", "radeon", "graphics", "apu", "genuine", "unknown",
    ]

    /// `Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz` with 2 cores → `xeon-8375c-2c`:
    /// the first two distinctive words of the model, then the core count. Two
    /// words, because what follows the model number is often a count such as
    /// the `64` of `EPYC 7763 64-Core`.
    static func humanName(cpuModel: String, logicalCores: Int) -> String {
        let beforeFrequency = cpuModel.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        let words = beforeFrequency.lowercased()
            .split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
            .map(String.init)
            .filter { !vendorNoise.contains($0) && !$0.hasSuffix("ghz") }
            .prefix(2)
        let model = words.isEmpty ? "cpu" : words.joined(separator: "-")
        return "\(model)-\(logicalCores)c"
    }
}
