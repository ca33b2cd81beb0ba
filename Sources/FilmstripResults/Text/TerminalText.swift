/// The one sanitiser for text a command prints to a terminal: names in results files (videos,
/// pipelines, machines, options) come from files other people may send, and an escape
/// sequence in one (`ESC ]…` sets the window title, `ESC [2J` clears the screen, a bidi override
/// reorders what is read) must reach the terminal as visible characters, never as a command.
package enum TerminalText {
    /// `text` with every control character but line breaks and tabs, and every bidi control,
    /// written as `\u{…}` (e.g. ESC as `\u{1B}`), so the reader sees that it was there.
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" || scalar == "\t" { return false }
        // C0 and C1 controls and DEL; the explicit bidi embeddings, overrides and isolates.
        return scalar.properties.generalCategory == .control
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
