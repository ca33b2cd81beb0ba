import Glibc

/// Why a results file could not be read or appended to.
package enum ResultsFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened, read or written; `errno` is the system's code (0 when not from a syscall).
    case io(path: String, operation: String, errno: Int32)
    /// The file is not valid UTF-8 CSV.
    case malformed(path: String, reason: String)
    /// The header does not match the schema.
    case headerMismatch(path: String, missing: [String], unknown: [String])
    /// A data row has a different number of cells than the header (`record` is 1-based, the header being record 1).
    case wrongCellCount(path: String, record: Int, expected: Int, found: Int)
    /// A cell does not parse as its column's type.
    case badCell(path: String, record: Int, column: String, text: String)
    /// A row holds a value no run can measure (a negative or infinite time); `reason` names it and the file.
    case notAMeasurement(path: String, reason: String)
    /// Two records of one repetition (same run, build, configuration and repetition index) with
    /// different values: which one was measured cannot be told.
    case conflictingRepetition(path: String, record: Int, earlierRecord: Int, repetition: String)

    package var description: String {
        switch self {
        case .io(let path, let operation, let errno):
            "\(path): cannot \(operation): \(String(cString: strerror(errno)))"
        case .malformed(let path, let reason):
            "\(path): not a readable CSV file: \(reason)"
        case .headerMismatch(let path, let missing, let unknown):
            "\(path): header does not match the schema; missing columns: "
                + (missing.isEmpty ? "none" : missing.joined(separator: ", "))
                + "; unknown columns: " + (unknown.isEmpty ? "none" : unknown.joined(separator: ", "))
        case .wrongCellCount(let path, let record, let expected, let found):
            "\(path): record \(record) has \(found) cells, expected \(expected)"
        case .badCell(let path, let record, let column, let text):
            "\(path): record \(record): column \(column) cannot hold \"\(text)\""
        case .notAMeasurement(_, let reason):
            reason
        case .conflictingRepetition(let path, let record, let earlierRecord, let repetition):
            "\(path): record \(record): \(repetition) is already in record \(earlierRecord) with other values; a repetition is measured once, so one of them is wrong"
        }
    }
}
