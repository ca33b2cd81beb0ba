import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// A chart drawn both by the report (SVG) and by `plot` (gnuplot) is one data set: on committed
/// results, the points the page's SVG draws (each circle's tooltip) and the points of the
/// gnuplot data files are the same labels with the same values, in the same order.
@Suite("Plot and report draw one data set")
struct PlotReportTwinsTests {
    /// The page of a committed results file and `plot`'s charts of `kind` from the same file.
    static func drawn(_ name: String, _ kind: ChartKind) throws -> (report: HTMLReport, charts: [Chart]) {
        let report = try HTMLReport(files: [CLISupport.packageRoot.appendingPathComponent("results/\(name)").path])
        let outcomes = Plotter(outputDirectory: "/unused").charts(for: NewestRun.rows(report.rows))
        return (report, outcomes.compactMap { if case let .chart(chart) = $0, chart.kind == kind { chart } else { nil } })
    }

    /// Each point an SVG chart draws, in order, from its circle's tooltip (`LABEL: 1.23 (1.2 … 1.26)`).
    static func svgPoints(_ html: String) -> [String] {
        html.components(separatedBy: "<circle ").dropFirst().compactMap { circle in
            guard let tagEnd = circle.firstIndex(of: ">"), circle[..<tagEnd].last != "/",
                  let start = circle.range(of: "<title>"), let end = circle.range(of: "</title>") else { return nil }
            return String(circle[start.upperBound..<end.lowerBound])
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    /// The points of a chart of categories and series (``CategoryPoints``) as the SVG names them:
    /// `CATEGORY · SERIES: …`, categories in order, each category's series in order.
    static func categoryPoints(_ chart: Chart) -> [String] {
        let plot = chart.body.components(separatedBy: "\nplot ").last ?? ""
        let series = plot.components(separatedBy: " title '").dropFirst().map { String($0.prefix { $0 != "'" }) }
        return PlotChartsTests.dataRows(chart).flatMap { row in
            series.indices.compactMap { index -> String? in
                let numbers = row.numbers[(3 * index)..<(3 * index + 3)].map { $0 }
                guard !numbers[0].isNaN else { return nil }
                return "\(row.label) · \(series[index]): \(PlotPoint(median: numbers[0], low: numbers[1], high: numbers[2]).text)"
            }
        }
    }

    /// The points of a chart of lines (`# LABEL: …` blocks of `x median low high …` rows) as the
    /// SVG names them: `LABEL, x: …`.
    static func linePoints(_ chart: Chart) -> [String] {
        var label = "", points: [String] = []
        for line in chart.data.split(separator: "\n") {
            if line.hasPrefix("# ") {
                label = String(line.dropFirst(2)[..<line.range(of: ": ", options: .backwards)!.lowerBound])
            } else {
                let numbers = line.split(separator: " ").compactMap { Double($0) }
                points.append("\(label), \(tickLabel(numbers[0])): \(PlotPoint(median: numbers[1], low: numbers[2], high: numbers[3]).text)")
            }
        }
        return points
    }

    @Test("peers: each tool relative to the fastest on each video, per mode and N")
    func peers() throws {
        let (report, charts) = try Self.drawn("full-peers-epyc-2c-r4-raw.csv", .peers)
        let drawn = charts.flatMap(Self.categoryPoints)
        #expect(charts.count >= 2 && drawn.count > 10)
        #expect(Self.svgPoints(report.peersSection) == drawn)
    }

    @Test("interactive: each step's time relative to the standard strategy, per video and N")
    func interactive() throws {
        let (report, charts) = try Self.drawn("interactive-epyc-2c-raw.csv", .interactive)
        let drawn = charts.flatMap(Self.categoryPoints)
        #expect(!charts.isEmpty && drawn.count > 4)
        #expect(Self.svgPoints(report.interactiveSection) == drawn)
    }

    @Test("scaling: speed-up against workers, the same lines and labels")
    func scaling() throws {
        let (report, charts) = try Self.drawn("seed-study-xeon-16c-raw.csv", .scaling)
        let drawn = charts.flatMap(Self.linePoints)
        #expect(charts.count == 1 && drawn.count == 3, "\(drawn)")
        #expect(Self.svgPoints(report.scalingSection) == drawn)
    }

    @Test("memory: a panel per mode, the same lines (the default named) in both")
    func memory() throws {
        let (report, charts) = try Self.drawn("full-peers-epyc-2c-r4-raw.csv", .memory)
        let drawn = charts.flatMap(Self.linePoints)
        #expect(charts.map(\.stem) == ["memory-vs-frame-count-exact", "memory-vs-frame-count-keyframe"])
        #expect(charts.allSatisfy { $0.body.contains("'\($0.stem).dat'") }, "each panel's script reads its own data")
        #expect(drawn.contains { $0.contains("(default)") })
        #expect(Self.svgPoints(report.memorySection) == drawn)
    }

    @Test("fastest pipelines: per video, every N, the same configurations in the same order with the same ratios")
    func fastest() throws {
        let (report, charts) = try Self.drawn("full-peers-epyc-2c-r4-raw.csv", .timePerPipeline)
        // Each row's median (its one series has numbers) as the box chart's note writes it: `1.23×`.
        let drawn = charts.flatMap { chart in
            PlotChartsTests.dataRows(chart).map { "\($0.label): \(HTMLText.ratio($0.numbers.first { !$0.isNaN }!))" }
        }
        let section = report.fastestSection.components(separatedBy: "<table").first!
        // Each box chart row: its label's tooltip, then its note (`1.23×  45.6 ms`).
        let labels = section.components(separatedBy: "text-anchor=\"end\"").dropFirst().compactMap { $0.components(separatedBy: "<title>").dropFirst().first?.components(separatedBy: "</title>").first }
        let notes = section.components(separatedBy: "\" class=\"note\">").dropFirst().compactMap { $0.components(separatedBy: "  ").first }
        #expect(charts.count == 10 && drawn.count > 50, "a chart per video")
        #expect(zip(labels, notes).map { "\($0.0): \($0.1)" } == drawn)
    }

    @Test("a point beyond the dot chart's visible range ends at the edge with a mark that gives its value")
    func offScaleMark() {
        let rows = [DotChart.Row(label: "far", point: PlotPoint(median: 7.44, low: 6, high: 9), note: "+644 %"),
                    DotChart.Row(label: "near", point: PlotPoint(median: 1.01, low: 0.99, high: 1.03), note: "+1 %")]
        let svg = DotChart(title: "t", axisTitle: "a", rows: rows, reference: 1, visibleRange: 0.25...4).svg
        #expect(svg.components(separatedBy: "class=\"offscale\"").count - 1 == 1)
        #expect(svg.contains("<title>beyond the axis: 7.44 (6 … 9)</title>›"))
        #expect(!DotChart(title: "t", axisTitle: "a", rows: Array(rows.suffix(1)), reference: 1).svg.contains("offscale"))
    }
}
