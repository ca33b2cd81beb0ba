import Foundation

/// The one rule for which run of a file a reader judges when a file holds several (`bench`
/// appends to the same file run after run, and files are joined by hand): for each
/// configuration, its newest run by time (the run's earliest row), never its position in
/// the file. `compare`, `export`, `report` and `plot` judge that run; `trend` and `report`'s
/// history order the runs the same way.
package enum NewestRun {
    /// Each run's start: the timestamp of its earliest row in `rows`, all builds together.
    package static func starts(of rows: [RawResultRow]) -> [String: Date] {
        var starts: [String: Date] = [:]
        for row in rows { starts[row.run.runID] = min(starts[row.run.runID] ?? row.timestamp, row.timestamp) }
        return starts
    }

    /// True when run `lhs` started before run `rhs` (ties: by run id, so the rule never depends on the file's order).
    package static func precedes(_ lhs: String, _ rhs: String, starts: [String: Date]) -> Bool {
        (starts[lhs] ?? .distantPast, lhs) < (starts[rhs] ?? .distantPast, rhs)
    }

    /// The rows of each configuration's newest run in `rows` (both builds of a two-build run),
    /// machine by machine (fingerprint id): another machine's run is not a newer one.
    package static func rows(_ rows: [RawResultRow]) -> [RawResultRow] {
        struct Key: Hashable {
            var machineID: String, configuration: ConfigurationKey
            init(_ row: RawResultRow) { (machineID, configuration) = (row.run.machine.id, row.configurationKey) }
        }
        let starts = starts(of: rows)
        var newest: [Key: String] = [:]
        for row in rows {
            let key = Key(row)
            if let current = newest[key], !precedes(current, row.run.runID, starts: starts) { continue }
            newest[key] = row.run.runID
        }
        return rows.filter { newest[Key($0)] == $0.run.runID }
    }
}
