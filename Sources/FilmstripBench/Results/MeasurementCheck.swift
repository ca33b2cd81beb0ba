/// The one check every reader of results makes before it trusts a row's numbers: `compare`,
/// `report`, `export`, `plot` and `trend` all refuse a file with a value no run can measure,
/// so a hand-edited or corrupted file fails with one line instead of drawing, ranking or
/// gating on it.
public enum MeasurementCheck {
    /// The first `ok` row of `rows` whose metric value cannot be a measurement (not finite,
    /// negative, or a wall time or rate that is not positive), described with `path`; nil when
    /// every value is plausible.
    public static func firstImplausibleValue(in rows: [RawResultRow], path: String) -> String? {
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
    public static func readMeasurements(from path: String) throws(ResultsFileError) -> [RawResultRow] {
        let rows = try read(RawResultRow.self, from: path)
        if let problem = MeasurementCheck.firstImplausibleValue(in: rows, path: path) {
            throw .notAMeasurement(path: path, reason: problem)
        }
        return rows
    }
}
