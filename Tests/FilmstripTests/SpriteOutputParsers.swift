import Filmstrip
import Foundation

/// Strict readers for what `filmstrip sprite` writes, so tests check the files as a player would read them.
enum SpriteParsers {
    struct Cue: Equatable {
        var start: Int64
        var end: Int64
        var sheet: String
        var rect: PixelRect
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// A WebVTT thumbnail track: the `WEBVTT` line, then blocks of a timing line and one
    /// `URL#xywh=x,y,w,h` line separated by single blank lines; anything else is an error.
    static func webVTT(_ text: String) throws -> [Cue] {
        guard text.hasSuffix("\n") else { throw ParseError(description: "no final newline") }
        let blocks = text.dropLast().components(separatedBy: "\n\n")
        guard blocks.first == "WEBVTT" else { throw ParseError(description: "no WEBVTT header") }
        // NOTE blocks (comments) may come before the cues.
        return try blocks.dropFirst().filter { !$0.hasPrefix("NOTE ") && $0 != "NOTE" }.map { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count == 2 else { throw ParseError(description: "cue block of \(lines.count) lines: \(block)") }
            let times = lines[0].components(separatedBy: " --> ")
            guard times.count == 2, let start = milliseconds(times[0]), let end = milliseconds(times[1]) else {
                throw ParseError(description: "bad timing line \(lines[0])")
            }
            let parts = lines[1].components(separatedBy: "#xywh=")
            let numbers = parts.count == 2 ? parts[1].split(separator: ",", omittingEmptySubsequences: false).compactMap { Int($0) } : []
            guard parts.count == 2, !parts[0].isEmpty, numbers.count == 4, numbers.allSatisfy({ $0 >= 0 }) else {
                throw ParseError(description: "bad payload \(lines[1])")
            }
            return Cue(start: start, end: end, sheet: parts[0], rect: PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
        }
    }

    /// `HH:MM:SS.mmm` with exactly these digit counts.
    static func milliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 12, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"), bytes[8] == UInt8(ascii: ".") else { return nil }
        let fields = [0..<2, 3..<5, 6..<8, 9..<12].map { Int64(String(decoding: bytes[$0], as: UTF8.self)) }
        guard fields.allSatisfy({ $0 != nil }), let hours = fields[0], let minutes = fields[1], let seconds = fields[2], let millis = fields[3],
              minutes < 60, seconds < 60 else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
    }

    struct BIF {
        var version: UInt32
        var multiplier: UInt32
        var entries: [(timestamp: UInt32, offset: UInt32)]
        var images: [Data]
    }

    /// A BIF archive read by its published layout; every inconsistency is an error.
    static func bif(_ data: Data) throws -> BIF {
        let bytes = [UInt8](data)
        func word(_ at: Int) -> UInt32 { UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24 }
        guard bytes.count >= 72, bytes.prefix(8) == [0x89, 0x42, 0x49, 0x46, 0x0D, 0x0A, 0x1A, 0x0A] else { throw ParseError(description: "bad magic") }
        let count = Int(word(12))
        guard bytes[20..<64].allSatisfy({ $0 == 0 }) else { throw ParseError(description: "reserved bytes not zero") }
        guard bytes.count >= 64 + 8 * (count + 1) else { throw ParseError(description: "index runs past the end") }
        var entries: [(UInt32, UInt32)] = []
        for index in 0...count { entries.append((word(64 + 8 * index), word(68 + 8 * index))) }
        guard entries[count].0 == 0xFFFF_FFFF, Int(entries[count].1) == bytes.count else { throw ParseError(description: "bad index terminator") }
        guard Int(entries.first!.1) == 64 + 8 * (count + 1) else { throw ParseError(description: "first image not right after the index") }
        var images: [Data] = []
        for index in 0..<count {
            let (from, to) = (Int(entries[index].1), Int(entries[index + 1].1))
            guard from < to else { throw ParseError(description: "offsets not increasing") }
            if index > 0, entries[index].0 <= entries[index - 1].0 { throw ParseError(description: "timestamps not increasing") }
            images.append(Data(bytes[from..<to]))
        }
        return BIF(version: word(8), multiplier: word(16), entries: Array(entries.dropLast()).map { (timestamp: $0.0, offset: $0.1) }, images: images)
    }

    struct PlaylistEntry {
        var seconds: String
        var resolution: String
        var layout: String
        var tileSeconds: String
        var url: String
    }

    /// Jellyfin's trickplay playlist, line by line: the fixed header, then for every sheet
    /// `#EXTINF:S,`, `#EXT-X-TILES:RESOLUTION=WxH,LAYOUT=CxR,DURATION=S` and its URL, then `#EXT-X-ENDLIST`.
    static func playlist(_ text: String) throws -> [PlaylistEntry] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.last == "" else { throw ParseError(description: "no final newline") }
        lines.removeLast()
        let header = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-MEDIA-SEQUENCE:1", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-IMAGES-ONLY"]
        guard lines.count >= 7, lines[0] == header[0], lines[1].hasPrefix("#EXT-X-TARGETDURATION:"), Array(lines[2..<6]) == Array(header[1...]),
              lines.last == "#EXT-X-ENDLIST", (lines.count - 7) % 3 == 0 else { throw ParseError(description: "bad playlist frame") }
        return try stride(from: 6, to: lines.count - 1, by: 3).map { at in
            let inf = lines[at], tiles = lines[at + 1], url = lines[at + 2]
            guard inf.hasPrefix("#EXTINF:"), inf.hasSuffix(","), tiles.hasPrefix("#EXT-X-TILES:"), !url.hasPrefix("#") else {
                throw ParseError(description: "bad entry at line \(at + 1)")
            }
            var attributes: [String: String] = [:]
            for pair in tiles.dropFirst("#EXT-X-TILES:".count).split(separator: ",") {
                let keyValue = pair.split(separator: "=", maxSplits: 1)
                guard keyValue.count == 2 else { throw ParseError(description: "bad attribute \(pair)") }
                attributes[String(keyValue[0])] = String(keyValue[1])
            }
            guard attributes.count == 3, let resolution = attributes["RESOLUTION"], let layout = attributes["LAYOUT"], let duration = attributes["DURATION"] else {
                throw ParseError(description: "bad tiles line \(tiles)")
            }
            return PlaylistEntry(seconds: String(inf.dropFirst("#EXTINF:".count).dropLast()), resolution: resolution, layout: layout,
                                 tileSeconds: duration, url: url)
        }
    }

    /// An image file (JPEG, WebP, PNG) decoded by FFmpeg into RGBA at its own size.
    static func decodeImage(_ path: String) throws -> Image { try ImageDecoder.decode(path: path) }
}
