import Foundation

/// The one check every reader of results makes before it trusts a row's numbers: `compare`,
/// `report`, `export`, `plot` and `trend` all refuse a file with a value no run can measure,
/// so a hand-edited or corrupted file fails with one line instead of drawing, ranking or
/// gating on it.
package enum MeasurementCheck {
    /// The first `ok` row of `rows` whose metric value cannot be a measurement (not finite,
    /// negative, or a wall time or rate that is not positive), described with `path`; nil when
    /// every value is plausible.
    package static func firstImplausibleValue(in rows: [RawResultRow], path: String) -> String? {
        for row in rows where row.status == .ok {
            for metric in Metric.allCases {
                guard let value = metric.value(in: row) else { continue }
                let positive = metric == .wallSeconds || metric == .thumbnailsPerSecond
                if !value.isFinite || (positive && value <= 0) || value < 0 {
                    return "\(path): \(row.configurationKey) repetition \(row.repetition): \(metric.rawValue) is \(value), not a measurement"
                }
            }
        }
        return nil
    }
}

extension ResultsFileReader {
    /// The raw rows of the file at `path`, refused (``ResultsFileError/notAMeasurement(path:reason:)``)
    /// when one holds a value no run can measure (``MeasurementCheck``).
    /// A repetition recorded twice with the same values (a file joined twice) is kept once; with
    /// different values it is refused (``ResultsFileError/conflictingRepetition(path:record:earlierRecord:repetition:)``).
    package static func readMeasurements(from path: String) throws(ResultsFileError) -> [RawResultRow] {
        try measurements(try readRecords(RawResultRow.self, from: path), path: path)
    }

    /// The records of the file at `path` (``readRecords(_:from:)``) checked as measurements, as
    /// ``readMeasurements(from:)`` checks them.
    package static func measurements(_ records: [(record: Int, row: RawResultRow)], path: String) throws(ResultsFileError) -> [RawResultRow] {
        let rows = try uniqueRepetitions(records, path: path)
        if let problem = MeasurementCheck.firstImplausibleValue(in: rows, path: path) {
            throw .notAMeasurement(path: path, reason: problem)
        }
        return rows
    }

    /// `records`' rows, each repetition once: a second record of the same run, build,
    /// configuration and repetition index is dropped when it equals the first and refused when
    /// it does not.
    static func uniqueRepetitions(_ records: [(record: Int, row: RawResultRow)], path: String) throws(ResultsFileError) -> [RawResultRow] {
        struct Repetition: Hashable {
            var runID: String, build: BuildRole?, key: ConfigurationKey, index: Int
        }
        var first: [Repetition: (record: Int, row: RawResultRow)] = [:]
        var rows: [RawResultRow] = []
        rows.reserveCapacity(records.count)
        for (record, row) in records {
            let repetition = Repetition(runID: row.run.runID, build: row.build, key: row.configurationKey, index: row.repetition)
            if let earlier = first[repetition] {
                guard earlier.row == row else {
                    throw .conflictingRepetition(path: path, record: record, earlierRecord: earlier.record,
                                                 repetition: "repetition \(row.repetition) of \(row.configurationKey) in run \(row.run.runID)"
                                                     + (row.build.map { " (\($0.rawValue) build)" } ?? ""))
                }
                continue
            }
            first[repetition] = (record, row)
            rows.append(row)
        }
        return rows
    }
}
