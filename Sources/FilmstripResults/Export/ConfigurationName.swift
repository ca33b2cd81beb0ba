/// Short names for a configuration: ``ConfigurationKey/description`` runs to 150
/// characters once a pipeline's options are listed, too long for a dashboard or a table.
extension ConfigurationKey {
    /// Eight hex digits of FNV-1a (64-bit) over ``description``: the same configuration gets
    /// the same id in every file, old ones included, because it is derived from the key when
    /// a file is read, never stored. Swift's `Hasher` is seeded per process, so it cannot serve.
    package var configID: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in description.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let text = String(hash >> 32, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }

    /// A readable name, e.g. `forward+fused {f=area ko=1 t=0 w=auto} clip-4k n500 h64 exact total`:
    /// option keys shortened to the initials of their words. Not guaranteed unique on its own;
    /// ``configID`` is.
    package var shortName: String {
        let optionText = options.sorted { $0.key < $1.key }.map { key, value in
            let initials = key.split(separator: "-").compactMap(\.first).map(String.init).joined()
            return "\(initials)=\(value)"
        }.joined(separator: " ")
        let optionPart = optionText.isEmpty ? "" : "{\(optionText)}"
        // Calibration rows have no accuracy; empty parts leave no double spaces.
        return [pipeline.description, optionPart, videoID, "n\(thumbnailCount)", "h\(thumbHeight)", accuracy.description, phase.rawValue]
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// ``shortName`` followed by ``configID``: unique, readable, stable across runs.
    package var exportName: String { "\(shortName) #\(configID)" }
}
