/// Reports fit the reader's terminal: `compare` prints tables and verdicts people read in a
/// window, and a line longer than it wraps mid-word and breaks the table's columns.
package enum TextWidth {
    /// The width when nothing says otherwise (no `COLUMNS`, output not a terminal).
    package static let standard = 100

    /// Below this a table cannot be laid out at all; a narrower request is taken as this.
    static let narrowest = 40

    /// `line` broken at spaces into lines of at most `width` characters. Continuation lines
    /// are indented four spaces beyond the line's own indent, so a script can join them back
    /// (a line starting with four more spaces continues the one above). A word longer than
    /// the room left is cut, so no line is ever over `width`.
    package static func wrapped(_ line: String, width: Int) -> [String] {
        let width = Swift.max(width, narrowest)
        guard line.count > width else { return [line] }
        let indent = String(line.prefix { $0 == " " })
        let continuation = indent + "    "
        var lines: [String] = []
        var current = indent
        for word in unbroken(line.dropFirst(indent.count)) {
            var word = Substring(word)
            let lead = current.count == indent.count && lines.isEmpty || current == continuation ? "" : " "
            if current.count + lead.count + word.count <= width {
                current += lead + word
                continue
            }
            if current != indent && current != continuation {
                lines.append(current)
                current = continuation
            }
            while current.count + word.count > width {
                let room = width - current.count
                lines.append(current + word.prefix(room))
                word = word.dropFirst(room)
                current = continuation
            }
            current += word
        }
        if current != continuation && current != indent { lines.append(current) }
        return lines
    }

    /// Units a number is never parted from at a line break (`2 cores`, `12.3 ms`, `45 M`).
    static let units: Set<Substring> = ["ms", "ms,", "ms;", "ms)", "s", "s,", "s;", "s)", "µs", "µs,", "µs)", "ns",
                                        "cores)", "cores", "cores,", "core(s)", "k", "M", "G", "MB", "KB", "GB", "MiB", "KiB", "GiB", "kB"]

    /// The line's words, a `%` or `…` kept with the word before it (`-17.9 %` never ends a line
    /// at `-17.9`), and a unit with its number (`(2 cores)`, `12.3 ms`), so a wrapped change or
    /// measurement still reads as one.
    private static func unbroken(_ text: Substring) -> [String] {
        var words: [String] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let afterNumber = words.last.map { $0.last?.isNumber == true } ?? false
            if let last = words.last, !last.isEmpty, word.hasPrefix("%") || word == "…" || (afterNumber && units.contains(word)) {
                words[words.count - 1] = last + " " + word
            } else {
                words.append(String(word))
            }
        }
        return words
    }

    /// Every line of `text` wrapped to `width`.
    package static func wrapped(lines: [String], width: Int) -> [String] {
        lines.flatMap { wrapped($0, width: width) }
    }
}
