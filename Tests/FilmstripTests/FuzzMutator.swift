import FilmstripResults
import Foundation

/// Deterministic damage to a video file, the way a fuzzer does it: each mutant is a pure
/// function of the original bytes, a seed and a case number, so a failure is reproduced from
/// the numbers the test prints.
struct FuzzMutator {
    enum Kind: String, CaseIterable {
        /// 1 to 8 bit flips in the first or last 4 KiB, where containers keep their headers and indexes.
        case headerBitFlips
        /// 1 to 32 bit flips anywhere.
        case bodyBitFlips
        /// The file cut at a random length.
        case truncation
        /// A run of 16 B to 4 KiB copied to another place.
        case chunkDuplication
        /// A run of 16 B to 4 KiB removed.
        case chunkRemoval
        /// A run of 16 B to 8 KiB set to zero.
        case zeroedRegion
        /// A 32-bit field of a box (its size, or the count after its version and flags) or any
        /// header position set to 0, 1, 2^31 − 1, 2^31 or 2^32 − 1.
        case extremeField
    }

    static let extremeValues: [UInt32] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]
    /// MP4 boxes whose sizes and entry counts decide allocations and loops.
    static let boxTypes = ["moov", "trak", "mdia", "minf", "stbl", "stsd", "stts", "ctts", "stss", "stsc", "stsz", "stco", "co64",
                           "avcC", "hvcC", "mdat", "elst", "tkhd", "mdhd", "hdlr"]

    var generator: SeededGenerator

    init(seed: UInt64, caseNumber: Int) {
        generator = SeededGenerator(seed: seed &+ UInt64(caseNumber) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The mutant of `original` and the kind of damage done.
    mutating func mutate(_ original: Data) -> (bytes: Data, kind: Kind) {
        var bytes = [UInt8](original)
        let kind = Kind.allCases[Int(generator.next() % UInt64(Kind.allCases.count))]
        let count = bytes.count
        func position(in range: Range<Int>) -> Int { range.lowerBound + Int(generator.next() % UInt64(max(1, range.count))) }
        func headerRange() -> Range<Int> {
            generator.next() % 2 == 0 ? 0..<min(4096, count) : max(0, count - 4096)..<count
        }
        func runLength(upTo limit: Int) -> Int { 16 + Int(generator.next() % UInt64(limit - 15)) }
        switch kind {
        case .headerBitFlips, .bodyBitFlips:
            let flips = kind == .headerBitFlips ? 1 + Int(generator.next() % 8) : 1 + Int(generator.next() % 32)
            for _ in 0..<flips {
                let at = position(in: kind == .headerBitFlips ? headerRange() : 0..<count)
                bytes[at] ^= 1 << UInt8(generator.next() % 8)
            }
        case .truncation:
            bytes.removeLast(count - position(in: 1..<count))
        case .chunkDuplication:
            let length = min(runLength(upTo: 4096), count / 2)
            let from = position(in: 0..<(count - length))
            bytes.insert(contentsOf: bytes[from..<from + length], at: position(in: 0..<count))
        case .chunkRemoval:
            let length = min(runLength(upTo: 4096), count / 2)
            let from = position(in: 0..<(count - length))
            bytes.removeSubrange(from..<from + length)
        case .zeroedRegion:
            let length = min(runLength(upTo: 8192), count / 2)
            let from = position(in: 0..<(count - length))
            bytes.replaceSubrange(from..<from + length, with: repeatElement(0, count: length))
        case .extremeField:
            let value = Self.extremeValues[Int(generator.next() % UInt64(Self.extremeValues.count))]
            let boxes = Self.boxPositions(in: bytes)
            let at: Int
            if !boxes.isEmpty && generator.next() % 4 != 0 {
                // The size before the type, or the first or second count after version and flags.
                let box = boxes[Int(generator.next() % UInt64(boxes.count))]
                at = [box - 4, box + 8, box + 12][Int(generator.next() % 3)]
            } else {
                at = position(in: headerRange())
            }
            let bigEndian = generator.next() % 4 != 0
            for index in 0..<4 where at + index >= 0 && at + index < count {
                let shift = bigEndian ? 24 - 8 * index : 8 * index
                bytes[at + index] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
            }
        }
        return (Data(bytes), kind)
    }

    /// Offsets of the known MP4 box types in `bytes` (their four letters).
    static func boxPositions(in bytes: [UInt8]) -> [Int] {
        let types = Set(boxTypes.map { $0.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } })
        guard bytes.count >= 8 else { return [] }
        var positions: [Int] = []
        var word = UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
        for index in 3..<bytes.count {
            word = word << 8 | UInt32(bytes[index])
            if index >= 7, types.contains(word) { positions.append(index - 3) }
        }
        return positions
    }
}

/// Damage to a video's timestamps rather than its bytes, made by libavformat itself: the video
/// remuxed by the ffmpeg CLI (stream copy, bit-exact) with its `setts` bitstream filter
/// rewriting every packet's times from packet `fromPacket` on. Like ``FuzzMutator``, each is a
/// pure function of the seed and the case number.
struct TimestampMutation {
    enum Kind: String, CaseIterable {
        /// Every later packet `seconds` (1 s to 1 hour) later: a gap, as a recording paused.
        case gap
        /// Every later packet `seconds` (0.1 to 3 s) earlier: times that go backwards, as at a
        /// splice or a timestamp reset.
        case jumpBack
        /// MPEG-TS times that wrap past 2^33 ticks of 90 kHz `seconds` into the video, as a
        /// broadcast recording's do after 26.5 hours.
        case wrap
        /// Every later packet 10^6 to 10^9 s later: a duration of days to decades.
        case hugeJump
    }

    let kind: Kind
    let fromPacket: Int
    let seconds: Double

    init(seed: UInt64, caseNumber: Int) {
        var generator = SeededGenerator(seed: seed &+ UInt64(caseNumber) &* 0xD1B5_4A32_D192_ED03)
        kind = Kind.allCases[Int(generator.next() % UInt64(Kind.allCases.count))]
        fromPacket = 1 + Int(generator.next() % 60)
        let unit = Double(generator.next() % 1_000_000) / 1_000_000
        seconds = switch kind {
        case .gap: 1 + unit * 3599
        case .jumpBack: 0.1 + unit * 2.9
        case .wrap: 0.2 + unit * 2.3
        case .hugeJump: pow(10, 6 + unit * 3)
        }
    }

    /// MPEG-TS for the wrap (its 33-bit times are what wraps), Matroska otherwise.
    var fileExtension: String { kind == .wrap ? "ts" : "mkv" }

    /// The ffmpeg arguments that write the mutant of `input` to `output`. The filter sees the
    /// output's ticks (Matroska 1/1000 s, MPEG-TS 1/90000 s), so offsets are given in those.
    func ffmpegArguments(input: String, output: String) -> [String] {
        let ticksPerSecond = kind == .wrap ? 90_000.0 : 1000.0
        let ticks = Int64((seconds * ticksPerSecond).rounded())
        let expression = switch kind {
        case .gap, .hugeJump: "ts=if(gte(N\\,\(fromPacket))\\,TS+\(ticks)\\,TS)"
        case .jumpBack: "ts=if(gte(N\\,\(fromPacket))\\,TS-\(ticks)\\,TS)"
        case .wrap: "ts=TS+\((Int64(1) << 33) - ticks)"
        }
        return ["-v", "error", "-nostdin", "-y", "-i", input, "-map", "0:v:0", "-c", "copy", "-fflags", "+bitexact",
                "-bsf:v", "setts=\(expression)", "-f", kind == .wrap ? "mpegts" : "matroska", output]
    }
}
