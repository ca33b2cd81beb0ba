import Foundation

extension MachineFingerprint {
    /// The fingerprint as aligned `key: value` lines, for `filmstrip info` and logs.
    package var text: String {
        let lines: [(String, String)] = [
            ("id", id),
            ("name", name),
            ("cpu model", cpuModel),
            ("logical cores", String(logicalCores)),
            ("simd features", simdFeatures.isEmpty ? "none" : simdFeatures.joined(separator: " ")),
            ("l1d cache", Self.byteText(l1dCacheBytes)),
            ("l2 cache", Self.byteText(l2CacheBytes)),
            ("l3 cache", Self.byteText(l3CacheBytes)),
            ("memory", Self.byteText(memoryBytes)),
            ("kernel", kernel),
            ("governor", frequencyGovernor),
            ("swift", swiftVersion),
            ("build", buildConfiguration),
            ("ffmpeg", ffmpegVersions.isEmpty ? "unknown" : KeyValueList.encode(ffmpegVersions)),
        ]
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { key, value in
            "\(key):" + String(repeating: " ", count: width - key.count + 1) + value
        }.joined(separator: "\n")
    }

    /// The fingerprint as pretty-printed JSON with sorted keys (stable diffs).
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    private static func byteText(_ bytes: Int?) -> String {
        guard let bytes else { return "unknown" }
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let number = value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        return "\(number) \(units[unit]) (\(bytes) bytes)"
    }
}
