import FilmstripResults
import Foundation

/// Text helpers for gnuplot data files and scripts.
enum PlotText {
    /// A number gnuplot reads back precisely enough for plotting (six significant digits).
    static func number(_ value: Double) -> String {
        value.isFinite ? String(format: "%.6g", value) : "NaN"
    }

    /// `text` as a string literal of a gnuplot script. Single-quoted, because gnuplot expands
    /// backquotes (a shell command) and `@macros` inside double-quoted strings but nothing
    /// inside single-quoted ones, whose only escape is a doubled quote. Labels come from
    /// results files other people may send, so they must never reach gnuplot as code.
    static func scriptString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `text` as a double-quoted field of a data file, which gnuplot reads as data and never
    /// evaluates. Data files have no escapes, so double quotes become single ones and
    /// backslashes slashes; the terminals run `noenhanced`, so `_` and `^` stay literal.
    static func dataString(_ text: String) -> String {
        let safe = text.map { character -> Character in
            switch character {
            case "\"": "'"
            case "\\": "/"
            default: character
            }
        }
        return "\"" + String(safe) + "\""
    }

    /// The first control character (a line break, tab, escape, …) in `text`: such text is
    /// refused as a label, since a line break would end a script line or a data row early.
    static func controlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

    /// A safe file-name part: letters, digits, `-` and `.`; anything else becomes `-`.
    static func fileStem(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
    }
}
