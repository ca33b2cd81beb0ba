import Filmstrip
import Foundation
import Testing

@Suite("filmstrip strip's defaults")
struct DefaultStripCommandTests {
    @Test("with no strategy options, strip runs the default pipeline and writes naive composition's bytes of exact frames",
          arguments: ["h264-180p-3s", "hevc-180p-2s", "h264-180p-2s-opengop-offset"])
    func defaultsMatchNaive(id: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video(id)
        let defaults = folder.appendingPathComponent("default.rgba").path, naive = folder.appendingPathComponent("naive.rgba").path
        let result = try TestSupport.runCLI(["strip", video, "-o", defaults, "--count", "17", "--gap", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("via \(Pipeline.default.name)"))
        let reference = try TestSupport.runCLI(["strip", video, "-o", naive, "--count", "17", "--gap", "1", "--extractor", "sequential",
                                                "--composer", "naive", "--no-skip-non-reference", "--workers", "1"])
        #expect(reference.status == 0, "\(reference.standardError)")
        let same = try Data(contentsOf: URL(fileURLWithPath: defaults)) == Data(contentsOf: URL(fileURLWithPath: naive))
        #expect(same, "\(id)")
    }

    @Test("one GOP run, where the cost model gives idle cores to codec threads: still naive's bytes")
    func oneRunWithCodecThreads() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-360p-20s")
        let defaults = folder.appendingPathComponent("default.rgba").path, naive = folder.appendingPathComponent("naive.rgba").path
        let range = ["--from", "2.1", "--to", "3.9", "--count", "12"]
        let result = try TestSupport.runCLI(["strip", video, "-o", defaults] + range)
        #expect(result.status == 0, "\(result.standardError)")
        let reference = try TestSupport.runCLI(["strip", video, "-o", naive, "--extractor", "sequential", "--composer", "naive",
                                                "--no-skip-non-reference"] + range)
        #expect(reference.status == 0, "\(reference.standardError)")
        let same = try Data(contentsOf: URL(fileURLWithPath: defaults)) == Data(contentsOf: URL(fileURLWithPath: naive))
        #expect(same)
    }

    @Test("--stats reports the bound: start-up, CPU over the cores, the busiest worker")
    func statsReportTheBound() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try TestSupport.runCLI(["strip", try TestSupport.video("h264-360p-20s"), "-o", folder.appendingPathComponent("s.png").path,
                                             "--count", "40", "--stats"])
        #expect(result.status == 0, "\(result.standardError)")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Double])
        for key in ["startup_cpu_s", "cpu_s", "cores", "cpu_over_cores_s", "longest_worker_s", "bound_s", "workers"] {
            #expect(stats[key] != nil, "\(key) missing")
        }
        let bound = try #require(stats["bound_s"]), startup = try #require(stats["startup_cpu_s"])
        #expect(startup > 0 && bound >= startup)
        #expect(bound >= max(stats["cpu_over_cores_s"] ?? 0, stats["longest_worker_s"] ?? 0))
        #expect((stats["workers"] ?? 0) >= 1)
        #expect((stats["longest_worker_s"] ?? 0) > 0)
    }
}
