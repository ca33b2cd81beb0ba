/// The one rule for text a command prints to a terminal. File names are whatever bytes someone
/// chose (a download, a shared folder) and names in results files come from files other people
/// may send; an escape sequence in one (`ESC ]…` sets the window title, `ESC [2J` clears the
/// screen, a bidi override reorders what is read, a line feed forges a second message) must
/// reach the terminal as visible characters, never as a command. JSON output needs none of
/// this: its encoder escapes control characters, and it keeps the real name.
package enum TerminalText {
    /// `text` on one line: every control character (C0 with line feed and tab, DEL, C1), every
    /// bidi control and every byte that is not UTF-8 written as an escape, so an error or a
    /// summary that names a file is always one line and shows every byte of the name.
    package static func line(_ text: String) -> String { escaped(text, keepingLineBreaks: false) }

    /// `text` whose line breaks and tabs are its own (a report, a table): everything else
    /// `line(_:)` escapes is escaped. A name inside such text goes through `line(_:)` first,
    /// or a line feed in it would pass for the text's own.
    package static func visible(_ text: String) -> String { escaped(text, keepingLineBreaks: true) }

    /// `json`, encoded JSON, with the characters JSON lets through raw but a terminal acts on
    /// (DEL, C1, the bidi controls; the encoder already escapes C0) written as `\uXXXX`: still
    /// valid JSON, which decodes to the real name. Outside strings JSON holds none of them.
    package static func json(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isUnescapedByJSON) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isUnescapedByJSON(scalar) {
                result.append(contentsOf: ("\\u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isUnescapedByJSON(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        func kept(_ scalar: Unicode.Scalar) -> Bool { keepingLineBreaks && (scalar == "\n" || scalar == "\t") }
        guard text.unicodeScalars.contains(where: { !kept($0) && escape($0) != nil }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !kept(scalar), let escape = escape(scalar) {
                result.append(contentsOf: escape.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// How `scalar` is shown, or nil when it shows as itself. The C escapes a shell's `$'…'`
    /// reads for the common controls, `\xNN` for the other C0 bytes, DEL and bytes that are not
    /// UTF-8 (each is one byte of the name), `\u{…}` for the C1 and bidi code points.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        if let byte = FileSystemName.escapedByte(scalar) { return hexByte(byte) }
        switch scalar.value {
        case 0x07: return "\\a"
        case 0x08: return "\\b"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0B: return "\\v"
        case 0x0C: return "\\f"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0x00...0x1F, 0x7F: return hexByte(UInt8(scalar.value))
        // C1 controls (0x9B alone starts a control sequence on many terminals); the explicit
        // bidi embeddings, overrides and isolates.
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: return nil
        }
    }

    private static func hexByte(_ byte: UInt8) -> String { "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
}
