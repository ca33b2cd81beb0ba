import Foundation
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

@Suite("Scaling chart: speed-up against workers")
struct ScalingChartTests {
    static let xeonFile = CLISupport.packageRoot.appendingPathComponent("results/seed-study-xeon-16c-raw.csv").path

    @Test("the 16-core seed study: taskgroup at 1, 2 and 4 workers against one, with the bound from CPU time")
    func seedStudyOnSixteenCores() throws {
        let rows = try ResultsFileReader.read(RawResultRow.self, from: Self.xeonFile)
        let lines = ScalingChart.points(rows)
        #expect(lines.count == 1)
        let (series, points) = try #require(lines.first)
        #expect(series.pipeline == "taskgroup+fused" && series.videoID == "h264-1080p-244s" && series.thumbnailCount == 500)
        #expect(points.map(\.workers) == [1, 2, 4])
        #expect(points[0].speedup.median == 1)
        // 24.15 s at one worker, 13.05 s at two, 6.71 s at four (medians of three).
        #expect(abs(points[1].speedup.median - 24.154 / 13.047) < 0.01)
        #expect(abs(points[2].speedup.median - 24.154 / 6.708) < 0.01)
        for point in points {
            #expect(point.speedup.low <= point.speedup.median && point.speedup.median <= point.speedup.high)
            // The bound spreads the run's own CPU time over its workers: no run beats it by more than noise.
            #expect(point.speedup.median <= point.bound * 1.05, "\(point.workers) workers")
            #expect(point.bound <= Double(point.workers) * 1.05)
        }
    }

    @Test("drawn with gnuplot from the 16-core file: the ideal line stops at the cores")
    func drawn() throws {
        let folder = NSTemporaryDirectory() + "filmstrip-scaling-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try Plotter(outputDirectory: folder).plot(files: [Self.xeonFile])
        let scaling = try #require(report.drawn.first { $0.kind == .scaling })
        #expect(scaling.files.map { URL(fileURLWithPath: $0).pathExtension } == ["dat", "gp", "svg", "png"])
        let script = try String(contentsOfFile: "\(folder)/scaling.gp", encoding: .utf8)
        #expect(script.contains("using 1:6 with lines"))
        // The ideal column stops at the 16 cores: 32 workers are ideally 16 times one.
        let data = try String(contentsOfFile: "\(folder)/scaling.dat", encoding: .utf8)
        let ideals = data.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> (Int, Int)? in
            let fields = line.split(separator: " ")
            guard fields.count == 6, let workers = Int(fields[0]), let ideal = Int(fields[5]) else { return nil }
            return (workers, ideal)
        }
        #expect(!ideals.isEmpty)
        #expect(ideals.allSatisfy { $0.1 == min($0.0, 16) })
        let png = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/scaling.png"))
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test("rows without a sweep, or with workers=auto only, give no chart")
    func nothingToSweep() throws {
        let rows = try ResultsFileReader.read(RawResultRow.self, from: Self.xeonFile).filter { $0.options["workers"] == "auto" }
        #expect(ScalingChart.points(rows).isEmpty)
        guard case .skipped(.scaling, _) = ScalingChart.make(rows, machine: "xeon-16c", stem: "scaling") else {
            Issue.record("expected the chart to be skipped")
            return
        }
    }

    @Test func workerSweepStopsAtTheCoresPlusOneOversubscribed() {
        #expect(BenchMatrix.workerSweep(cores: 2) == [1, 2, 4])
        #expect(BenchMatrix.workerSweep(cores: 16) == [1, 2, 4, 8, 16, 32])
        #expect(BenchMatrix.workerSweep(cores: 6) == [1, 2, 4, 12])
    }
}
