import Filmstrip
import FilmstripBench
import FilmstripResults
import FilmstripProcess
import Foundation
import Synchronization

/// The command line's one way to its standard output and standard error: `write(2)` with
/// EINTR retried and partial writes completed, failures reported instead of ignored (Swift's
/// `print` drops them and the process exits 0) or trapped on (`FileHandle.write(_: Data)` is
/// a `try!`). SIGPIPE is ignored (`ignoreBrokenPipes`), so a reader that went away shows up
/// here as EPIPE, like a full disk as ENOSPC.
enum Console {
    /// Set once a line could not be written to standard error, where no message can go: the
    /// exit status is made non-zero instead (`exit(_:)`).
    private static let standardErrorFailed = Mutex(false)

    /// Lets a closed pipe come back from `write` as EPIPE instead of killing the process
    /// mid-output, with temporary files left and nothing said. Children start with default
    /// signal dispositions (`ChildProcess` resets them), so they still die of SIGPIPE as usual.
    static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Writes `text` and `terminator` to standard output; throws `StandardOutputFailed` when
    /// the write fails (closed pipe, full disk), after which nothing more is written there.
    static func out(_ text: String, terminator: String = "\n") throws(StandardOutputFailed) {
        try out(Array((text + terminator).utf8))
    }

    /// Writes `bytes` to standard output as they are (a strip written with `-o -`).
    static func out(_ bytes: [UInt8]) throws(StandardOutputFailed) {
        if let error = write(bytes, to: STDOUT_FILENO) { throw StandardOutputFailed(code: error.code) }
    }

    /// Writes `text` and a newline to standard error. A failure cannot be reported anywhere,
    /// so it only makes the exit status non-zero. On a terminal a long line is wrapped at spaces
    /// to its width (``wrappedForStandardError(_:terminator:)``).
    static func err(_ text: String, terminator: String = "\n") {
        let text = wrappedForStandardError(text, terminator: terminator)
        if write(Array((text + terminator).utf8), to: STDERR_FILENO) != nil { standardErrorFailed.withLock { $0 = true } }
    }

    /// `text` broken at spaces to the terminal's width (continuation lines indented, as
    /// ``TextWidth/wrapped(_:width:)`` does) when standard error is a terminal, which would
    /// otherwise break a long message mid-word; as it is for a log or a pipe (one message, one
    /// line, for grep) and for a line rewritten in place (a progress line: no newline after it).
    static func wrappedForStandardError(_ text: String, terminator: String) -> String {
        guard terminator == "\n", let columns = errorColumns, !text.contains("\r") else { return text }
        return TextWidth.wrapped(lines: text.components(separatedBy: "\n"), width: columns).joined(separator: "\n")
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> SystemError? {
        bytes.withUnsafeBytes { buffer -> SystemError? in
            do throws(SystemError) {
                try System.write(descriptor, buffer, path: "")
                return nil
            } catch {
                return error
            }
        }
    }

    /// Ends the process with `status`, or 1 where it would be 0 but something could not be
    /// written; stdio's buffer (what argument-parser printed) is flushed and checked first.
    static func exit(_ status: Int32) -> Never {
        var status = status
        // nil: every stdio stream, stdout among them, without naming the global `stdout`.
        if fflush(nil) != 0 {
            err("filmstrip: cannot write to standard output: \(String(cString: strerror(errno)))")
            if status == 0 { status = 1 }
        }
        if status == 0 && standardErrorFailed.withLock({ $0 }) { status = 1 }
        Foundation.exit(status)
    }
}

/// Standard output could not be written (its `errno`): the command stops, says so on
/// standard error in one line and exits 1.
struct StandardOutputFailed: Error, CustomStringConvertible {
    let code: Int32
    var description: String { "cannot write to standard output: \(String(cString: strerror(code)))" }
}

extension Console {
    /// The width text reports fit: `COLUMNS` when set to a number, else the terminal's
    /// when standard output is one, else ``TextWidth/standard`` (a pipe, a file, CI).
    static var columns: Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return TextWidth.standard
    }

    /// The terminal's width when standard error is one (`COLUMNS` when set to a number, else
    /// what the terminal says); nil for a log, a pipe or a file, whose lines are left whole.
    static var errorColumns: Int? {
        guard isatty(STDERR_FILENO) != 0 else { return nil }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// `fields` as one line of JSON on standard output (keys sorted, slashes as they are),
    /// written with one write(2), so a reader sees each line whole and at once.
    static func jsonLine(_ fields: [String: JSONValue]) throws(StandardOutputFailed) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, whole numbers and finite doubles always encode; a NaN would give the empty object.
        let data = (try? encoder.encode(fields)) ?? Data("{}".utf8)
        try out(TerminalText.json(String(decoding: data, as: UTF8.self)))
    }
}

/// A value of a `--json` line: the commands' progress and results are flat objects of these.
enum JSONValue: Encodable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case integer(Int)
    case number(Double)

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        }
    }
}
