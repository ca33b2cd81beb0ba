/// Text as `compare` wraps it to the terminal's width.
package enum WrappedText {
    /// `text`'s lines with each wrapped line's continuations (four more spaces of indent)
    /// joined back, as scripts/gate-experiments.sh joins them before its greps.
    package static func joined(_ text: String) -> [String] {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indent = line.prefix { $0 == " " }.count
            if let last = lines.last, !last.isEmpty, indent >= 4, indent == last.prefix(while: { $0 == " " }).count + 4 {
                lines[lines.count - 1] += " " + line.dropFirst(indent)
            } else {
                lines.append(line)
            }
        }
        return lines
    }
}
