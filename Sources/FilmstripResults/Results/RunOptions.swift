import Filmstrip

/// The `options` cell, parsed once: the settings a configuration ran with, as `key=value` pairs.
/// The keys this build writes have typed readers (``threads``, ``workers``, ...); keys from other
/// builds' files are kept as written, so a row read and written again keeps its cell and the
/// same configuration of two builds still pairs up.
package struct RunOptions: Sendable, Hashable, Codable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    package typealias Key = String
    package typealias Value = String
    /// The keys this build records.
    package enum Setting: String, Sendable, CaseIterable {
        // Extraction (``ExtractionOptions/fields``).
        case threads, workers, filter
        case skipNonReference = "skip-nonref", skipLoopFilter = "skip-loop-filter", keyframeOnly = "keyframe-only"
        // Interactive runs: the decoder pool, the cache's bytes (0: off), a soak's requests.
        case decoders, cache, requests
    }

    /// Every pair, by key.
    package private(set) var values: [String: String]

    package init(_ values: [String: String] = [:]) { self.values = values }

    package init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The extraction options as the library names them.
    package init(_ options: ExtractionOptions) {
        self.init(Dictionary(options.fields.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }))
    }

    /// The cell's pairs; nil when an entry has no `=` (``KeyValueList``).
    package init?(cell: String) {
        guard let values = KeyValueList.decode(cell) else { return nil }
        self.init(values)
    }

    /// `key=value;key=value`, keys sorted.
    package var cell: String { KeyValueList.encode(values) }
    /// The cell's form.
    package var description: String { cell }
    /// `key=value key=value`, keys sorted: for lines a person reads.
    package var spaced: String { values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }

    package var isEmpty: Bool { values.isEmpty }
    package var keys: Dictionary<String, String>.Keys { values.keys }
    package func makeIterator() -> Dictionary<String, String>.Iterator { values.makeIterator() }

    package subscript(setting: Setting) -> String? {
        get { values[setting.rawValue] }
        set { values[setting.rawValue] = newValue }
    }

    package subscript(name: String) -> String? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// The pairs `isIncluded` keeps.
    package func filter(_ isIncluded: ((key: String, value: String)) -> Bool) -> RunOptions { RunOptions(values.filter(isIncluded)) }

    /// Only the pairs of `settings`.
    package func keeping(_ settings: Set<Setting>) -> RunOptions { filter { pair in settings.contains { $0.rawValue == pair.key } } }

    /// Without `setting`.
    package func removing(_ setting: Setting) -> RunOptions { filter { $0.key != setting.rawValue } }

    /// Decoding threads per decoder; 1 when not recorded (as the library's default).
    package var threads: Int { self[.threads].flatMap(Int.init) ?? 1 }
    /// Extraction workers; nil when `auto` (one per core) or not recorded.
    package var workers: Int? { self[.workers].flatMap(Int.init) }
    /// `true` when the workers are `auto` or not recorded (the library's default).
    package var workersAreAutomatic: Bool { (self[.workers] ?? "auto") == "auto" }
    package var skipsNonReferenceFrames: Bool { self[.skipNonReference] == "1" }
    package var skipsLoopFilter: Bool { self[.skipLoopFilter] == "1" }
    /// A soak's superseding requests; nil for a session and every other kind.
    package var soakRequests: Int? { self[.requests].flatMap(Int.init) }

    /// `strip`'s settings when given none: one codec thread, the cost model's workers, the
    /// loop filter kept (a setting not recorded is the library's default).
    package var areStripDefaults: Bool {
        threads == 1 && workersAreAutomatic && !skipsLoopFilter
    }

    /// The keys that have more than one value among those of `options` that have them.
    package static func varyingKeys(among options: [RunOptions]) -> Set<String> {
        Set(options.flatMap(\.keys)).filter { key in Set(options.compactMap { $0.values[key] }).count > 1 }
    }

    /// The pairs every one of `options` has.
    package static func common(among options: [RunOptions]) -> RunOptions {
        guard let first = options.first else { return [:] }
        return first.filter { pair in options.allSatisfy { $0.values[pair.key] == pair.value } }
    }

    /// Encoded as the plain object of its pairs (`compare --json`, export).
    package init(from decoder: any Swift.Decoder) throws { values = try decoder.singleValueContainer().decode([String: String].self) }
    package func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}
