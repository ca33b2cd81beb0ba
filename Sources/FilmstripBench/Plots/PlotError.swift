/// Why `filmstrip plot` could not draw.
public enum PlotError: Error, Hashable, CustomStringConvertible {
    /// No `gnuplot` executable at the given path or on `PATH`.
    case gnuplotMissing(searched: String)
    /// gnuplot exited with `status` on `script`; `message` is the end of its stderr.
    case gnuplotFailed(script: String, status: Int32, message: String)
    case noInput
    case unreadable(ResultsFileError)
    /// A file or folder of the output could not be written.
    case io(path: String, reason: String)

    public var description: String {
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
        }
    }
}
