import Foundation

/// A row type of a results file: it turns itself into one cell per column of
/// its schema and back.
package protocol ResultRecord: Sendable {
    associatedtype Column: ResultColumn
    /// The cell text of `column`.
    func cell(_ column: Column) -> String
    /// The row from its cells; throws ``CellError`` for a cell that does not parse.
    init(cells: (Column) -> String) throws(CellError)
}

/// A cell whose text is not a value of its column's type.
package struct CellError: Error, Sendable, Hashable {
    package var column: String
    package var text: String
}

/// Cell text for the value types of the schema, in one place so writing and
/// reading stay inverse of each other.
enum Cell {
    /// Shortest text that reads back as the same `Double` (Swift's description).
    static func text(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }
    static func text(_ value: Int?) -> String { value.map(String.init) ?? "" }
    static func text(_ value: Bool) -> String { value ? "true" : "false" }

    /// UTC, whole seconds: sub-second timestamps would claim a precision the
    /// run-level timestamp does not need.
    static func text(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }

    static func double<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> Double {
        guard let value = Double(text) else { throw CellError(column: column.rawValue, text: text) }
        return value
    }

    static func optionalDouble<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> Double? {
        text.isEmpty ? nil : try double(column, text)
    }

    static func int<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> Int {
        guard let value = Int(text) else { throw CellError(column: column.rawValue, text: text) }
        return value
    }

    static func optionalInt<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> Int? {
        text.isEmpty ? nil : try int(column, text)
    }

    static func bool<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> Bool {
        switch text {
        case "true": return true
        case "false": return false
        default: throw CellError(column: column.rawValue, text: text)
        }
    }

    static func date<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> Date {
        guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) else {
            throw CellError(column: column.rawValue, text: text)
        }
        return date
    }

    static func keyValues<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> [String: String] {
        guard let dictionary = KeyValueList.decode(text) else { throw CellError(column: column.rawValue, text: text) }
        return dictionary
    }

    static func options<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> RunOptions {
        guard let options = RunOptions(cell: text) else { throw CellError(column: column.rawValue, text: text) }
        return options
    }

    static func accuracy<C: ResultColumn>(_ column: C, _ text: String) throws(CellError) -> RowAccuracy {
        guard let accuracy = RowAccuracy(cell: text) else { throw CellError(column: column.rawValue, text: text) }
        return accuracy
    }

    static func enumeration<C: ResultColumn, E: RawRepresentable<String>>(
        _ column: C, _ text: String, as type: E.Type
    ) throws(CellError) -> E {
        guard let value = E(rawValue: text) else { throw CellError(column: column.rawValue, text: text) }
        return value
    }
}
