/// The compact `key=value;key=value` form of string dictionaries in one CSV
/// cell (strategy options, FFmpeg versions). Keys are sorted so equal
/// dictionaries give equal cells. Keys must not contain `=` or `;`, values must
/// not contain `;`.
package enum KeyValueList {
    package static func encode(_ dictionary: [String: String]) -> String {
        dictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
    }

    /// The dictionary in `text`, or `nil` when an entry has no `=`.
    package static func decode(_ text: String) -> [String: String]? {
        var result: [String: String] = [:]
        for entry in text.split(separator: ";") {
            guard let equals = entry.firstIndex(of: "=") else { return nil }
            result[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return result
    }
}
