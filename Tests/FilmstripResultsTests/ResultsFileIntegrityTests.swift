import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// A results file holds whole records only, whatever happens to the writers.
struct ResultsFileIntegrityTests {
    static func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func failedWriteIsTruncatedToTheLastCompleteRow() throws {
        let path = Fixtures.temporaryPath("full-raw.csv")
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
            try writer.append(Fixtures.row(repetition: 0))
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        // The disk fills up 40 bytes into the next row.
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false, simulatedDiskSize: size + 40)
        #expect(throws: ResultsFileError.io(path: path, operation: "write", errno: ENOSPC)) {
            try writer.append(Fixtures.row(repetition: 1))
        }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
        #expect(try ResultsFileReader.read(RawResultRow.self, from: path).map(\.repetition) == [0])
        #expect(ResultsFileError.io(path: path, operation: "write", errno: ENOSPC).description.hasSuffix("cannot write: No space left on device"))
    }

    @Test func incompleteLastRecordIsDroppedBeforeAppending() throws {
        let path = Fixtures.temporaryPath("torn-raw.csv")
        var awkward = Fixtures.row(repetition: 1, wall: nil, status: .error, error: "two\nlines, \"quoted\"")
        awkward.cpuUserSeconds = nil
        awkward.thumbnailsPerSecond = nil
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
            try writer.append(Fixtures.row(repetition: 0))
            try writer.append(awkward)
        }
        let complete = try Self.contents(path)
        // A crash mid-row, cut just after the line end inside the quoted error cell.
        let torn = complete + String(complete.split(separator: "\n", omittingEmptySubsequences: false)[2]) + "\n"
            + "run-1,2023"
        try torn.write(toFile: path, atomically: false, encoding: .utf8)
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        #expect(writer.repairs.count == 1 && writer.repairs[0].contains("incomplete last record"))
        try writer.append(Fixtures.row(repetition: 2))
        #expect(try ResultsFileReader.read(RawResultRow.self, from: path).map(\.repetition) == [0, 1, 2])
        // A whole file needs no repair.
        #expect(try ResultsFileWriter<RawResultRow>(path: path, durable: false).repairs.isEmpty)
    }

    @Test func concurrentWritersWriteOneHeaderAndWholeRows() async throws {
        let path = Fixtures.temporaryPath("shared-raw.csv")
        await withTaskGroup(of: Void.self) { group in
            for writerIndex in 0..<8 {
                group.addTask {
                    guard let writer = try? ResultsFileWriter<RawResultRow>(path: path, durable: false) else { return }
                    for repetition in 0..<20 { try? writer.append(Fixtures.row(repetition: writerIndex * 100 + repetition)) }
                }
            }
        }
        let text = try Self.contents(path)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("run_id,") }.count == 1)
        #expect(try ResultsFileReader.read(RawResultRow.self, from: path).count == 160)
    }
}

/// Which run of a file is judged, and repetitions recorded twice: one rule for every reader.
struct RunSelectionTests {
    /// Two runs of the same configurations on one machine: `older` at wall 0.1 s, `newer` at
    /// 0.3 s, with the newer run written *first* (a file joined by hand, `cat new old`).
    static func outOfOrderFile(pipeline: String = "forward+rowcopy") throws -> String {
        let path = Fixtures.temporaryPath("joined-raw.csv")
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        for (runID, day, wall) in [("run-new", 2.0, 0.3), ("run-old", 1.0, 0.1)] {
            for repetition in 0..<6 {
                var row = Fixtures.row(pipeline: pipeline, repetition: repetition, wall: wall * (1 + 0.01 * Double(repetition)))
                row.run.runID = runID
                row.run.gitCommit = runID == "run-new" ? "bbbbbbb" : "aaaaaaa"
                row.timestamp = Date(timeIntervalSince1970: 1_750_000_000 + day * 86_400 + Double(repetition))
                try writer.append(row)
            }
        }
        return path
    }

    /// Before: `export` took the newest run by time and `compare` the last one in the file;
    /// now both (and `plot`) judge the newest by time, whatever the file's order.
    @Test func everyReaderJudgesTheNewestRunByTime() throws {
        let path = try Self.outOfOrderFile()
        let rows = try ResultsFileReader.readMeasurements(from: path)
        #expect(Set(NewestRun.rows(rows).map(\.run.runID)) == ["run-new"])
        let exported = ResultsExport.configurations(from: rows)
        #expect(exported.map(\.runID) == ["run-new"])
        // A candidate file equal to the newest run compares as the same; against the older run it would be 3× slower.
        let candidate = Fixtures.temporaryPath("candidate-raw.csv")
        let writer = try ResultsFileWriter<RawResultRow>(path: candidate, durable: false)
        for row in rows where row.run.runID == "run-new" {
            var copy = row
            copy.run.runID = "run-candidate"
            copy.timestamp += 86_400
            try writer.append(copy)
        }
        let report = RegressionGate(metric: .wallSeconds, threshold: 0.05).compareFiles(baselinePath: path, candidatePath: candidate)
        #expect(report.comparisons.allSatisfy { $0.verdict != .slower }, "\(report.comparisons.map(\.verdict))")
        let reversed = RegressionGate(metric: .wallSeconds, threshold: 0.05).compareFiles(baselinePath: candidate, candidatePath: path)
        #expect(reversed.comparisons.allSatisfy { $0.verdict != .faster }, "\(reversed.comparisons.map(\.verdict))")
    }

    /// The same repetition twice with other values is refused with one line naming the file
    /// and both records; twice with the same values (a file appended to itself) is read once.
    @Test func conflictingRepetitionsAreRefused() throws {
        let path = Fixtures.temporaryPath("twice-raw.csv")
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        let rows = Fixtures.rows([0.2, 0.21, 0.22], pipeline: "scan+simd", phase: .extract)
        for row in rows + rows { try writer.append(row) }
        #expect(try ResultsFileReader.readMeasurements(from: path).count == 3)

        var changed = rows[1]
        changed.wallSeconds = 0.9
        try writer.append(changed)
        do {
            _ = try ResultsFileReader.readMeasurements(from: path)
            Issue.record("a conflicting repetition was accepted")
        } catch {
            #expect(error == .conflictingRepetition(path: path, record: 8, earlierRecord: 3,
                                                    repetition: "repetition 1 of \(rows[1].configurationKey) in run run-1"))
            #expect(error.description.hasPrefix("\(path): record 8: repetition 1 of scan+simd") && !error.description.contains("\n"))
        }
    }
}
