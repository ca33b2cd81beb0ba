import ArgumentParser

/// Argument-parser's words for two kinds of bad option value, made to say what is wrong.
///
/// It takes any word that starts with `-` for an option, so `--height -5` or `--at -1` came out
/// as "Missing value for '--height <height>'": the value was there, only negative. And a value
/// its type cannot read is "invalid" with no reason: `--timeout 0.000001` never said that the
/// option counts whole seconds.
enum OptionValueMessages {
    /// `arguments` with the first negative number that follows the option `error` says is
    /// missing its value joined to that option (`--height=-5`), so that the command's own
    /// checks judge the value; nil when `error` is no such case.
    static func joiningNegativeValue(after error: any Error, in arguments: [String]) -> [String]? {
        let message = FilmstripCommand.fullMessage(for: error)
        guard let match = message.firstMatch(of: /Missing value for '(--[a-z0-9-]+)/) else { return nil }
        let option = String(match.output.1)
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        guard let index = arguments[..<end].indices.first(where: { index in
            arguments[index] == option && index + 1 < end && arguments[index + 1].wholeMatch(of: /-\.?[0-9][0-9.:%]*/) != nil
        }) else { return nil }
        var joined = arguments
        joined.replaceSubrange(index...(index + 1), with: ["\(option)=\(arguments[index + 1])"])
        return joined
    }

    /// `message` with the reason a value was refused, where argument-parser gives none and the
    /// reason is plain: a number with a fraction for an option that counts whole units.
    static func withReason(_ message: String) -> String {
        guard let match = message.firstMatch(of: /The value '([^']*)' is invalid for '(--[a-z0-9-]+)[^']*'/),
              Int(match.output.1) == nil, let number = Double(match.output.1), number.isFinite else { return message }
        let end = match.range.upperBound
        // A transform's own reason follows the match after a colon: that one says it already.
        guard end == message.endIndex || message[end].isNewline else { return message }
        return message.replacingCharacters(in: end..<end, with: ": \(match.output.2) takes a whole number")
    }
}
