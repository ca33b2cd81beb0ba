import FilmstripResults
import Filmstrip

/// Why `filmstrip plot` could not draw.
package enum PlotError: Error, Hashable, CustomStringConvertible {
    /// No `gnuplot` executable at the given path or on `PATH`.
    case gnuplotMissing(searched: String)
    /// gnuplot exited with `status` on `script`; `message` is the end of its stderr.
    case gnuplotFailed(script: String, status: Int32, message: String)
    case noInput
    case unreadable(ResultsFileError)
    /// A file or folder of the output could not be written.
    case io(path: String, reason: String)
    /// A label (or an input's file name) holds a control character, which could end a line
    /// of a gnuplot script or a data row.
    case unsafeText(file: String, field: String, scalar: Unicode.Scalar)

    package var description: String {
        switch self {
        case let .gnuplotMissing(searched):
            "gnuplot not found (\(searched)); install it, e.g. apt-get install gnuplot-nox"
        case let .gnuplotFailed(script, status, message):
            "gnuplot failed on \(script) (exit \(status)): \(message)"
        case .noInput:
            "no results files given"
        case let .unreadable(error):
            error.description
        case let .io(path, reason):
            "\(path): \(reason)"
        case let .unsafeText(file, field, scalar):
            "\(FileSystemName.display(file)): \(field) holds control character U+\(String(scalar.value, radix: 16, uppercase: true)); refused, as it could end a line of the gnuplot script"
        }
    }
}
