import ArgumentParser
import Filmstrip
import FilmstripResults
import Foundation

extension ExportFormat: ExpressibleByArgument {}

extension FilmstripCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a raw results file in a format other tools read: hyperfine-style JSON, Bencher BMF, github-action-benchmark, markdown; or the bounds table.",
            discussion: """
                Each configuration is named `SHORT-NAME #CONFIG_ID`; the config id is a hash of the configuration, \
                the same in every file. Only a configuration's latest run in the file is exported (the candidate's \
                rows in a two-build run). Exit status: 0 written, 1 bad input (nothing written).
                """)

        @Argument(help: "A raw results file (NAME-raw.csv).", completion: .file(extensions: ["csv"]))
        var rawFile: String

        @Argument(help: "With --format markdown: a second machine's raw results file; the markdown then compares the machines (wall-time speed-ups, each machine's ranking).", completion: .file(extensions: ["csv"]))
        var otherMachineFile: String?

        @Option(help: "json (hyperfine's shape), bmf (Bencher), github-benchmark (customSmallerIsBetter), markdown, or bounds (the default pipeline beside its bound and the ffmpeg CLI).")
        var format: ExportFormat = .json

        @Option(name: .shortAndLong, help: "Output file (default: standard output).", completion: .file())
        var output: String?

        func validate() throws {
            if otherMachineFile != nil && format != .markdown {
                throw ValidationError("a second results file is compared only with --format markdown.")
            }
        }

        func run() throws {
            let rows: [RawResultRow]
            do {
                rows = try ResultsFileReader.readMeasurements(from: rawFile)
                if try writeMachineComparison(rows) { return }
            } catch let error as ExitCode {
                throw error
            } catch {
                throw failWithMessage(error)
            }
            do {
                try ExportWriter.write(rows: rows, format: format, to: output, inputs: [rawFile])
            } catch ExportError.nothingToExport {
                throw failWithMessage("\(rawFile): \(ExportError.nothingToExport)")
            } catch {
                // Errors from here on name the output file themselves.
                throw failWithMessage(error)
            }
        }
    }
}

extension FilmstripCommand.Export {
    /// `--format markdown` of two machines (two files, or one file holding two machines' runs):
    /// the hardware comparison instead of one run's table. `false` when the rows are one machine's.
    func writeMachineComparison(_ rows: [RawResultRow]) throws -> Bool {
        guard format == .markdown else { return false }
        let comparison: HardwareComparison
        if let otherMachineFile {
            let other = try ResultsFileReader.readMeasurements(from: otherMachineFile)
            guard HardwareComparison.differentMachines(rows, other) else {
                throw failWithMessage("\(otherMachineFile): comes from the same machine as \(rawFile); a second file is for another machine's run")
            }
            comparison = HardwareComparison(baseline: rows, candidate: other, baselinePath: rawFile, candidatePath: otherMachineFile)
        } else if !rows.contains(where: { $0.build != nil }), let split = HardwareComparison.splitByMachine(rows) {
            comparison = HardwareComparison(baseline: split.baseline, candidate: split.candidate, baselinePath: rawFile, candidatePath: rawFile)
        } else {
            return false
        }
        let inputs = [rawFile] + (otherMachineFile.map { [$0] } ?? [])
        guard let output, output != "-" else {
            try Console.out(comparison.markdown, terminator: "")
            return true
        }
        let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath()
        if inputs.contains(where: { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath() == target }) {
            throw failWithMessage("\(output): is an input file; not overwriting it")
        }
        try StripWriter.writeAtomically(Data(comparison.markdown.utf8), to: target.path)
        return true
    }
}

/// Writes exports for `export` and `bench --export`, so both make the same bytes.
enum ExportWriter {
    /// Writes `rows` in `format` to `path` (standard output for nil or `-`), atomically: a failed
    /// write leaves no partial file. Refuses to overwrite one of `inputs`.
    static func write(rows: [RawResultRow], format: ExportFormat, to path: String?, inputs: [String]) throws {
        let configurations = ResultsExport.configurations(from: rows)
        guard !configurations.isEmpty else { throw ExportError.nothingToExport }
        let text = try ResultsExport.render(configurations, as: format)
        guard let path, path != "-" else {
            try Console.out(text, terminator: "")
            return
        }
        let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        if inputs.contains(where: { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath() == target }) {
            throw ValidationError("\(path): is an input file; not overwriting it")
        }
        try StripWriter.writeAtomically(Data(text.utf8), to: target.path)
    }

    /// Writes each `FORMAT=FILE` request of `bench --export`; a failure is one line on stderr and exit 1.
    static func writeRequests(_ requests: [ExportRequest], rows: [RawResultRow], inputs: [String]) throws {
        for request in requests {
            do {
                try write(rows: rows, format: request.format, to: request.path, inputs: inputs)
            } catch {
                throw failWithMessage("--export \(request.format.rawValue)=\(request.path): \(oneLineMessage(error))")
            }
            try Console.out("\(request.format.rawValue) export written to \(FileSystemName.display(request.path))")
        }
    }
}

/// `FORMAT=FILE` of `bench --export`, parsed once when the options are.
struct ExportRequest {
    var format: ExportFormat
    var path: String

    init(parsing text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let format = ExportFormat(rawValue: parts[0]), !parts[1].isEmpty else {
            throw ValidationError("--export takes FORMAT=FILE with FORMAT one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")); got '\(text)'.")
        }
        self.format = format
        path = parts[1]
    }
}
