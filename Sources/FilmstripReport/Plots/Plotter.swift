import Filmstrip
import FilmstripResults
import Foundation

/// Draws the benchmark charts of raw results files with gnuplot, as SVG and PNG.
///
/// For each chart it writes, in `outputDirectory`, `STEM.dat` (the medians and 95 % CIs),
/// `STEM.gp` (the gnuplot script, kept so people can restyle and re-plot), `STEM.svg` and
/// `STEM.png`. Every file is written under a temporary name and renamed into place, so a
/// failed or interrupted run never leaves a half-written image behind a good one. Charts 1
/// to 3 are drawn per machine (the stem gets the machine name) when the inputs hold
/// several machines.
package struct Plotter: Sendable {
    package var outputDirectory: String
    /// The gnuplot executable; nil searches `PATH`.
    package var gnuplotPath: String?

    package init(outputDirectory: String, gnuplotPath: String? = nil) {
        self.outputDirectory = outputDirectory
        self.gnuplotPath = gnuplotPath
    }

    /// Reads the raw results files at `paths` (concatenated) and draws every chart their data allows.
    package func plot(files paths: [String]) throws(PlotError) -> PlotReport {
        guard !paths.isEmpty else { throw .noInput }
        // Finding gnuplot first makes a machine without it fail before any file is touched.
        let gnuplot = try Gnuplot(path: gnuplotPath)
        var rows: [RawResultRow] = [], files: [RawResultsFile] = []
        for path in paths {
            let file = RawResultsFile(path: path)
            let fileRows: [RawResultRow]
            do {
                fileRows = try file.measurements.get()
            } catch {
                throw .unreadable(error)
            }
            try Self.refuseControlCharacters(in: fileRows, file: path)
            rows += fileRows
            files.append(file)
        }
        // Each configuration's newest run, the one `compare` and `export` judge; earlier runs
        // are history (`trend`, `report`), not more samples of it. The gate chart draws the
        // judge's verdicts, the same as `compare` and `report` give.
        let judgements = Judge.judgements(of: files)
        var report = try draw(charts(for: NewestRun.rows(rows), judgements: judgements), sources: paths, with: gnuplot)
        report.judgements = judgements
        return report
    }

    /// Refuses text with control characters in any field a chart shows, and in the file names
    /// the scripts' header comment lists: a line break there would start a new script line.
    static func refuseControlCharacters(in rows: [RawResultRow], file: String) throws(PlotError) {
        if let scalar = PlotText.controlCharacter(in: file) { throw .unsafeText(file: file, field: "the file name", scalar: scalar) }
        for row in rows {
            let key = row.configurationKey
            let fields = [("machine_name", row.run.machine.name), ("pipeline", key.pipeline.description),
                          ("extractor", key.pipeline.extractor), ("composer", key.pipeline.composer), ("video_id", key.videoID), ("accuracy", key.accuracy.description)]
                + key.options.flatMap { [("options", $0.key), ("options", $0.value)] }
            for (field, text) in fields {
                if let scalar = PlotText.controlCharacter(in: text) { throw .unsafeText(file: file, field: field, scalar: scalar) }
            }
        }
    }

    /// Every chart of `rows`, or why it is skipped, in `ChartKind` order; the gate chart draws
    /// `judgements` (nil: the judge's of `rows` as one file).
    func charts(for rows: [RawResultRow], judgements: [Judgement]? = nil) -> [ChartOutcome] {
        let samples = PlotSamples(rows: rows)
        let machines = samples.machines
        // The gate's chart needs no times: an instruction-count file has its verdict drawn too.
        let gateCharts = GateChart.make(judgements ?? Judge.judgements(of: [RawResultsFile(path: "rows", rows: rows)]), stem: ChartKind.gate.rawValue)
        guard !machines.isEmpty else {
            return ChartKind.allCases.filter { $0 != .gate }.map { .skipped($0, reason: "no rows with status ok and a wall time") } + gateCharts
        }
        var outcomes: [ChartOutcome] = []
        for machine in machines {
            let stem = machines.count == 1 ? ChartKind.timePerPipeline.rawValue : "\(ChartKind.timePerPipeline.rawValue)-\(PlotText.fileStem(machine))"
            outcomes += TimePerPipelineChart.make(rows.filter { $0.run.machine.name == machine }, machine: machine, stem: stem)
        }
        let perMachine: [(ChartKind, (PlotSamples, String, String) -> ChartOutcome)] = [
            (.timeVersusFrameCount, TimeVersusFrameCountChart.make),
            (.compositionThroughput, CompositionThroughputChart.make),
        ]
        for (kind, make) in perMachine {
            for machine in machines {
                let stem = machines.count == 1 ? kind.rawValue : "\(kind.rawValue)-\(PlotText.fileStem(machine))"
                outcomes.append(make(samples.filter { $0.machine == machine }, machine, stem))
            }
        }
        for machine in machines {
            let stem = machines.count == 1 ? ChartKind.scaling.rawValue : "\(ChartKind.scaling.rawValue)-\(PlotText.fileStem(machine))"
            outcomes.append(ScalingChart.make(rows.filter { $0.run.machine.name == machine }, machine: machine, stem: stem))
        }
        outcomes.append(MachineComparisonChart.make(samples, stem: ChartKind.machineComparison.rawValue))
        for machine in machines {
            let suffix = machines.count == 1 ? "" : "-\(PlotText.fileStem(machine))"
            outcomes += PeersChart.make(samples.filter { $0.machine == machine }, machine: machine, stem: ChartKind.peers.rawValue + suffix)
            outcomes += InteractiveChart.make(samples.filter { $0.machine == machine }, machine: machine, stem: ChartKind.interactive.rawValue + suffix)
            outcomes += MemoryChart.make(rows.filter { $0.run.machine.name == machine && $0.build != .baseline }, machine: machine,
                                         stem: ChartKind.memory.rawValue + suffix)
        }
        outcomes += gateCharts
        return outcomes
    }

    private func draw(_ outcomes: [ChartOutcome], sources: [String], with gnuplot: Gnuplot) throws(PlotError) -> PlotReport {
        let directory = URL(fileURLWithPath: outputDirectory, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(path: outputDirectory, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        var report = PlotReport()
        for outcome in outcomes {
            switch outcome {
            case let .skipped(kind, reason):
                report.skipped.append(.init(kind: kind, reason: reason))
            case let .chart(chart) where chart.body.split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "plot" }):
                // A chart with no series is a note, never a gnuplot error that stops the charts after it.
                report.skipped.append(.init(kind: chart.kind, reason: "no series to draw in \(chart.stem)"))
            case let .chart(chart):
                report.drawn.append(try draw(chart, sources: sources, in: directory, with: gnuplot))
            }
        }
        return report
    }

    private func draw(_ chart: Chart, sources: [String], in directory: URL, with gnuplot: Gnuplot) throws(PlotError) -> PlotReport.Drawn {
        let dataFile = directory.appendingPathComponent("\(chart.stem).dat")
        let scriptFile = directory.appendingPathComponent("\(chart.stem).gp")
        try write(chart.data, to: dataFile)
        var files = [dataFile.path]
        // A chart gnuplot cannot draw leaves none of its files: a script that failed once is
        // not one to keep for re-plotting.
        func removeWritten() { files.forEach { unlink($0) } }
        do {
            try write(script(for: chart, sources: sources, pngTerminal: gnuplot.pngTerminal), to: scriptFile)
        } catch {
            removeWritten()
            throw error
        }
        files.append(scriptFile.path)
        for format in ["svg", "png"] {
            let image = directory.appendingPathComponent("\(chart.stem).\(format)")
            let temporary: String
            do {
                temporary = try TemporaryFiles.createEmpty(besides: image.path)
            } catch {
                removeWritten()
                throw .io(path: image.path, reason: "cannot create a temporary file: \(error.reason)")
            }
            do {
                try gnuplot.draw(script: scriptFile.lastPathComponent,
                                 variables: [("fmt", format), ("out", URL(fileURLWithPath: temporary).lastPathComponent),
                                             ("pngterm", gnuplot.pngTerminal)],
                                 in: directory)
            } catch {
                TemporaryFiles.discard(temporary)
                removeWritten()
                throw error
            }
            do {
                try TemporaryFiles.publish(temporary, as: image.path)
            } catch {
                TemporaryFiles.discard(temporary)
                removeWritten()
                throw .io(path: image.path, reason: "cannot rename the temporary file into place: \(error.reason)")
            }
            files.append(image.path)
        }
        return .init(kind: chart.kind, title: chart.title, files: files)
    }

    /// The complete script: a header that picks the terminal from `fmt` (and `out`, `pngterm`)
    /// with defaults, so `gnuplot STEM.gp` alone re-plots the SVG, then the chart's commands.
    func script(for chart: Chart, sources: [String], pngTerminal: String) -> String {
        let size = "size \(chart.width),\(chart.height)"
        return """
            # \(chart.title)
            # Made by `filmstrip plot` from: \(sources.joined(separator: ", "))
            # Re-plot from this folder: gnuplot \(chart.stem).gp   (SVG)
            #                           gnuplot -e "fmt='png'" \(chart.stem).gp   (PNG)
            if (!exists("fmt")) fmt = "svg"
            if (!exists("out")) out = "\(chart.stem)." . fmt
            if (!exists("pngterm")) pngterm = "\(pngTerminal)"
            if (fmt eq "svg") {
                set terminal svg \(size) dynamic noenhanced font "sans,12" background "#ffffff"
            } else { if (pngterm eq "pngcairo") {
                set terminal pngcairo \(size) noenhanced font "sans,11" background "#ffffff"
            } else {
                set terminal png \(size) noenhanced font "sans,11" background "#ffffff"
            } }
            set output out
            set encoding utf8
            \(Self.lineTypes)

            \(chart.body)

            unset output

            """
    }

    /// Twelve colours that differ in lightness as well as hue (gnuplot's default cycles eight),
    /// then the same colours dashed, then dotted: 36 series stay told apart.
    static let lineTypes: String = {
        let colours = ["#1f77b4", "#e6550d", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                       "#e377c2", "#525252", "#bcbd22", "#17becf", "#fd8d3c", "#08306b"]
        var commands: [String] = []
        for (round, dash) in ["solid", "(8,4)", "(2,3)"].enumerated() {
            for (index, colour) in colours.enumerated() {
                commands.append("set linetype \(round * colours.count + index + 1) lc rgb \"\(colour)\" lw 1.5 dt \(dash)")
            }
        }
        commands.append("set linetype cycle \(3 * colours.count)")
        return commands.joined(separator: "\n")
    }()

    /// Writes `text` to a temporary file beside `url` and renames it over `url`.
    private func write(_ text: String, to url: URL) throws(PlotError) {
        do {
            try StripWriter.writeAtomically(Data(text.utf8), to: url.path)
        } catch {
            throw .io(path: url.path, reason: error.reason)
        }
    }
}
