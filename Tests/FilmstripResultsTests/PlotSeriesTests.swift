import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// A run over several videos shows every one of them: the time against the count draws a line
/// per video and pipeline, and the machine comparison's axis holds every interval whole.
@Suite("Plots show every series")
struct PlotSeriesTests {
    static func chart(_ kind: ChartKind, of rows: [RawResultRow]) throws -> Chart {
        let outcome = Plotter(outputDirectory: "/unused").charts(for: rows).first { if case let .chart(chart) = $0 { chart.kind == kind } else { false } }
        guard case let .chart(chart) = outcome else { throw Missing(kind: kind) }
        return chart
    }

    struct Missing: Error { var kind: ChartKind }

    @Test("time against count: one line per video and pipeline in the script, the data and gnuplot's SVG")
    func everyVideoIsALine() throws {
        let rows = SampleResults.rows(machines: [SampleResults.fastMachine])
        let chart = try Self.chart(.timeVersusFrameCount, of: rows)
        let expected = SampleResults.videos.count * SampleResults.pipelines.count
        let clauses = chart.body.components(separatedBy: " index ").count - 1
        #expect(clauses == expected, "\(chart.body)")
        let blocks = chart.data.components(separatedBy: "\n\n\n")
        #expect(blocks.count == expected)
        for video in SampleResults.videos {
            #expect(blocks.filter { $0.hasPrefix("# \(video.id): ") }.count == SampleResults.pipelines.count, "\(video.id)'s lines")
        }
        #expect(chart.title.contains("\(SampleResults.videos.count) videos"), "\(chart.title)")

        // As drawn: gnuplot's SVG has a group per plotted series.
        let path = Fixtures.temporaryPath("series-raw.csv")
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        for row in rows { try writer.append(row) }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("plots-series").path
        let report = try Plotter(outputDirectory: folder).plot(files: [path])
        let svgPath = try #require(report.drawn.first { $0.kind == .timeVersusFrameCount }?.files.first { $0.hasSuffix(".svg") })
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        #expect(svg.components(separatedBy: "id=\"gnuplot_plot_").count - 1 == expected, "series drawn in \(svgPath)")
        for video in SampleResults.videos {
            #expect(svg.components(separatedBy: "<text>\(video.id): ").count - 1 == SampleResults.pipelines.count, "\(video.id)'s lines in the legend")
        }
    }

    @Test("one video keeps its pipeline labels; one pipeline over several videos is labelled by video")
    func labelsNameWhatVaries() throws {
        let oneVideo = SampleResults.rows(machines: [SampleResults.fastMachine]).filter { $0.video.id == SampleResults.videos[0].id }
        let chart = try Self.chart(.timeVersusFrameCount, of: oneVideo)
        #expect(chart.body.contains("title 'forward+simd'") && chart.title.contains("video \(SampleResults.videos[0].id)"), "\(chart.body)")
        let onePipeline = SampleResults.rows(machines: [SampleResults.fastMachine]).filter { $0.pipeline.description == "forward+simd" }
        let lines = try Self.chart(.timeVersusFrameCount, of: onePipeline)
        for video in SampleResults.videos { #expect(lines.body.contains("title '\(video.id)'"), "\(lines.body)") }
    }

    /// The lows and highs of every interval in the machine comparison's data.
    static func intervalEnds(_ chart: Chart) -> [Double] {
        chart.data.split(separator: "\n").filter { $0.hasPrefix("\"") }.flatMap { line in
            line.split(separator: "\"").last!.split(separator: " ").compactMap { Double($0) }.filter(\.isFinite)
        }
    }

    static func xRange(_ chart: Chart) throws -> (low: Double, high: Double) {
        let line = try #require(chart.body.split(separator: "\n").first { $0.hasPrefix("set xrange [") })
        let numbers = line.dropFirst("set xrange [".count).dropLast().split(separator: ":").compactMap { Double($0) }
        try #require(numbers.count == 2)
        return (numbers[0], numbers[1])
    }

    @Test("machine comparison: the axis is fitted to the data, log over decades, linear within one, no whisker clipped")
    func machineAxisFitsTheData() throws {
        let spread = try Self.chart(.machineComparison, of: SampleResults.rows())
        let ends = Self.intervalEnds(spread)
        let range = try Self.xRange(spread)
        #expect(spread.body.contains("set logscale x"), "10 to 500 thumbnails span decades")
        #expect(ends.allSatisfy { $0 > range.low && $0 < range.high }, "\(range) holds \(ends.min()!)...\(ends.max()!)")
        #expect(range.high / range.low < 1000 * (ends.max()! / ends.min()!), "fitted, not a fixed span")

        let narrow = try Self.chart(.machineComparison, of: SampleResults.rows(frameCounts: [100]).filter { $0.video.id == SampleResults.videos[0].id })
        let narrowEnds = Self.intervalEnds(narrow)
        let narrowRange = try Self.xRange(narrow)
        #expect(narrow.body.contains("unset logscale x") && !narrow.title.contains("log"), "\(narrow.body)")
        #expect(narrowEnds.allSatisfy { $0 > narrowRange.low && $0 < narrowRange.high }, "\(narrowRange) holds \(narrowEnds)")
        #expect(narrowRange.high - narrowRange.low < 3 * (narrowEnds.max()! - narrowEnds.min()!), "fitted: \(narrowRange) for \(narrowEnds)")
    }
}
