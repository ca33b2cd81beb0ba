import Filmstrip

/// A row's accuracy mode, parsed once where the row is made or read: the library's `Accuracy`,
/// or none for work that answers no request of slots (sprite runs, whose cell is empty). It is
/// ordered, printed and encoded as its text, the form the `accuracy` column holds, so a file
/// with a mode no build wrote fails when it is read, not somewhere later.
package struct RowAccuracy: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The mode; nil for rows without one.
    package let mode: Accuracy?

    package init(_ mode: Accuracy?) {
        self.mode = mode
    }

    /// The mode a cell names (`exact`, `keyframe`, `tolerance:…`; empty for none); nil for text
    /// that names no mode.
    package init?(cell text: String) {
        if text.isEmpty {
            self.init(nil)
            return
        }
        guard let mode = Accuracy(parsing: text) else { return nil }
        self.init(mode)
    }

    package static let exact = RowAccuracy(.exact)
    package static let keyframe = RowAccuracy(.keyframe)

    /// The cell's text.
    package var description: String { mode?.description ?? "" }

    package static func < (lhs: RowAccuracy, rhs: RowAccuracy) -> Bool { lhs.description < rhs.description }

    package init(from decoder: any Swift.Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let accuracy = RowAccuracy(cell: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no accuracy mode is called \(text)"))
        }
        self = accuracy
    }

    package func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension RowAccuracy: ExpressibleByStringLiteral {
    /// A mode written out in code (tests' rows): it must parse.
    package init(stringLiteral text: String) {
        guard let accuracy = RowAccuracy(cell: text) else { preconditionFailure("no accuracy mode is called \(text)") }
        self = accuracy
    }
}
