import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

struct ResultsFileTests {
    @Test func rawRoundTripKeepsAwkwardText() throws {
        let path = Fixtures.temporaryPath("raw.csv")
        var failed = Fixtures.row(repetition: 1, wall: nil, status: .error, error: "decode failed, \"bad\" packet\nat pts 1,2\r\nend")
        failed.cpuUserSeconds = nil
        failed.thumbnailsPerSecond = nil
        failed.options = [:]
        let rows = [Fixtures.row(repetition: 0, wall: 0.1 + 0.2), failed]
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path)
            for row in rows { try writer.append(row) }
        }
        let read = try ResultsFileReader.read(RawResultRow.self, from: path)
        #expect(read == rows)
    }

    @Test func summaryRoundTrip() throws {
        let path = Fixtures.temporaryPath("summary.csv")
        let rows = SummaryRow.summarize(Fixtures.rows([0.5, 0.1, 0.11, 0.09, 0.1, 0.105, 0.095]))
        // Every metric but instructions (time runs do not count them) and the waiting ones (the
        // fixture rows, as files written before issue 47, have no waiting columns).
        #expect(rows.count == Metric.allCases.count - 3)
        #expect(rows.first { $0.metric == .wallSeconds }?.warnings == [.slowFirstRun, .outliers(count: 1)])
        do {
            let writer = try ResultsFileWriter<SummaryRow>(path: path, durable: false)
            for row in rows { try writer.append(row) }
        }
        #expect(try ResultsFileReader.read(SummaryRow.self, from: path) == rows)
    }

    @Test func summarizeSkipsFailedRunsAndGroupsByConfiguration() {
        let rows = Fixtures.rows([1, 2, 3]) + Fixtures.rows([4, 5], pipeline: "forward+simd")
            + [Fixtures.row(repetition: 3, wall: nil, status: .error, error: "boom")]
        let wall = SummaryRow.summarize(rows, metrics: [.wallSeconds])
        #expect(wall.map(\.configurationKey.pipeline) == ["forward+simd", "sequential+memcpy"])
        #expect(wall.map(\.n) == [2, 3])
        #expect(wall.map(\.median) == [4.5, 2])
    }

    @Test func appendingToAnExistingFileWritesOneHeader() throws {
        let path = Fixtures.temporaryPath("raw.csv")
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path)
            try writer.append(Fixtures.row(repetition: 0))
            try writer.append(Fixtures.row(repetition: 1))
        }
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path)
            try writer.append(Fixtures.row(repetition: 2))
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("run_id,") }.count == 1)
        #expect(text.hasSuffix("\n"))
        #expect(try ResultsFileReader.read(RawResultRow.self, from: path).map(\.repetition) == [0, 1, 2])
    }

    @Test func headerMismatchNamesTheColumns() throws {
        let path = Fixtures.temporaryPath("raw.csv")
        let header = RawColumn.header.filter { $0 != "wall_s" } + ["bogus"]
        try (header.joined(separator: ",") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ResultsFileError.headerMismatch(path: path, missing: ["wall_s"], unknown: ["bogus"])) {
            try ResultsFileReader.read(RawResultRow.self, from: path)
        }
        #expect(throws: ResultsFileError.headerMismatch(path: path, missing: ["wall_s"], unknown: ["bogus"])) {
            _ = try ResultsFileWriter<RawResultRow>(path: path)
        }
        // A summary file is not a raw file either.
        let summaryPath = Fixtures.temporaryPath("summary.csv")
        _ = try ResultsFileWriter<SummaryRow>(path: summaryPath)
        #expect(throws: ResultsFileError.self) { try ResultsFileReader.read(RawResultRow.self, from: summaryPath) }
    }

    @Test func badCellIsReportedWithItsColumn() throws {
        let path = Fixtures.temporaryPath("raw.csv")
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path)
            try writer.append(Fixtures.row())
        }
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: ",total,", with: ",warmup,")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ResultsFileError.badCell(path: path, record: 2, column: "phase", text: "warmup")) {
            try ResultsFileReader.read(RawResultRow.self, from: path)
        }
    }

    @Test func readmeDocumentsEveryColumn() throws {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("results/README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for column in RawColumn.allCases {
            #expect(text.contains("| `\(column.rawValue)` | \(column.unit) | \(column.meaning) |"), "raw column \(column.rawValue)")
        }
        for column in SummaryColumn.allCases {
            #expect(text.contains("| `\(column.rawValue)` | \(column.unit) | \(column.meaning) |"), "summary column \(column.rawValue)")
        }
    }

    @Test func keyValueLists() {
        #expect(KeyValueList.encode(["b": "2", "a": "x=1"]) == "a=x=1;b=2")
        #expect(KeyValueList.decode("a=x=1;b=2") == ["a": "x=1", "b": "2"])
        #expect(KeyValueList.decode("") == [:])
        #expect(KeyValueList.decode("novalue") == nil)
    }
}
