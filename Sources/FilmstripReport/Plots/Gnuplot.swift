import Filmstrip
import FilmstripProcess
import FilmstripResults
import Foundation

/// The gnuplot program: where it is, which PNG terminal it has, and running a script.
struct Gnuplot: Sendable {
    let executable: URL
    /// `pngcairo` (anti-aliased) when gnuplot was built with cairo, else libgd's `png`.
    let pngTerminal: String

    /// Finds gnuplot at `path`, or on `PATH` when `path` is nil, and asks it for its terminals.
    init(path: String?) throws(PlotError) {
        let candidates: [String]
        if let path {
            candidates = [path]
        } else {
            let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            candidates = folders.map { "\($0)/gnuplot" }
        }
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw .gnuplotMissing(searched: path ?? "searched PATH")
        }
        executable = URL(fileURLWithPath: found)
        let terminals = (try? Self.run(executable, arguments: ["-e", "set terminal"]).output) ?? ""
        pngTerminal = terminals.contains("pngcairo") ? "pngcairo" : "png"
    }

    /// Runs `script` (a file name in `directory`) with gnuplot variables set first, as
    /// `gnuplot -e "cd 'directory'; name='value'; …" script` (values quoted by `PlotText.scriptString`):
    /// gnuplot changes into `directory` before it reads the script, so relative data paths resolve.
    func draw(script: String, variables: [(String, String)], in directory: URL) throws(PlotError) {
        let commands = ["cd \(PlotText.scriptString(directory.path))"] + variables.map { "\($0.0)=\(PlotText.scriptString($0.1))" }
        let result: (status: Int32, output: String)
        do {
            result = try Self.run(executable, arguments: ["-e", commands.joined(separator: "; "), script])
        } catch {
            throw .gnuplotFailed(script: script, status: -1, message: "\(error)")
        }
        guard result.status == 0 else {
            let lastLines = result.output.split(separator: "\n").suffix(3).joined(separator: " | ")
            throw .gnuplotFailed(script: directory.appendingPathComponent(script).path, status: result.status, message: lastLines)
        }
    }

    /// Exit status and combined stdout+stderr (gnuplot prints `set terminal` lists and errors on stderr).
    private static func run(_ executable: URL, arguments: [String]) throws -> (status: Int32, output: String) {
        let run = try ChildProcess.run(executable.path, arguments, standardOutput: .capture, standardError: .sameAsOutput)
        return (run.signal == nil ? run.exitStatus : 128 + run.signal!, run.output)
    }
}
