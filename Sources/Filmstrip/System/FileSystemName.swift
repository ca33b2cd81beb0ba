import Foundation

/// File names are bytes on Linux, not always UTF-8 (a name written under another locale, a
/// damaged disk). A Swift `String` holds only Unicode, so a path that is not UTF-8 travels
/// through the package as a string in which each byte that is not part of valid UTF-8 stands
/// as one code point of the last 256 of plane 16 (U+10FF00 + byte, a private-use range no
/// encoding assigns), and is turned back into its bytes at every system call. Valid UTF-8 that
/// spells a code point of that range is carried the same way, byte by byte, so every byte
/// sequence maps to exactly one string and back; a UTF-8 name is its own string.
public enum FileSystemName {
    private static let escapeBase: UInt32 = 0x10_FF00

    /// The string that carries the file name or path `bytes`.
    public static func string<Bytes: Collection>(fromBytes bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length > 0, let scalar = String(decoding: bytes[index..<index + length], as: UTF8.self).unicodeScalars.first,
               scalar.value < escapeBase {
                result.append(scalar)
                index += length
            } else {
                // An invalid byte, or a valid sequence that spells an escape code point: each byte escaped.
                for byte in bytes[index..<index + max(1, length)] { result.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
                index += max(1, length)
            }
        }
        return String(result)
    }

    /// The bytes of the file name or path `string` carries (its UTF-8 where it escapes nothing).
    public static func bytes(of string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            if scalar.value >= escapeBase {
                bytes.append(UInt8(scalar.value - escapeBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with the NUL-terminated bytes of the path `string` carries, for a system call.
    public static func withCString<Result, Failure: Error>(_ string: String,
                                                          _ body: (UnsafePointer<CChar>) throws(Failure) -> Result) throws(Failure) -> Result {
        var bytes = Self.bytes(of: string).map { CChar(bitPattern: $0) }
        bytes.append(0)
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        defer { pointer.deallocate() }
        pointer.initialize(from: bytes, count: bytes.count)
        return try body(pointer)
    }

    /// True when `string` carries bytes that are not UTF-8 (or escape code points).
    public static func hasEscapedBytes(_ string: String) -> Bool {
        string.unicodeScalars.contains { $0.value >= escapeBase }
    }

    /// `string` for people, on one line: each byte that is not UTF-8 written as `\xNN`, and
    /// every control and bidi character as an escape (`TerminalText.line(_:)`, the one rule for
    /// what reaches a terminal), so a name can neither break a message in two nor drive the terminal.
    public static func display(_ string: String) -> String { TerminalText.line(string) }

    /// The byte a code point of the escape range stands for; nil for any other code point.
    static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= escapeBase ? UInt8(scalar.value - escapeBase) : nil
    }

    /// `string` as valid UTF-8 text for names written into text files (WebVTT, HTML): each byte
    /// that is not UTF-8 becomes U+FFFD, as decoders repair such text.
    public static func repaired(_ string: String) -> String {
        guard hasEscapedBytes(string) else { return string }
        return String(String.UnicodeScalarView(string.unicodeScalars.map { $0.value >= escapeBase ? "\u{FFFD}" : $0 }))
    }

    /// The command line's arguments as strings that carry their exact bytes (Swift's
    /// `CommandLine.arguments` replaces bytes that are not UTF-8, so such a file name names no file).
    public static var commandLineArguments: [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return string(fromBytes: UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self),
                                                         count: strlen(argument)))
        }
    }

    /// Length of the valid UTF-8 sequence at `index` (1–4), 0 when the bytes there are not one.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        if first < 0x80 { return 1 }
        let length: Int
        let range: ClosedRange<UInt8>
        switch first {
        case 0xC2...0xDF: length = 2; range = 0x80...0xBF
        case 0xE0: length = 3; range = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; range = 0x80...0xBF
        case 0xED: length = 3; range = 0x80...0x9F
        case 0xF0: length = 4; range = 0x90...0xBF
        case 0xF1...0xF3: length = 4; range = 0x80...0xBF
        case 0xF4: length = 4; range = 0x80...0x8F
        default: return 0
        }
        guard index + length <= bytes.count, range.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}

extension String {
    /// This string after enough `pad` characters to make it `length` long (never cut): zero-padded
    /// hex digests and counters.
    package func leftPadded(to length: Int, with pad: Character = "0") -> String {
        count >= length ? self : String(repeating: pad, count: length - count) + self
    }
}
