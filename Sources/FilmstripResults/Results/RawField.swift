import Foundation

/// How one column's cell is written from a row and read back into one. The raw file's schema
/// is the table ``RawColumn/fields``: one entry per column, used by ``RawResultRow/cell(_:)``
/// to write and by ``RawResultRow/init(cells:)`` to read, so the two directions cannot drift
/// apart and adding a column touches one table.
package struct RawField: Sendable {
    /// The cell's text for a row.
    let write: @Sendable (RawResultRow) -> String
    /// Sets the row's value from the cell's text; nil for the columns of a group that is read
    /// whole (the bound, interactive and sprite measures: whether the group is there at all
    /// depends on several of its cells).
    let read: (@Sendable (inout RawResultRow, RawColumn, String) throws(CellError) -> Void)?

    /// A stored value of the row, in `format`.
    static func stored<Value>(_ path: WritableKeyPath<RawResultRow, Value> & Sendable, _ format: CellFormat<Value>) -> RawField {
        RawField(write: { row in format.write(row[keyPath: path]) },
                 read: { (row: inout RawResultRow, column: RawColumn, text: String) throws(CellError) in
                     row[keyPath: path] = try format.read(column, text)
                 })
    }

    /// Text stored as it is.
    static func text(_ path: WritableKeyPath<RawResultRow, String> & Sendable) -> RawField { stored(path, .text) }

    /// A value of a group read whole (``read`` is nil): only written here.
    static func grouped(_ write: @escaping @Sendable (RawResultRow) -> String) -> RawField { RawField(write: write, read: nil) }
}

/// How a value of one type is written to a cell and read back from one (through ``Cell``, so the
/// two stay inverse of each other).
package struct CellFormat<Value>: Sendable {
    let write: @Sendable (Value) -> String
    let read: @Sendable (RawColumn, String) throws(CellError) -> Value
}

extension CellFormat where Value == String {
    static var text: Self { Self(write: { $0 }, read: { (_: RawColumn, text: String) throws(CellError) in text }) }
}

extension CellFormat where Value == Int {
    static var int: Self { Self(write: { Cell.text($0) }, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.int(column, text) }) }
}

extension CellFormat where Value == Int? {
    /// Empty for nil.
    static var int: Self {
        Self(write: { Cell.text($0) }, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.optionalInt(column, text) })
    }
}

extension CellFormat where Value == Double {
    static var double: Self {
        Self(write: { Cell.text($0) }, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.double(column, text) })
    }
}

extension CellFormat where Value == Double? {
    /// Empty for nil.
    static var double: Self {
        Self(write: { Cell.text($0) }, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.optionalDouble(column, text) })
    }
}

extension CellFormat where Value == Bool {
    static var bool: Self { Self(write: { Cell.text($0) }, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.bool(column, text) }) }
}

extension CellFormat where Value == Date {
    /// ISO 8601, UTC, whole seconds.
    static var date: Self { Self(write: { Cell.text($0) }, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.date(column, text) }) }
}

extension CellFormat where Value == [String: String] {
    /// `key=value;key=value`, keys sorted (``KeyValueList``).
    static var keyValues: Self {
        Self(write: { KeyValueList.encode($0) }, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.keyValues(column, text) })
    }
}

extension CellFormat where Value == RunOptions {
    /// `key=value;key=value`, keys sorted (``RunOptions/cell``).
    static var options: Self {
        Self(write: \.cell, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.options(column, text) })
    }
}

extension CellFormat where Value == RowAccuracy {
    /// The mode's text, empty for none; a mode no build wrote does not read.
    static var accuracy: Self {
        Self(write: { $0.description }, read: { (column: RawColumn, text: String) throws(CellError) in try Cell.accuracy(column, text) })
    }
}

extension CellFormat where Value == [String] {
    /// Words separated by spaces, sorted when read (as ``MachineFingerprint`` keeps them).
    static var sortedWords: Self {
        Self(write: { $0.joined(separator: " ") },
             read: { (_: RawColumn, text: String) throws(CellError) in text.split(separator: " ").map(String.init).sorted() })
    }
}

extension CellFormat where Value: RawRepresentable<String> & Sendable {
    /// The enumeration's raw value.
    static var enumeration: Self {
        Self(write: { $0.rawValue },
             read: { (column: RawColumn, text: String) throws(CellError) in try Cell.enumeration(column, text, as: Value.self) })
    }
}

extension CellFormat {
    /// An optional enumeration: empty for nil.
    static func optional<Wrapped: RawRepresentable<String> & Sendable>(_: Wrapped.Type) -> Self where Value == Wrapped? {
        Self(write: { $0?.rawValue ?? "" },
             read: { (column: RawColumn, text: String) throws(CellError) in
                 text.isEmpty ? nil : try Cell.enumeration(column, text, as: Wrapped.self)
             })
    }
}
