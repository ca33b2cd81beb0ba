/// A column of a results CSV file. The enums conforming to this are the single
/// source of truth for the schema: their case order is the column order, and
/// `results/README.md` is checked against their names.
package protocol ResultColumn: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// Unit of the column's values (`s`, `bytes`, `count`, … or `—` for text).
    var unit: String { get }
    /// What the column means, one sentence or two, for the README.
    var meaning: String { get }
    /// Columns added after files were first written: a reader accepts files without them.
    static var addedLater: Set<Self> { get }
}

extension ResultColumn {
    package static var addedLater: Set<Self> { [] }

    /// The header row: every column name, in order.
    package static var header: [String] { allCases.map(\.rawValue) }
}
