import Foundation
import Testing
@testable import FilmstripBench

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
