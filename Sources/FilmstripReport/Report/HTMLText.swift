import FilmstripResults
import Foundation

/// Text for HTML and inline SVG. Every string from a results file passes through `escape`:
/// results files come from other machines and people, so a machine named `<script>` must
/// reach the page as text, never as markup.
enum HTMLText {
    /// `text` safe as element content and as a double- or single-quoted attribute value.
    /// Control characters (which HTML forbids) become U+FFFD.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.properties.generalCategory == .control || (0xFDD0...0xFDEF).contains(scalar.value) {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    /// `text` cut to `limit` characters with an ellipsis, for chart labels of fixed width.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    static func mebibytes(_ bytes: Double) -> String { String(format: "%.1f MiB", bytes / 1_048_576) }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }

    /// A ratio as a signed percent change, `1.123` → `+12.3 %`.
    static func percent(_ ratio: Double) -> String { String(format: "%+.1f %%", (ratio - 1) * 100) }
}
