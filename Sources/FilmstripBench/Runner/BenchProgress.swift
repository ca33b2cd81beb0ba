import Filmstrip
import FilmstripResults
import Foundation
import Glibc

/// The progress line on stderr: rewritten in place with the running configuration and
/// an ETA when stderr is a terminal; a line per repetition otherwise, so CI logs stay short.
/// On a terminal of known width, notes are wrapped at spaces to it (a log keeps each note on
/// one line, for grep).
package final class BenchProgress {
    private let isTerminal: Bool
    /// The terminal's width in characters, when stderr is one and its width is known.
    private let columns: Int?
    /// Only notes (warnings, disagreements): no progress line, no round milestones (`bench --quiet`).
    private let quiet: Bool
    private var lineShown = false
    /// Told of every run about to start, whatever the terminal (`bench --json`'s progress lines).
    private let onRunning: ((Running) -> Void)?
    /// Where the text goes: standard error (the tests collect it instead).
    private let write: (String) -> Void

    /// A run about to start: its configuration, the round, how many runs of the session are done.
    package struct Running {
        /// The configuration's label, as the progress line shows it.
        package let label: String
        /// The round, e.g. "rep 2/6" or "until decided 3".
        package let round: String
        /// Runs finished so far.
        package let done: Int
        /// Runs planned in all.
        package let total: Int
        /// Seconds left, when an estimate exists.
        package let eta: Double?
    }

    /// Progress on stderr (or to `write`); `columns`, the terminal's width, wraps the notes and
    /// cuts the progress line (nil: neither); `quiet` leaves only the notes; `onRunning` hears of each run.
    package init(isTerminal: Bool = isatty(STDERR_FILENO) != 0, columns: Int? = nil, quiet: Bool = false, onRunning: ((Running) -> Void)? = nil,
                write: @escaping (String) -> Void = { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) }) {
        self.isTerminal = isTerminal
        self.columns = isTerminal ? columns : nil
        self.quiet = quiet
        self.onRunning = onRunning
        self.write = write
    }

    /// Shows the run about to start: `done` of `total` runs finished, `eta` in seconds when known
    /// (`rough`: a guess for runs of configurations that have not run yet, shown as `~`).
    func running(_ label: String, round: String, done: Int, total: Int, eta: Double?, rough: Bool = false) {
        onRunning?(Running(label: label, round: round, done: done, total: total, eta: eta))
        guard isTerminal, !quiet else { return }
        let etaText = eta.map { ", ETA \(rough ? "~" : "")\(Self.clock($0))" } ?? ""
        // Counts, round and ETA before the label, where a narrow terminal does not cut them off
        // and they stay in place from run to run. The label names the video, which may be a
        // user's file of any name: one line, escaped.
        var line = FileSystemName.display("[\(done)/\(total)] \(round)\(etaText): \(label)")
        // One row, or the next rewrite would leave the wrapped part behind.
        if let columns, line.count > columns - 1 { line = String(line.prefix(columns - 1)) }
        write("\r\u{1B}[K\(line)")
        lineShown = true
    }

    /// A line that must stay in the log even with `--quiet` (an error, a disagreement).
    package func note(_ text: String) {
        clear()
        let line = FileSystemName.display(text)
        // A terminal would break a long line mid-word; continuation lines are indented.
        let lines = columns.map { TextWidth.wrapped(line, width: $0) } ?? [line]
        write(lines.map { $0 + "\n" }.joined())
    }

    /// A line for the log that `--quiet` leaves out (the plan, a warning about the machine or the spread).
    package func info(_ text: String) {
        if !quiet { note(text) }
    }

    /// A round boundary: printed only when the progress line is not shown, as the line replaces it.
    func milestone(_ text: String) {
        if !isTerminal, !quiet { note(text) }
    }

    func clear() {
        guard lineShown else { return }
        write("\r\u{1B}[K")
        lineShown = false
    }

    /// `m:ss` (or `h:mm:ss`) for a duration in seconds.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }
}
