import Foundation

/// The one writer of the JSON documents the harness prints (`compare --format json`, the
/// exports): pretty-printed, keys sorted, slashes unescaped, so a diff of two outputs shows
/// what changed and a path reads as typed.
package enum JSONText {
    /// `document` as JSON text. Throws `EncodingError` for a value JSON cannot hold (a
    /// non-finite number read from a hand-edited file).
    package static func encoded(_ document: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }
}

/// An optional written as `null` when absent, never left out: the documents' readers (jq
/// filters, dashboards) find every documented key in every object. A synthesized `Encodable`
/// skips a nil optional; this wrapper makes it write the key.
@propertyWrapper
package struct NullWhenAbsent<Value: Encodable & Sendable>: Encodable, Sendable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
