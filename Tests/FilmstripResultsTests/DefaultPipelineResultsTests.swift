import Filmstrip
import FilmstripResults
import Foundation
import ResultsTestSupport
import Testing

/// The default pipeline is chosen from measurement; this re-checks that choice against every
/// committed results file, so a new result that dethrones it fails here instead of going unseen.
@Suite("The default pipeline against the committed results")
struct DefaultPipelineResultsTests {
    /// Medians within this fraction of the fastest count as the fastest group: the committed
    /// runs have three to six repetitions, whose spread is a few percent.
    static let fastestGroupTolerance = 0.05

    /// One request measured in one run: the configurations compared with each other.
    struct Request: Hashable { let run: String, video: String, count: Int, height: Int }

    /// Every committed raw file's rows, read once for both tests.
    static let committed = Result { () throws -> [RawResultRow] in
        let folder = CLISupport.packageRoot.appendingPathComponent("results")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("-raw.csv") }.sorted()
        return try files.flatMap { try ResultsFileReader.read(RawResultRow.self, from: folder.appendingPathComponent($0).path) }
    }

    static func committedRawRows() throws -> [RawResultRow] {
        let rows = try committed.get()
        #expect(!rows.isEmpty)
        return rows
    }

    /// In-process exact runs whose strips are byte-identical to naive composition of exact frames
    /// (the harness checks every such run's checksum; skipping the loop filter changes pixels).
    static func pixelExactMedians(_ rows: [RawResultRow]) -> [Request: [String: (row: RawResultRow, median: Double)]] {
        let pixelExact = rows.filter {
            $0.phase == .total && $0.accuracy == "exact" && $0.status == .ok && !$0.disagreement
                && $0.options["skip-loop-filter"] != "1" && $0.wallSeconds != nil
        }
        var medians: [Request: [String: (row: RawResultRow, median: Double)]] = [:]
        let byRequest = Dictionary(grouping: pixelExact) { Request(run: $0.run.runID, video: $0.video.id, count: $0.thumbnailCount, height: $0.thumbHeight) }
        for (request, rows) in byRequest {
            let byConfiguration = Dictionary(grouping: rows) { "\($0.pipeline) \($0.options.sorted { $0.key < $1.key })" }
            medians[request] = byConfiguration.mapValues { rows in
                let times = rows.compactMap(\.wallSeconds).sorted()
                let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
                return (rows[0], median)
            }
        }
        return medians
    }

    static func isDefault(_ row: RawResultRow) -> Bool {
        row.pipeline == .stripDefault && row.options["skip-nonref"] == (Pipeline.defaultSkipsNonReferenceFrames ? "1" : "0")
            && row.options["threads"] == "1" && row.options["workers"] == "auto"
    }

    @Test("where the default was measured, it is in the fastest pixel-exact group")
    func defaultIsFastestWhereMeasured() throws {
        let medians = Self.pixelExactMedians(try Self.committedRawRows())
        var checked = 0
        for (request, configurations) in medians {
            guard let fastest = configurations.values.min(by: { $0.median < $1.median }),
                  let own = configurations.values.first(where: { Self.isDefault($0.row) }) else { continue }
            checked += 1
            #expect(own.median <= fastest.median * (1 + Self.fastestGroupTolerance),
                    "\(request): default \(own.median) s, fastest \(fastest.row.pipeline) \(fastest.row.options) \(fastest.median) s")
        }
        // The seed study's exact runs at 20, 50 and 500 thumbnails and its two other GOPs.
        #expect(checked >= 5)
    }

    @Test("in every pixel-exact comparison the fastest extractor is the default's")
    func defaultExtractorIsFastestEverywhere() throws {
        let medians = Self.pixelExactMedians(try Self.committedRawRows())
        #expect(!medians.isEmpty)
        for (request, configurations) in medians {
            let fastest = try #require(configurations.values.min { $0.median < $1.median })
            let fastestOfDefaultExtractor = configurations.values.filter { $0.row.pipeline.extractor == Pipeline.default.extractor.name }
                .map(\.median).min()
            // Configurations with one extractor only (the composer sweep) say nothing about extractors.
            guard let fastestOfDefaultExtractor, Set(configurations.values.map(\.row.pipeline.extractor)).count > 1 else { continue }
            #expect(fastestOfDefaultExtractor <= fastest.median * (1 + Self.fastestGroupTolerance),
                    "\(request): fastest is \(fastest.row.pipeline) at \(fastest.median) s")
        }
    }
}
