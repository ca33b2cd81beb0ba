import CLITestSupport
import Filmstrip
import FilmstripProcess
import Foundation
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// Interactive sessions and sprites as bench kinds: real `bench` runs on real reference videos,
/// their rows read back from the CSV, judged by `compare` and read by `trend` and `export`.
@Suite(.serialized)
struct InteractiveAndSpriteKindTests {
    /// A two-build run of the interactive suite (one executable as both builds): a row per
    /// session step of every strategy, pool size and cache setting, and a soak, for each build;
    /// the columns parsed back as written; `compare` judges the steps pair by pair.
    @Test func interactiveSuiteTwoBuildRunIsReadBackAndCompared() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("interactive").path
        let executable = CLIProcess.executable.path
        let run = try CLISupport.run(["bench-interactive", "--repetitions", "1", "--pipelines-only", "--no-until-decided", "--quiet",
                                      "--out", name, "--fixtures-dir", CLISupport.fixturesDirectory, "--baseline-binary", executable])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        #expect(!rows.isEmpty && rows.allSatisfy { $0.kind == .interactive && $0.status == .ok })
        let csv = try String(contentsOfFile: name + "-raw.csv", encoding: .utf8)
        #expect(csv.contains(",interactive,") && csv.split(separator: "\n")[0].contains("latency_p95_s"))

        let sessions = rows.filter { $0.phase != .soak }
        let strategies = Set(sessions.filter { $0.options == ["cache": "\(BenchConfiguration.InteractiveRun.defaultCacheBytes)"] }.map(\.pipeline.extractor))
        #expect(strategies == Set(InteractiveStrategies.all.map(\.name)))
        for role in BuildRole.allCases {
            let built = sessions.filter { $0.build == role }
            // Every configuration reports every step once per build.
            for (_, steps) in Dictionary(grouping: built, by: { "\($0.pipeline) \($0.options)" }) {
                #expect(steps.map(\.phase) == Phase.sessionSteps)
            }
        }
        for row in sessions {
            let measures = try #require(row.interactive, "\(row.pipeline) \(row.phase)")
            let first = try #require(measures.firstThumbnailSeconds), all = try #require(measures.allThumbnailsSeconds)
            let p50 = try #require(measures.latencyP50Seconds), p95 = try #require(measures.latencyP95Seconds)
            #expect(first > 0 && first <= all && p50 <= p95 && (measures.wastedFrames ?? -1) >= 0)
            #expect(row.thumbnailCount == 20 && row.peakRSSBytes ?? 0 > 0 && (row.wallSeconds ?? 0) > 0)
        }
        // Zooming back with the cache on decodes nothing: all 20 images come from the cache.
        for row in sessions where row.phase == .zoomBack {
            let cacheOn = row.options["cache"] != "0"
            #expect(cacheOn ? (row.interactive?.cacheHits == 20 && row.framesDecoded == 0) : (row.framesDecoded ?? 0) > 0)
        }
        let soaks = rows.filter { $0.phase == .soak }
        #expect(soaks.count == 2 && soaks.allSatisfy { $0.options["requests"] == "1000" })
        for soak in soaks {
            #expect(soak.interactive?.busyDecoders == 0)
            #expect(abs(soak.interactive?.residentGrowthBytes ?? .max) < 10 << 20)
        }

