import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

@Suite("Plots")
struct PlotTests {
    /// A fresh output folder per test.
    private func outputFolder() -> String { Fixtures.plotFolder() }

    private func contents(_ path: String) -> Data {
        FileManager.default.contents(atPath: path) ?? Data()
    }

    private func expectValidImages(_ drawn: PlotReport.Drawn) {
        for path in drawn.files {
            #expect(!contents(path).isEmpty, "\(path) is empty")
        }
        let svg = drawn.files.first { $0.hasSuffix(".svg") }.map(contents) ?? Data()
        let svgStart = String(decoding: svg.prefix(64), as: UTF8.self)
        #expect(svgStart.hasPrefix("<?xml") || svgStart.hasPrefix("<svg"), "\(drawn.kind): SVG starts with \(svgStart)")
        let png = drawn.files.first { $0.hasSuffix(".png") }.map(contents) ?? Data()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(drawn.kind): not a PNG")
    }

    @Test("two machines' files give every chart, per machine where it applies, as SVG and PNG with scripts")
    func everyChartFromTwoMachines() throws {
        let paths = try SampleResults.writeFiles(SampleResults.rows())
        let folder = outputFolder()
        let report = try Plotter(outputDirectory: folder).plot(files: paths)

        // The sample rows have no worker sweep, peers or second build: those charts have their
        // own tests (ScalingChartTests, PlotChartsTests).
        #expect(report.skipped.map(\.kind) == [.scaling, .scaling, .peers, .peers, .gate], "\(report.skipped)")
        // Time per pipeline: a chart per machine and video; the next two kinds one per machine.
        #expect(report.drawn.count == 2 * SampleResults.videos.count + 2 * 2 + 1 + 2)
        #expect(Set(report.drawn.map(\.kind)) == Set(ChartKind.allCases).subtracting([.scaling, .peers, .gate, .interactive]))
        for drawn in report.drawn {
            #expect(drawn.files.map { URL(fileURLWithPath: $0).pathExtension } == ["dat", "gp", "svg", "png"])
            expectValidImages(drawn)
        }
        let machineStem = PlotText.fileStem(SampleResults.slowMachine.name)
        #expect(FileManager.default.fileExists(atPath: "\(folder)/composition-throughput-\(machineStem).png"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    @Test("one machine: no machine comparison, with the reason; the other charts are drawn without a machine suffix")
    func machineComparisonSkippedForOneMachine() throws {
        let paths = try SampleResults.writeFiles(SampleResults.rows(machines: [SampleResults.fastMachine]))
        let folder = outputFolder()
        let report = try Plotter(outputDirectory: folder).plot(files: paths)

        #expect(report.drawn.map(\.kind) == Array(repeating: .timePerPipeline, count: SampleResults.videos.count) + [.timeVersusFrameCount, .compositionThroughput, .memory])
        report.drawn.forEach(expectValidImages)
        #expect(report.skipped.map(\.kind) == [.scaling, .machineComparison, .peers, .gate])
        #expect(report.skipped.first { $0.kind == .machineComparison }?.reason.contains("one machine") == true)
        #expect(report.lines.contains { $0.hasPrefix("skipped machine-comparison: ") })
        #expect(FileManager.default.fileExists(atPath: "\(folder)/time-per-pipeline-\(PlotText.fileStem(SampleResults.videos[0].id)).svg"))
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/machine-comparison.svg"))
    }

    @Test("no compose rows skips the throughput chart; one frame count skips time against frame count")
    func chartsWithoutTheirDataAreSkipped() {
        let rows = SampleResults.rows(machines: [SampleResults.fastMachine], phases: [.total, .extract], frameCounts: [100])
        let outcomes = Plotter(outputDirectory: outputFolder()).charts(for: rows)
        let skipped = outcomes.compactMap { outcome -> ChartKind? in
            if case let .skipped(kind, _) = outcome { kind } else { nil }
        }
        #expect(skipped == [.timeVersusFrameCount, .compositionThroughput, .scaling, .machineComparison, .peers, .memory, .gate])
    }

    /// Two runs on one video with different extractors at different counts: the video was run
    /// at two counts, but no configuration was, so there is no line. That chart and the memory
    /// chart are skipped with a note; before, gnuplot got an empty `plot` command ("function to
    /// plot expected", exit 1) and no chart after it was drawn.
    @Test("a video at two counts with no configuration at two is a skipped chart, and the charts after it are drawn")
    func noLineIsASkippedChart() throws {
        var rows: [RawResultRow] = []
        for (index, (pipeline, count)) in [("forward+rowcopy", 8), ("sequential+rowcopy", 40)].enumerated() {
            for repetition in 0..<3 {
                var row = Fixtures.row(pipeline: pipeline, repetition: repetition, wall: 0.1 * Double(index + 1) + 0.001 * Double(repetition))
                row.thumbnailCount = count
                row.run.runID = "run-\(index)"
                row.timestamp += Double(index * 3600)
                rows.append(row)
            }
        }
        let paths = try SampleResults.writeFiles(rows)
        let folder = outputFolder()
        let report = try Plotter(outputDirectory: folder).plot(files: paths)
        #expect(report.drawn.map(\.kind) == [.timePerPipeline], "\(report.lines)")
        report.drawn.forEach(expectValidImages)
        let skipped = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.kind, $0.reason) })
        #expect(skipped[.timeVersusFrameCount]?.contains("no configuration was run at two or more frame counts") == true, "\(report.lines)")
        #expect(skipped[.memory]?.contains("two or more counts") == true, "\(report.lines)")
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/time-vs-frame-count.gp"))
    }

    @Test("without total rows the time chart uses phase extract")
    func extractPhaseWhenNoTotal() throws {
        let rows = SampleResults.rows(machines: [SampleResults.fastMachine], phases: [.extract])
        guard case let .chart(chart) = Plotter(outputDirectory: outputFolder()).charts(for: rows)[0] else {
            Issue.record("time per pipeline was skipped")
            return
        }
        #expect(chart.title.contains("phase extract"))
        #expect(chart.body.contains("title '×500 exact'"), "every N of the video drawn, 500 among them")
    }

    @Test("machine comparison: wall time as a log-scale dot plot, one panel per video, labels horizontal")
    func machineComparisonIsADotPlotPerVideo() throws {
        let outcome = Plotter(outputDirectory: outputFolder()).charts(for: SampleResults.rows()).first { if case let .chart(chart) = $0 { chart.kind == .machineComparison } else { false } }
        guard case let .chart(chart) = outcome else {
            Issue.record("machine comparison was skipped")
            return
        }
        #expect(chart.body.contains("set logscale x"))
        #expect(chart.body.contains("set multiplot layout 1,2"), "one panel per video: \(chart.body)")
        #expect(chart.body.contains("with xerrorbars") && !chart.body.contains("rotate"))
        #expect(chart.data.components(separatedBy: "\n\n\n").count == 3, "one data block per video")
        // Wall time, not divided by each machine's calibration: the slow machine's medians are 1.5× the fast one's.
        let line = try #require(chart.data.split(separator: "\n").first { $0.hasPrefix("\"forward+simd ×500\"") })
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 6)
        #expect(abs(numbers[3] / numbers[0] - 1.5) < 0.1, "\(line)")
    }

    /// The composition throughput chart the plotter makes of `rows`.
    private func throughputChart(_ rows: [RawResultRow]) throws -> Chart {
        let outcome = Plotter(outputDirectory: outputFolder()).charts(for: rows).first { if case let .chart(chart) = $0 { chart.kind == .compositionThroughput } else { false } }
        guard case let .chart(chart) = outcome else { throw ChartMissing() }
        return chart
    }

    private struct ChartMissing: Error {}

    @Test("the memcpy floor is a line, not a bar")
    func memcpyFloorIsALine() throws {
        let chart = try throughputChart(SampleResults.rows(machines: [SampleResults.fastMachine]))
        #expect(!chart.data.contains("\"memcpy"))
        #expect(chart.body.contains("memcpy floor: 10."))
        // 500 × 114 × 64 × 4 bytes at 7 GB/s: the simd bar's median is near 7.
        let simd = try #require(chart.data.split(separator: "\n").first { $0.hasPrefix("\"simd\"") })
        let median = try #require(Double(simd.split(separator: " ")[1]))
        #expect(abs(median - 7) < 0.5)
    }

    @Test("fused pipelines, which compose while scaling, are left out of the throughput chart")
    func fusedComposeRowsAreLeftOut() throws {
        var rows = SampleResults.rows(machines: [SampleResults.fastMachine])
        // A fused pipeline's compose phase is only the finishing touches: microseconds.
        rows += rows.filter { $0.phase == .compose && $0.pipeline.composer == "simd" }.map { row in
            var fused = row
            fused.pipeline = "taskgroup+fused"
            fused.wallSeconds = 3e-6
            return fused
        }
        let chart = try throughputChart(rows)
        #expect(!chart.data.contains("fused"))
        #expect(chart.data.contains("\"simd\""))
    }

    @Test("a kept script re-plots on its own from its folder")
    func scriptReplotsAlone() throws {
        let paths = try SampleResults.writeFiles(SampleResults.rows(machines: [SampleResults.fastMachine]))
        let folder = outputFolder()
        _ = try Plotter(outputDirectory: folder).plot(files: paths)
        let stem = "time-per-pipeline-\(PlotText.fileStem(SampleResults.videos[0].id))"
        let svg = "\(folder)/\(stem).svg"
        try FileManager.default.removeItem(atPath: svg)
        let gnuplot = try Gnuplot(path: nil)
        try gnuplot.draw(script: "\(stem).gp", variables: [], in: URL(fileURLWithPath: folder))
        #expect(!contents(svg).isEmpty)
    }

    @Test("missing gnuplot is one clear error before anything is written")
    func missingGnuplot() throws {
        let paths = try SampleResults.writeFiles(SampleResults.rows(machines: [SampleResults.fastMachine]))
        let folder = outputFolder()
        let error = #expect(throws: PlotError.self) {
            try Plotter(outputDirectory: folder, gnuplotPath: "/nonexistent/gnuplot").plot(files: paths)
        }
        #expect(error?.description.hasPrefix("gnuplot not found") == true)
        #expect(error?.description.contains("\n") == false)
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test("no rows at all skips every chart")
    func noRows() {
        let outcomes = Plotter(outputDirectory: outputFolder()).charts(for: [])
        #expect(outcomes.count == ChartKind.allCases.count)
        #expect(outcomes.allSatisfy { if case .skipped = $0 { true } else { false } })
    }

    @Test("labels cannot break out of gnuplot strings")
    func quoting() {
        #expect(PlotText.dataString("a\"b\\c") == "\"a'b/c\"")
        #expect(PlotText.scriptString("it's `x` @m") == "'it''s `x` @m'")
        #expect(PlotText.controlCharacter(in: "a\nb") == "\n")
        #expect(PlotText.fileStem("xeon 8375c/2c") == "xeon-8375c-2c")
    }
}
