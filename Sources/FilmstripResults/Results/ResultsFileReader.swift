import CSV
import Foundation

/// Reads a results file back into rows, checking its header against the schema.
package enum ResultsFileReader {
    /// The rows of the file at `path`.
    ///
    /// Columns may appear in any order, but the set of column names must equal
    /// the schema's; otherwise ``ResultsFileError/headerMismatch(path:missing:unknown:)``
    /// names the difference.
    package static func read<Row: ResultRecord>(_ type: Row.Type, from path: String) throws(ResultsFileError) -> [Row] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, operation: "read", errno: errno)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .malformed(path: path, reason: "not UTF-8")
        }
        return try parse(type, text: text, path: path)
    }

    /// The rows in `text`; `path` names the source in errors.
    package static func parse<Row: ResultRecord>(_ type: Row.Type, text: String, path: String) throws(ResultsFileError) -> [Row] {
        try parseRecords(type, text: text, path: path).map(\.row)
    }

    /// The rows of the file at `path` with their record numbers (the header is record 1).
    package static func readRecords<Row: ResultRecord>(_ type: Row.Type, from path: String) throws(ResultsFileError) -> [(record: Int, row: Row)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, operation: "read", errno: errno)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .malformed(path: path, reason: "not UTF-8")
        }
        return try parseRecords(type, text: text, path: path)
    }

    static func parseRecords<Row: ResultRecord>(_ type: Row.Type, text: String, path: String) throws(ResultsFileError) -> [(record: Int, row: Row)] {
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw .malformed(path: path, reason: "no header row")
        }
        let header = reader.headerRow ?? []
        try checkHeader(header, of: Row.self, path: path, allowingOlderFiles: true)
        let indexOf = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })

        var rows: [(record: Int, row: Row)] = []
        var record = 1
        while let cells = reader.next() {
            record += 1
            // A blank line (e.g. a file ending in two newlines) is not a record.
            if cells == [""] { continue }
            guard cells.count == header.count else {
                throw .wrongCellCount(path: path, record: record, expected: header.count, found: cells.count)
            }
            do {
                rows.append((record, try Row(cells: { indexOf[$0.rawValue].map { cells[$0] } ?? "" })))
            } catch {
                throw .badCell(path: path, record: record, column: error.column, text: error.text)
            }
        }
        if let error = reader.error {
            throw .malformed(path: path, reason: "\(error)")
        }
        return rows
    }

    /// Throws unless `header` names exactly the columns of `Row`'s schema (with
    /// `allowingOlderFiles`, less those added later).
    static func checkHeader<Row: ResultRecord>(_ header: [String], of type: Row.Type, path: String,
                                               allowingOlderFiles: Bool = false) throws(ResultsFileError) {
        let expected = Row.Column.header
        let optional = allowingOlderFiles ? Set(Row.Column.addedLater.map(\.rawValue)) : []
        let missing = expected.filter { !header.contains($0) && !optional.contains($0) }
        let unknown = header.filter { !expected.contains($0) }
        // Duplicates would make the cell lookup ambiguous; report them as unknown.
        let duplicates = Dictionary(grouping: header, by: { $0 }).filter { $1.count > 1 }.keys.sorted()
        if !missing.isEmpty || !unknown.isEmpty || !duplicates.isEmpty {
            throw .headerMismatch(path: path, missing: missing, unknown: unknown + duplicates)
        }
    }
}
