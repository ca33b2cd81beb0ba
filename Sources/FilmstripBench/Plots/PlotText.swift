import Foundation

/// Text helpers for gnuplot data files and scripts.
enum PlotText {
    /// A number gnuplot reads back precisely enough for plotting (six significant digits).
    static func number(_ value: Double) -> String {
        value.isFinite ? String(format: "%.6g", value) : "NaN"
    }

    /// `text` as a double-quoted string that reads the same in a gnuplot script and in a
    /// data file. Data files do not process backslash escapes, so instead of escaping,
    /// double quotes become single ones and backslashes slashes; the terminals run
    /// `noenhanced`, so `_` and `^` in names stay literal.
    static func quoted(_ text: String) -> String {
        let safe = text.map { character -> Character in
            switch character {
            case "\"": "'"
            case "\\": "/"
            case "\n", "\r": " "
            default: character
            }
        }
        return "\"" + String(safe) + "\""
    }

    /// A safe file-name part: letters, digits, `-` and `.`; anything else becomes `-`.
    static func fileStem(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
    }
}
