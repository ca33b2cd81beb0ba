import Filmstrip
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// The run's bound in the bench rows: its columns survive a file, `strip --stats`' line is
/// read into them, and `export --format bounds` puts the default pipeline beside its bound.
@Suite struct BoundColumnsTests {
    static func row(_ pipeline: String, phase: Phase, options: [String: String], wall: Double, bound: PhaseBound?,
                    repetition: Int = 0) -> RawResultRow {
        var row = Fixtures.row(pipeline: pipeline, phase: phase, repetition: repetition, wall: wall)
        row.options = RunOptions(options)
        row.bound = bound
        return row
    }

    static let defaultOptions = ["threads": "1", "workers": "auto", "skip-loop-filter": "0", "skip-nonref": "1", "filter": "area"]

    @Test func boundColumnsRoundTripAndOlderRowsReadEmpty() throws {
        let path = Fixtures.temporaryPath("raw.csv")
        let rows = [
            Self.row("taskgroup+fused", phase: .total, options: Self.defaultOptions, wall: 6.8,
                     bound: PhaseBound(startupCPUSeconds: nil, cpuOverCoresSeconds: 6.4, longestWorkerSeconds: 6.1, workers: 2)),
            Self.row("cli:taskgroup+fused", phase: .peer, options: Self.defaultOptions, wall: 6.9,
                     bound: PhaseBound(startupCPUSeconds: 0.036, cpuOverCoresSeconds: 6.4, longestWorkerSeconds: 6.5, workers: 2)),
            Self.row("ffmpeg-exact", phase: .peer, options: [:], wall: 11, bound: nil),
        ]
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
            for row in rows { try writer.append(row) }
        }
        let read = try ResultsFileReader.read(RawResultRow.self, from: path)
        #expect(read == rows)
        #expect(read[1].bound?.boundSeconds == 0.036 + 6.5)
        #expect(read[0].cell(.startupCPUSeconds).isEmpty && read[2].cell(.boundSeconds).isEmpty)
    }

    @Test func statsLineOfTheCommandLineGivesTheWholeProcessBound() throws {
        var counters = DecodeCounters()
        counters.workers = 3
        counters.longestWorkerSeconds = 1.5
        let run = RunBound(counters: counters, startupCPUSeconds: 0.04, processCPUSeconds: 2.04, cores: 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let line = String(decoding: try encoder.encode(run.measurements.merging(["extract_s": 1]) { $1 }), as: UTF8.self)
        let bound = try #require(PhaseBound(statsLine: line))
        #expect(bound.startupCPUSeconds == 0.04 && bound.cpuOverCoresSeconds == 1 && bound.workers == 3)
        #expect(abs(bound.boundSeconds - run.boundSeconds) < 1e-12)
        #expect(PhaseBound(statsLine: "{\"extract_s\": 1}") == nil)
        // A worker count no Int holds is a line not to believe, not a trap in the bench parent.
        let absurd = line.replacingOccurrences(of: "\"workers\":3", with: "\"workers\":1e300")
        #expect(absurd != line && PhaseBound(statsLine: absurd) == nil)
    }

    @Test func boundsTableShowsOnlyTheDefaultPipelineBesideItsBoundAndTheCLI() throws {
        let inProcess = PhaseBound(startupCPUSeconds: nil, cpuOverCoresSeconds: 6.0, longestWorkerSeconds: 5.0, workers: 2)
        let whole = PhaseBound(startupCPUSeconds: 0.5, cpuOverCoresSeconds: 6.0, longestWorkerSeconds: 5.5, workers: 2)
        var loopFilterSkipped = Self.defaultOptions
        loopFilterSkipped["skip-loop-filter"] = "1"
        let rows = (0..<3).flatMap { repetition in [
            Self.row("taskgroup+fused", phase: .total, options: Self.defaultOptions, wall: 6.6, bound: inProcess, repetition: repetition),
            Self.row("cli:taskgroup+fused", phase: .peer, options: Self.defaultOptions, wall: 7.0, bound: whole, repetition: repetition),
            Self.row("cli:taskgroup+fused", phase: .peer, options: loopFilterSkipped, wall: 5.0, bound: whole, repetition: repetition),
            Self.row("ffmpeg-exact", phase: .peer, options: [:], wall: 14.0, bound: nil, repetition: repetition),
        ] }
        let table = try ResultsExport.render(ResultsExport.configurations(from: rows), as: .bounds)
        let lines = table.split(separator: "\n").filter { $0.hasPrefix("| clip-1080p") }
        #expect(lines == ["| clip-1080p | 500 | exact | 7.00 | 6.50 | 1.08× | 6.60 | 6.00 | 1.10× | 14.00 | 2.00× |"], "\(table)")
    }
}
