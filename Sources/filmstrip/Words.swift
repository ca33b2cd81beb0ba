/// Text for people that argument-parser and string interpolation do not get right alone:
/// counts with their noun's plural, and help lists whose lines wrap under their own column.
enum Words {
    /// "1 thumbnail", "2 thumbnails"; `plural` where adding "s" is wrong.
    static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    /// Lines of `  NAME  summary` with the names padded to one column and each summary
    /// wrapped at `width` characters under its own start: argument-parser wraps a discussion's
    /// long lines back to column 0, which tore a summary from its name.
    static func list(_ items: [(name: String, summary: String)], nameWidth: Int, width: Int = 79) -> String {
        let indent = 2 + nameWidth + 1
        return items.map { item in
            var lines: [String] = [], line = ""
            for word in item.summary.split(separator: " ") {
                if !line.isEmpty && indent + line.count + 1 + word.count > width {
                    lines.append(line)
                    line = String(word)
                } else {
                    line += (line.isEmpty ? "" : " ") + word
                }
            }
            lines.append(line)
            let first = "  " + item.name.padded(to: nameWidth) + " " + lines[0]
            return ([first] + lines.dropFirst().map { String(repeating: " ", count: indent) + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
