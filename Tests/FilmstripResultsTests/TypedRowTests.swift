import CSV
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults

/// What ran and its options, parsed once into ``PipelineName`` and ``RunOptions``: every row the
/// project has committed parses into the form it was written in and writes its cells back unchanged.
struct TypedRowTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every committed raw file, its cells read by the CSV library (not the project's reader),
    /// against the rows the project's reader makes of it.
    @Test func committedRowsKeepTheirCells() throws {
        let folder = Self.repository.appendingPathComponent("results")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix("-raw.csv") }.sorted()
        #expect(files.count >= 10)
        var rowsChecked = 0, kindsSeen = Set<String>()
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let rows = try ResultsFileReader.read(RawResultRow.self, from: path)
            let reader = try CSVReader(string: try String(contentsOfFile: path, encoding: .utf8), hasHeaderRow: true)
            for row in rows {
                let cells = try #require(reader.next(), "\(file): fewer records than rows")
                let header = try #require(reader.headerRow)
                func cell(_ column: RawColumn) -> String { cells[header.firstIndex(of: column.rawValue)!] }
                #expect(row.cell(.pipeline) == cell(.pipeline) && row.cell(.extractor) == cell(.extractor)
                        && row.cell(.composer) == cell(.composer) && row.cell(.options) == cell(.options), "\(file): \(cells)")
                if case .other = row.pipeline { Issue.record("\(file): \(cell(.pipeline)) read in no form the runner writes") }
                kindsSeen.insert(Self.caseName(row.pipeline))
                rowsChecked += 1
            }
        }
        #expect(rowsChecked > 5_000)
        // No sprite run's raw file is committed; `InteractiveAndSpriteKindTests` writes and reads one.
        #expect(kindsSeen.isSuperset(of: ["strategies", "commandLine", "peer", "interactive"]), "\(kindsSeen)")
    }

    @Test func cellsParseIntoTheirForms() {
        #expect(PipelineName(pipeline: "forward+rowcopy", extractor: "forward", composer: "rowcopy") == .strategies(extractor: "forward", composer: "rowcopy"))
        #expect(PipelineName(pipeline: "cli:taskgroup+fused", extractor: "taskgroup", composer: "fused") == .commandLine(extractor: "taskgroup", composer: "fused"))
        #expect(PipelineName(pipeline: "ffmpeg-exact", extractor: "peer", composer: "ffmpeg-exact") == .peer(.ffmpegExact))
        #expect(PipelineName(pipeline: "interactive:standard", extractor: "standard", composer: "generator") == .interactive(strategy: "standard"))
        #expect(PipelineName(pipeline: "sprite:filmstrip", extractor: "filmstrip", composer: "sheet") == .sprite(contender: "filmstrip"))
        // Parts that disagree with the pipeline cell (a hand-made or foreign row) are kept as they are.
        let foreign = PipelineName(pipeline: "forward+rowcopy", extractor: "forward", composer: "simd")
        #expect(foreign == .other(pipeline: "forward+rowcopy", extractor: "forward", composer: "simd"))
        #expect(foreign.description == "forward+rowcopy" && foreign.extractor == "forward" && foreign.composer == "simd")
        #expect(PipelineName(cell: "some-new-tool") == .other(pipeline: "some-new-tool", extractor: "", composer: ""))
    }

    @Test func optionsReadTheirSettings() throws {
        let options = try #require(RunOptions(cell: "filter=area;keyframe-only=0;skip-loop-filter=0;skip-nonref=1;threads=2;workers=auto"))
        #expect(options.threads == 2 && options.workers == nil && options.workersAreAutomatic && options.skipsNonReferenceFrames)
        #expect(!options.skipsLoopFilter && options.areStripDefaults == false)
        #expect(options.cell == "filter=area;keyframe-only=0;skip-loop-filter=0;skip-nonref=1;threads=2;workers=auto")
        #expect(options.keeping([.threads, .workers]).spaced == "threads=2 workers=auto")
        #expect(RunOptions(cell: "threads") == nil)
        let swept: [RunOptions] = [["threads": "1", "workers": "1"], ["threads": "1", "workers": "4"], ["threads": "1"]]
        #expect(RunOptions.varyingKeys(among: swept) == ["workers"])
        #expect(RunOptions.common(among: swept) == ["threads": "1"])
        // Encoded as the plain object of its pairs, as `compare --json` always wrote options.
        let json = try JSONEncoder().encode(RunOptions(["threads": "1"]))
        #expect(String(decoding: json, as: UTF8.self) == #"{"threads":"1"}"#)
    }

    private static func caseName(_ pipeline: PipelineName) -> String {
        switch pipeline {
        case .strategies: "strategies"
        case .commandLine: "commandLine"
        case .peer: "peer"
        case .interactive: "interactive"
        case .sprite: "sprite"
        case .other: "other"
        }
    }
}
