import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// Results files may come from strangers (a pull request's CI run): nothing in them may reach
/// gnuplot as code, and a chart gnuplot cannot draw leaves no files behind.
@Suite("Plots from untrusted results")
struct PlotInjectionTests {
    private func folder() -> String { Fixtures.plotFolder() }

    /// `rows` in one raw results file (the shared helper names files after the machine).
    private func write(_ rows: [RawResultRow]) throws -> [String] {
        let path = Fixtures.temporaryPath("hostile-raw.csv")
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        for row in rows { try writer.append(row) }
        return [path]
    }

    /// One machine's sample rows whose machine name, video id and pipeline each try to run
    /// `touch` on their own marker file through gnuplot's backquote and macro expansion.
    private func hostileRows(markers: [String]) -> [RawResultRow] {
        var machine = SampleResults.fastMachine
        machine.name = "`touch \(markers[0])`"
        return SampleResults.rows(machines: [machine]).map { row in
            var row = row
            row.video.id = "\(row.video.id)\"`touch \(markers[1])`'@x"
            if row.phase != .calibration { row.pipeline = "`touch \(markers[2])`'\(row.pipeline)" }
            return row
        }
    }

    @Test("backquotes in machine_name, video_id and pipeline are drawn as text and never run")
    func backquotesAreNotExecuted() throws {
        let markerFolder = URL(fileURLWithPath: Fixtures.temporaryPath("m")).deletingLastPathComponent().path
        let markers = (0..<3).map { "\(markerFolder)/executed-\($0)" }
        let paths = try write(hostileRows(markers: markers))
        let output = folder()
        let report = try Plotter(outputDirectory: output).plot(files: paths)
        #expect(!report.drawn.isEmpty)
        for marker in markers {
            #expect(!FileManager.default.fileExists(atPath: marker), "gnuplot ran a command from the CSV: \(marker) exists")
        }
        // The kept scripts are re-plotted by people: running one again must not run the command either.
        let gnuplot = try Gnuplot(path: nil)
        for drawn in report.drawn {
            let script = URL(fileURLWithPath: drawn.files[1]).lastPathComponent
            try gnuplot.draw(script: script, variables: [("fmt", "svg"), ("out", "replot.svg")], in: URL(fileURLWithPath: output))
        }
        for marker in markers {
            #expect(!FileManager.default.fileExists(atPath: marker), "re-plotting ran a command: \(marker) exists")
        }
    }

    @Test("a label with a line break or another control character is refused, naming the file and field")
    func controlCharactersAreRefused() throws {
        for control in ["\n", "\r", "\u{1B}", "\t"] {
            var machine = SampleResults.fastMachine
            machine.name = "box\(control)plot sin(x)"
            let paths = try write(SampleResults.rows(machines: [machine]))
            let output = folder()
            #expect(throws: PlotError.self) { try Plotter(outputDirectory: output).plot(files: paths) }
            do {
                _ = try Plotter(outputDirectory: output).plot(files: paths)
            } catch {
                #expect(error.description.contains("machine_name holds control character"), "\(error)")
            }
            #expect((try? FileManager.default.contentsOfDirectory(atPath: output))?.isEmpty ?? true)
        }
    }

    @Test("when gnuplot fails, the chart's .dat and .gp files are removed")
    func failedChartLeavesNothing() throws {
        let paths = try SampleResults.writeFiles(SampleResults.rows(machines: [SampleResults.fastMachine]))
        let output = folder()
        // A "gnuplot" that answers the terminal query and then fails every script.
        let fake = URL(fileURLWithPath: Fixtures.temporaryPath("gnuplot"))
        try "#!/bin/sh\n[ \"$1\" = -e ] && [ \"$2\" = 'set terminal' ] && exit 0\necho 'line 3: fake failure' >&2\nexit 1\n"
            .write(to: fake, atomically: true, encoding: .utf8)
        chmod(fake.path, 0o755)
        #expect(throws: PlotError.self) { try Plotter(outputDirectory: output, gnuplotPath: fake.path).plot(files: paths) }
        let left = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(left.isEmpty, "files left after gnuplot failed: \(left)")
    }
}
