import Foundation

/// Readable names for the Swift symbols callgrind reports, so an instruction gate's change
/// names `Filmstrip.ThumbnailRenderer.render(...)` instead of
/// `$s9Filmstrip17ThumbnailRendererV6renderyAA5ImageVAA5FrameVAA11FFmpegErrorVYKF`.
///
/// Not the toolchain's demangler (`swift demangle` is absent where only the runtime is
/// installed, and a child process per function would slow `compare`): the module, the nested
/// types and the entity's name, with `(...)` for a function, `.getter`, `init(...)` or
/// `closure in`; argument and generic types are left out. A symbol outside that subset (word
/// substitutions, private discriminators, anything unparsed) is returned as it came.
package enum SwiftSymbol {
    /// `symbol` demangled to the subset above, or unchanged.
    package static func readable(_ symbol: String) -> String {
        guard let prefix = ["_$s", "$s", "_$S", "$S"].first(where: { symbol.hasPrefix($0) }) else { return shortenedCPlusPlus(symbol) }
        guard let parsed = names(Array(symbol.dropFirst(prefix.count).utf8)) else { return symbol }
        let rest = String(decoding: parsed.rest, as: UTF8.self)
        let kind = rest.replacingOccurrences(of: #"T[gmAfQYuRW][0-9A-Za-z_]*$"#, with: "", options: .regularExpression)
        var path = parsed.contexts
        if kind.hasSuffix("fC") || kind.hasSuffix("fc") { return (path + ["init(...)"]).joined(separator: ".") }
        if kind.hasSuffix("fD") || kind.hasSuffix("fd") { return (path + ["deinit"]).joined(separator: ".") }
        // Stopped short of an entity (a word substitution, metadata such as a field descriptor),
        // or an operator (`2eeoi`): outside the subset.
        guard let entity = parsed.entity, !["oi", "op", "oP"].contains(where: { rest.hasPrefix($0) }), !kind.hasSuffix("MF") else { return symbol }
        path.append(entity)
        let accessors = ["vg": "getter", "vs": "setter", "vM": "modify", "vr": "read", "vw": "willset", "vW": "didset"]
        if let accessor = accessors.first(where: { kind.hasSuffix($0.key) }) { return (path + [accessor.value]).joined(separator: ".") }
        let name = path.joined(separator: ".")
        if kind.range(of: #"[0-9]+[A-Za-z_][A-Za-z0-9_]*L[0-9]*_"#, options: .regularExpression) != nil {
            // A function local to the entity (`…yyF5localL_yyF`): named by where it is.
            return "local function in \(name)(...)"
        }
        if kind.range(of: #"f[Uu][0-9]*_$"#, options: .regularExpression) != nil {
            // A closure's context is the function it is in, named before it with its signature.
            return "closure in \(name)(...)"
        }
        // A generic specialization lists its type arguments after the function, up to `_`.
        let function = kind.hasSuffix("_") ? String(kind[..<(kind.lastIndex(of: "F").map { kind.index(after: $0) } ?? kind.endIndex)]) : kind
        if function.hasSuffix("FZ") { return "static \(name)(...)" }
        return function.hasSuffix("F") ? name + "(...)" : name
    }

    /// The Swift standard library's one-letter types after `S` (`Sa` is `Swift.Array`).
    private static let standardTypes: [UInt8: String] = [
        UInt8(ascii: "a"): "Array", UInt8(ascii: "D"): "Dictionary", UInt8(ascii: "h"): "Set", UInt8(ascii: "S"): "String",
        UInt8(ascii: "i"): "Int", UInt8(ascii: "u"): "UInt", UInt8(ascii: "q"): "Optional", UInt8(ascii: "d"): "Double",
    ]

    /// The module and nested types (each an identifier followed by its kind), the entity's
    /// name (an identifier followed by anything else), and the bytes after them.
    private static func names(_ bytes: [UInt8]) -> (contexts: [String], entity: String?, rest: ArraySlice<UInt8>)? {
        var position = 0
        var contexts: [String] = []
        if bytes.first == UInt8(ascii: "s") {
            contexts = ["Swift"]
            position = 1
        } else if bytes.first == UInt8(ascii: "S"), bytes.count > 1, let type = standardTypes[bytes[1]] {
            contexts = ["Swift", type]
            position = 2
        }
        while position < bytes.count, let (identifier, end) = identifier(in: bytes, at: position) {
            let next = end < bytes.count ? bytes[end] : 0
            switch next {
            case UInt8(ascii: "V"), UInt8(ascii: "C"), UInt8(ascii: "O"), UInt8(ascii: "P"):
                contexts.append(identifier)
                position = end + 1
            case UInt8(ascii: "E") where contexts.count > 1:
                // An extension: the identifier is the module it was written in, not a type.
                position = end + 1
            case _ where contexts.isEmpty:
                contexts.append(identifier)   // the module
                position = end
            default:
                return (contexts, identifier, bytes[end...])
            }
        }
        return contexts.isEmpty ? nil : (contexts, nil, bytes[position...])
    }

    /// A length-prefixed identifier (`17ThumbnailRenderer`); nil for a word substitution
    /// (`0`-led) or a length past the end.
    private static func identifier(in bytes: [UInt8], at start: Int) -> (String, Int)? {
        var position = start, length = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            length = length * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            position += 1
            if length == 0 || length > 4096 { return nil }
        }
        guard position > start, position + length <= bytes.count else { return nil }
        return (String(decoding: bytes[position..<position + length], as: UTF8.self), position + length)
    }

    /// A C++ name as callgrind demangles it (the Swift runtime's own functions) with every
    /// argument and template argument list cut to `(...)` and `<...>`: the qualified name tells
    /// functions apart in a gate's line, while one lambda of the runtime's conformance lookup ran
    /// to six lines of `swift::TargetMetadata<swift::InProcess> const*`. A name whose brackets do
    /// not pair up (`operator<`, `operator->`) is returned as it came.
    static func shortenedCPlusPlus(_ name: String) -> String {
        guard name.contains("::") else { return name }
        var result = "", depth = 0, groupIsEmpty = true
        for character in name {
            switch character {
            case "(", "<":
                if depth == 0 { result.append(character); groupIsEmpty = true } else { groupIsEmpty = false }
                depth += 1
            case ")", ">":
                depth -= 1
                guard depth >= 0 else { return name }
                if depth == 0 { result += groupIsEmpty ? String(character) : "...\(character)" }
            default:
                if depth == 0 { result.append(character) } else { groupIsEmpty = false }
            }
        }
        return depth == 0 ? result : name
    }
}