        // One pair is too few for a verdict: undecided (exit 3), the interactive steps among the configurations judged.
        let compare = try CLISupport.run(["compare", name + "-raw.csv", "--format", "json"])
        #expect(compare.status == 3, "\(compare.standardOutput)\(compare.standardError)")
        #expect(compare.standardOutput.contains("interactive:coarse-first") && compare.standardOutput.contains("drag"))
    }

    /// `sprite-bench --smoke`: bench runs of kind `sprite`, one row per contender, video and
    /// repetition, which `compare` (two runs), `trend` and `export` read.
    @Test func spriteBenchWritesSpriteRowsTheOtherCommandsRead() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("sprite").path
        let run = try CLISupport.run(["sprite-bench", "--smoke", "--repetitions", "1", "--out", name,
                                      "--fixtures-dir", CLISupport.fixturesDirectory])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("| sprite-exact |") && run.standardOutput.contains("ffmpeg-fps / sprite-exact"))
        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        let sprites = rows.filter { $0.kind == .sprite }
        #expect(sprites.count == SpriteBench.Contender.allCases.count * 2)
        for row in sprites {
            let tiles = try #require(row.spriteTiles, "\(row.pipeline) \(row.video.id)")
            #expect(row.phase == .sprite && row.status == .ok && tiles.tiles == row.thumbnailCount && row.thumbnailCount == 3)
            #expect(tiles.unreadable == 0 && row.thumbWidth == 320 && (row.wallSeconds ?? 0) > 0)
        }
        // filmstrip's exact sprite shows the frame at each cue's start.
        #expect(sprites.filter { $0.pipeline.extractor == "sprite-exact" }.allSatisfy { ($0.spriteTiles?.worstErrorSeconds ?? 1) < 0.05 })
        let totals = SpriteBench.Totals(rows: rows)
        #expect(totals.wall.count == SpriteBench.Contender.allCases.count && totals.wall.values.allSatisfy { $0.count == 1 })

        let export = try CLISupport.run(["export", name + "-raw.csv", "--format", "json"])
        #expect(export.status == 0 && export.standardOutput.contains("sprite:ffmpeg-fps"), "\(export.standardError)")
        // One run reads, and is too short a history to decide (exit 3, not 0: nothing was judged).
        let trend = try CLISupport.run(["trend", name + "-raw.csv"])
        #expect(trend.status == 3 && trend.standardOutput.contains("not enough history"), "\(trend.standardOutput)\(trend.standardError)")
        // A second run, compared with the first as two separate runs.
        let again = try CLISupport.run(["sprite-bench", "--smoke", "--repetitions", "1", "--out", name + "-again",
                                        "--fixtures-dir", CLISupport.fixturesDirectory])
        #expect(again.status == 0, "\(again.standardError)")
        let compare = try CLISupport.run(["compare", name + "-raw.csv", name + "-again-raw.csv"])
        #expect([0, 2, 3].contains(compare.status) && compare.standardOutput.contains("sprite:"), "\(compare.standardOutput)\(compare.standardError)")
    }

    /// Files written before the interactive and sprite columns existed still load, their rows without those measures.
    @Test func filesWithoutTheNewColumnsStillLoad() throws {
        let added: [RawColumn] = [.firstThumbnailSeconds, .fullRowSeconds, .allThumbnailsSeconds, .latencyP50Seconds, .latencyP95Seconds, .wastedFrames,
                                  .cacheHits, .residentGrowthBytes, .threadsLeft, .busyDecoders, .tiles, .unreadableTiles,
                                  .worstFrameErrorSeconds, .meanFrameErrorSeconds]
        let columns = RawColumn.allCases.filter { !added.contains($0) }
        let row = Fixtures.row()
        let text = columns.map(\.rawValue).joined(separator: ",") + "\n"
            + columns.map { row.cell($0) }.map { $0.contains(",") || $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: ",") + "\n"
        let read = try ResultsFileReader.parse(RawResultRow.self, text: text, path: "old.csv")
        #expect(read.count == 1 && read[0].interactive == nil && read[0].spriteTiles == nil && read[0].kind == row.kind)
    }

    /// The child's peak RSS is its own: a `bench-run` child spawned from a process that has
    /// touched 512 MB reports its own high-water mark, not the spawner's (`ru_maxrss` would).
    @Test func childPeakRSSIsItsOwnWhenTheSpawnerIsLarge() throws {
        let size = 512 << 20
        let ballast = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 4096)
        defer { ballast.deallocate() }
        ballast.initializeMemory(as: UInt8.self, repeating: 1)
        let runner = ChildRunner(executable: CLIProcess.executable)
        let outcome = runner.run(.memcpySynthetic(thumbnailCount: 10, thumbHeight: 64), timeLimit: 60, interruption: Interruption())
        guard case .measured(let measurement, _) = outcome else {
            Issue.record("the child did not measure: \(outcome)")
            return
        }
        let peak = try #require(measurement.phases.first?.peakRSSBytes)
        withExtendedLifetime(ballast) {}
        #expect(peak > 0 && peak < 256 << 20, "\(peak) bytes")
    }
}
