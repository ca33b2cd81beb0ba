/// A raw results file read once: its rows as written (what a run recorded: machines, gate
/// settings) and, checked (``ResultsFileReader/measurements(_:path:)``), the measurements a gate
/// judges; or why it could not be read.
package struct RawResultsFile {
    package let path: String
    /// The file's records in order, or why it could not be read.
    package let records: Result<[(record: Int, row: RawResultRow)], ResultsFileError>

    package init(path: String) {
        self.path = path
        records = Result { () throws(ResultsFileError) -> [(record: Int, row: RawResultRow)] in
            try ResultsFileReader.readRecords(RawResultRow.self, from: path)
        }
    }

    /// Rows already read or made (a test's file in memory), judged as if read from `path`.
    package init(path: String, rows: [RawResultRow]) {
        self.path = path
        records = .success(rows.enumerated().map { (record: $0.offset + 1, row: $0.element) })
    }

    /// Every row as written; nil when the file could not be read.
    package var rows: [RawResultRow]? { (try? records.get())?.map(\.row) }

    /// The rows as ``ResultsFileReader/readMeasurements(from:)`` gives them, or why not.
    package var measurements: Result<[RawResultRow], ResultsFileError> {
        records.flatMap { records in
            Result { () throws(ResultsFileError) -> [RawResultRow] in try ResultsFileReader.measurements(records, path: path) }
        }
    }
}
