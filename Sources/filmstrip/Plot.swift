import ArgumentParser
import Filmstrip
import FilmstripReport
import FilmstripResults
import Foundation

extension FilmstripCommand {
    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw charts of raw benchmark results with gnuplot (SVG and PNG, scripts kept beside them).",
            discussion: """
                Charts: time per pipeline per video, time against thumbnail count, composition \
                throughput with the memcpy floor, and machine against machine when the files come \
                from several machines. A chart whose data is absent is skipped with a note.
                """)

        @Argument(help: "Raw results CSV files (*-raw.csv); rows of all files are combined.", completion: .file(extensions: ["csv"]))
        var results: [String]

        @Option(name: [.short, .customLong("output")], help: "Folder for the .dat, .gp, .svg and .png files.", completion: .directory)
        var output = "plots"

        @Option(help: "The gnuplot executable (default: gnuplot on PATH).")
        var gnuplot: String?

        func run() throws {
            let signalSources = SignalCleanup.install(doing: "drawing charts into \(output)")
            defer { signalSources.forEach { $0.cancel() } }
            do {
                let report = try Plotter(outputDirectory: output, gnuplotPath: gnuplot).plot(files: results)
                for line in report.lines { try Console.out(FileSystemName.display(line)) }
            } catch {
                throw failWithMessage(error)
            }
        }
    }
}
