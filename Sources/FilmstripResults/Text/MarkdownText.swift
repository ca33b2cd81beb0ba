/// The one escaper for names written into markdown (`export --format markdown`, `bounds`): a
/// name from a results file is text, never markup. GitHub and most renderers pass raw HTML
/// through (`<img src=x onerror=…>`, `<script>`), and `|` would end a table cell.
package enum MarkdownText {
    /// `text` for a table cell or heading: `&`, `<` and `>` as HTML entities (so no tag or
    /// entity survives), markdown's punctuation backslash-escaped (no link, emphasis, code
    /// span or cell break), line breaks as spaces (a table row is one line).
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\\", "`", "*", "_", "[", "]", "|", "#", "!", "~": result += "\\\(character)"
            case "\n", "\r", "\r\n": result += " "
            default: result.append(character)
            }
        }
        return result
    }
}
