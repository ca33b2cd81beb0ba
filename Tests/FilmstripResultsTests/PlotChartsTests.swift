import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// The charts that read at a glance: relative times on a log axis, the peers, the gate's
/// ratios with the threshold band, memory against N; legends of what varies, widths capped,
/// more than eight series told apart, and hostile labels kept as text in all of them.
@Suite("Charts that read")
struct PlotChartsTests {
    /// One machine's rows as a two-build run (candidate 30 % slower on `taskgroup+simd`), with
    /// peer rows, every label holding `text`.
    static func twoBuildRows(label text: String = "") -> [RawResultRow] {
        var machine = SampleResults.fastMachine
        machine.name += text
        let base = SampleResults.rows(machines: [machine], frameCounts: [10, 100]).filter { $0.phase != .calibration }.map { row in
            var row = row
            row.video.id += text
            row.pipeline = PipelineName(cell: row.pipeline.description + text)
            return row
        }
        var rows: [RawResultRow] = []
        // Twice the sample's repetitions: 20 pairs, enough evidence for the gate to decide.
        for copy in 0..<2 {
            for row in base {
                rows += SampleResults.twoBuildPair(row, copy: copy) { $0.hasPrefix("taskgroup+simd") }
            }
        }
        for repetition in 0..<6 {
            for (tool, seconds) in [("ffmpeg-exact", 0.9), ("ffmpegthumbnailer", 4.0), ("cli:sequential+simd", 0.6)] {
                var peer = base[0]
                peer.phase = .peer
                peer.pipeline = PipelineName(cell: tool + text)
                peer.kind = tool.hasPrefix("cli:") ? .wholeProcess : .peer
                peer.options = [:]
                peer.repetition = repetition
                peer.wallSeconds = seconds * (1 + 0.01 * Double(repetition))
                peer.build = .candidate
                rows.append(peer)
            }
        }
        return rows
    }

    static func chart(_ kind: ChartKind, in outcomes: [ChartOutcome]) -> Chart? {
        for case let .chart(chart) in outcomes where chart.kind == kind { return chart }
        return nil
    }

    static func dataRows(_ chart: Chart) -> [(label: String, numbers: [Double])] {
        chart.data.split(separator: "\n").filter { $0.hasPrefix("\"") }.map { line in
            let closing = line.dropFirst().firstIndex(of: "\"")!
            return (String(line[line.index(after: line.startIndex)..<closing]),
                    line[line.index(after: closing)...].split(separator: " ").map { Double($0) ?? .nan })
        }
    }

    @Test("gate chart: the judge's ratios and intervals (the default time metrics), changed first, the threshold band")
    func gateChart() throws {
        let rows = Self.twoBuildRows()
        let chart = try #require(Self.chart(.gate, in: Plotter(outputDirectory: "/unused").charts(for: rows)))
        let report = try #require(Judge.judgements(of: [RawResultsFile(path: "rows", rows: rows)]).first?.gateReport)
        #expect(report.gate.metrics == RegressionGate.elapsedAndCPU().metrics)
        let slower = report.comparisons.filter { $0.verdict == .slower }
        #expect(!slower.isEmpty)
        let data = Self.dataRows(chart)
        // Series columns: slower, faster, same (median, low, high each); changed rows come first.
        #expect(data.prefix(slower.count).allSatisfy { $0.label.hasPrefix("taskgroup+simd") && abs($0.numbers[0] - 1.3) < 0.01 })
        #expect(data.dropFirst(slower.count).allSatisfy { $0.numbers[0].isNaN })
        #expect(abs(data[0].numbers[1] - slower.map(\.ratioLow).min()!) < 0.05)
        #expect(chart.body.contains("first 0.952381 to graph 1, first 1.05"), "the ±5 % band")
        #expect(chart.title.contains("regressed"))
        #expect(chart.width <= 1200)
    }

    @Test("peers chart per mode and N: each tool relative to the fastest on the video")
    func peersChart() throws {
        let outcomes = Plotter(outputDirectory: "/unused").charts(for: Self.twoBuildRows())
        let chart = try #require(Self.chart(.peers, in: outcomes))
        #expect(chart.stem == "peers-exact-n10")
        let data = Self.dataRows(chart)
        #expect(data.count == 1, "one video")
        // Series sorted: cli:sequential+simd (fastest, 1), ffmpeg-exact (1.5), ffmpegthumbnailer (≈6.7).
        let medians = stride(from: 0, to: data[0].numbers.count, by: 3).map { data[0].numbers[$0] }
        #expect(medians.count == 3 && abs(medians[0] - 1) < 1e-9 && abs(medians[1] - 1.5) < 0.02 && abs(medians[2] - 4.0 / 0.6) < 0.1, "\(medians)")
        #expect(chart.body.contains("set logscale y"))
    }

    @Test("time per pipeline: relative to each video's fastest, log scale, width capped; legends name only what varies; 36 line types")
    func readableCharts() throws {
        var rows = SampleResults.rows(machines: [SampleResults.fastMachine])
        // Twenty pipelines: the width stays capped and the colours do not repeat.
        for index in 0..<16 {
            rows += rows.filter { $0.phase == .total && $0.pipeline == "forward+simd" }.map { row in
                var copy = row
                copy.pipeline = "extra\(index)+simd"
                copy.wallSeconds = row.wallSeconds.map { $0 * (1.1 + Double(index) / 10) }
                return copy
            }
        }
        let outcomes = Plotter(outputDirectory: "/unused").charts(for: rows)
        let time = try #require(Self.chart(.timePerPipeline, in: outcomes))
        #expect(time.width <= 1200)
        let data = Self.dataRows(time)
        let videoCount = (data[0].numbers.count) / 3
        for video in 0..<videoCount {
            let medians = data.map { $0.numbers[3 * video] }.filter { !$0.isNaN }
            #expect(abs(medians.min()! - 1) < 1e-9, "each video's fastest is 1")
        }
        #expect(time.body.contains("set logscale y"))
        // Every row has threads=2: no label repeats it.
        let frames = try #require(Self.chart(.timeVersusFrameCount, in: outcomes))
        #expect(!frames.body.contains("threads"), "an option that does not vary is not in the legend")
        let script = Plotter(outputDirectory: "/unused").script(for: time, sources: [], pngTerminal: "png")
        #expect(script.contains("set linetype 12 lc rgb") && script.contains("set linetype 36 lc rgb") && script.contains("set linetype cycle 36"))
    }

    @Test("hostile labels in the peers, memory and gate charts never reach gnuplot as code")
    func hostileLabelsInNewCharts() throws {
        let markerFolder = URL(fileURLWithPath: Fixtures.temporaryPath("m")).deletingLastPathComponent().path
        let marker = "\(markerFolder)/executed"
        let rows = Self.twoBuildRows(label: "'`touch \(marker)`@x\"")
        let path = Fixtures.temporaryPath("hostile-two-build-raw.csv")
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        for row in rows { try writer.append(row) }
        let output = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("plots").path
        let report = try Plotter(outputDirectory: output).plot(files: [path])
        #expect(Set(report.drawn.map(\.kind)).isSuperset(of: [.peers, .memory, .gate]), "\(report.lines)")
        #expect(!FileManager.default.fileExists(atPath: marker), "gnuplot ran a command from the CSV")
    }
}
