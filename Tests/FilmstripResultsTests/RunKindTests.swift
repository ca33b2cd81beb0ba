import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// The `kind` column: written by the runner, inferred once when an older file is read.
struct RunKindTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A committed file from before the column: every kind the runner then wrote comes back.
    @Test func olderFileLoadsWithInferredKinds() throws {
        let path = Self.repository.appendingPathComponent("results/full-peers-epyc-2c-raw.csv").path
        let header = try String(contentsOfFile: path, encoding: .utf8).prefix { $0 != "\n" }
        #expect(!header.split(separator: ",").contains("kind"), "the file must predate the column")
        let rows = try ResultsFileReader.read(RawResultRow.self, from: path)
        let counts = Dictionary(grouping: rows, by: \.kind).mapValues(\.count)
        #expect(counts == [.pipeline: 837, .calibrationCopy: 3, .calibrationDecode: 3, .syntheticComposition: 18,
                           .memcpyFloor: 3, .peer: 165, .wholeProcess: 84])
        #expect(rows.filter { $0.kind == .calibrationCopy }.allSatisfy { $0.video.id == "none" && $0.phase == .calibration })
        #expect(rows.filter { $0.kind == .wholeProcess }.allSatisfy { $0.pipeline.description.hasPrefix("cli:") })
        #expect(rows.filter { $0.kind == .memcpyFloor }.allSatisfy { $0.pipeline.composer == "memcpy" && $0.phase == .compose })
    }

    /// A file written now carries the column, and each row reads back with the kind it was written with,
    /// even where the placeholders would say otherwise.
    @Test func newFileRoundTripsKinds() throws {
        let path = Fixtures.temporaryPath("raw.csv")
        let rows = RunKind.allCases.enumerated().map { index, kind in
            var row = Fixtures.row(repetition: index)
            row.kind = kind
            return row
        }
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path)
            for row in rows { try writer.append(row) }
        }
        let header = try String(contentsOfFile: path, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.split(separator: ",").contains("kind"))
        let read = try ResultsFileReader.read(RawResultRow.self, from: path)
        #expect(read.map(\.kind) == RunKind.allCases)
        #expect(read == rows)
    }

    /// Summary rows carry the kind too, so the fastest table and the plots ask it.
    @Test func summaryKeepsTheKind() throws {
        var row = Fixtures.row(phase: .compose)
        row.kind = .syntheticComposition
        let summary = SummaryRow.summarize([row], metrics: [.wallSeconds])
        let path = Fixtures.temporaryPath("summary.csv")
        do {
            let writer = try ResultsFileWriter<SummaryRow>(path: path, durable: false)
            for row in summary { try writer.append(row) }
        }
        #expect(try ResultsFileReader.read(SummaryRow.self, from: path).map(\.configurationKey.kind) == [.syntheticComposition])
        #expect(FastestTable.text(summary).contains("sequential+memcpy"))
    }
}
