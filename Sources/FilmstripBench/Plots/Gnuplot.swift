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
        let terminals = (try? Self.run(executable, arguments: ["-e", "set terminal"], in: nil).output) ?? ""
        pngTerminal = terminals.contains("pngcairo") ? "pngcairo" : "png"
    }

    /// Runs `script` (a file name in `directory`) with gnuplot variables set first, as
    /// `gnuplot -e "name='value'; …" script` (values quoted by `PlotText.scriptString`), from `directory` so relative data paths resolve.
    func draw(script: String, variables: [(String, String)], in directory: URL) throws(PlotError) {
        let assignments = variables.map { "\($0.0)=\(PlotText.scriptString($0.1))" }.joined(separator: "; ")
        let result: (status: Int32, output: String)
        do {
            result = try Self.run(executable, arguments: ["-e", assignments, script], in: directory)
        } catch {
            throw .gnuplotFailed(script: script, status: -1, message: "\(error)")
        }
        guard result.status == 0 else {
            let lastLines = result.output.split(separator: "\n").suffix(3).joined(separator: " | ")
            throw .gnuplotFailed(script: directory.appendingPathComponent(script).path, status: result.status, message: lastLines)
        }
    }

    /// Exit status and combined stdout+stderr (gnuplot prints `set terminal` lists and errors on stderr).
    private static func run(_ executable: URL, arguments: [String], in directory: URL?) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read before waiting: a full pipe would otherwise block gnuplot and the wait forever.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
