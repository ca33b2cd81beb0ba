@testable import Filmstrip
@testable import FilmstripFixtures
import Foundation
import Testing

/// The concurrent probe reads packets from a file opened without stream analysis; it must
/// describe every video exactly as the sequential probe (analyse, then read) does.
@Suite("Concurrent probe agrees with the sequential probe")
struct ProbeMethodTests {
    static let quickVideos = ReferenceSuite.quick.specs.map(\.id)

    /// Every field, frame times and pixel format included (`VideoProbe.==` compares fewer).
    static func encoded(_ probe: VideoProbe) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(probe)
    }

    static func expectSameProbe(_ path: String, _ comment: String) throws {
        let sequential = Result { () throws(MediaError) in try VideoProbe(path: path, method: .sequential) }
        let concurrent = Result { () throws(MediaError) in try VideoProbe(path: path, method: .concurrent) }
        switch (sequential, concurrent) {
        case (.success(let expected), .success(let actual)):
            #expect(try encoded(actual) == encoded(expected), "\(comment)")
        case (.failure(let expected), .failure(let actual)):
            #expect(actual == expected, "\(comment)")
        default:
            Issue.record("\(comment): sequential \(sequential), concurrent \(concurrent)")
        }
    }

    @Test("reference videos", arguments: quickVideos)
    func referenceVideo(id: String) throws {
        try Self.expectSameProbe(try TestSupport.video(id), id)
    }

    @Test("real-world videos", .enabled(if: RealWorldVideos.available, "run scripts/real-world-videos.sh first"),
          arguments: RealWorldVideos.names)
    func realWorldVideo(name: String) throws {
        try Self.expectSameProbe(RealWorldVideos.folder.appendingPathComponent(name).path, name)
    }

    /// Cuts keep the header (Matroska, WebM) or lose the index (MP4): both probes must see the
    /// same truncated data, or refuse the file with the same error.
    @Test("truncated and damaged files", arguments: ["h264-180p-3s", "vp9-180p-2s", "mpeg4-180p-2s", "h264-180p-2s-opengop-offset"])
    func damagedFile(id: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video(id)))
        let name = URL(fileURLWithPath: try TestSupport.video(id)).lastPathComponent
        for percent in [30, 70, 95] {
            let cut = folder.appendingPathComponent("cut\(percent)-\(name)").path
            try original.prefix(original.count * percent / 100).write(to: URL(fileURLWithPath: cut))
            try Self.expectSameProbe(cut, "\(id) cut at \(percent) %")
        }
        // Overwritten bytes in the middle of the packet data.
        var damaged = original
        let middle = damaged.count / 2
        damaged.replaceSubrange(middle..<middle + min(2048, damaged.count / 8), with: Data(repeating: 0xA5, count: min(2048, damaged.count / 8)))
        let path = folder.appendingPathComponent("damaged-\(name)").path
        try damaged.write(to: URL(fileURLWithPath: path))
        try Self.expectSameProbe(path, "\(id) damaged")
    }

    /// The MP4 and MOV videos of the formats suite (edit list, colour tags) as well.
    static let formatMP4Videos = ReferenceSuite.formats.specs.map(\.id).filter { $0.hasPrefix("mp4-") || $0.hasPrefix("mov-") }

    @Test("MP4 and MOV videos of the formats suite", arguments: formatMP4Videos)
    func formatVideo(id: String) throws {
        try Self.expectSameProbe(try TestSupport.video(id), id)
    }

    /// Reading timing only is the point of the MP4 path: it must be taken for a plain MP4 (and
    /// skip the sample bytes), and not for Matroska, whose block headers are in the data.
    @Test("an unfragmented MP4 is scanned without reading its sample data; Matroska is read")
    func timingOnlyIsTaken() throws {
        let mp4 = try TestSupport.video("h264-360p-20s")
        let input = try InputFile(path: mp4, analyzeStreams: false, packetData: .timingWhereIndexed)
        let timingOnly = input.readsTimingOnly
        #expect(timingOnly)
        let timeline = try PacketTimeline(scanning: input)
        let (indexed, skipped) = (input.indexEntryCount, input.skippedPacketBytes)
        #expect(timeline.packetCount == indexed && timeline.packetCount == 600)
        #expect(skipped > 300_000, "skipped \(skipped) of the sample bytes")
        // The whole concurrent probe takes this path (its tail check passes) and equals the sequential probe.
        // (Of the real-world videos only bikes.mp4 has more than one keyframe: with one, there is
        // no tail to check against, and the probe reads sequentially.)
        for path in [mp4, try TestSupport.video("h264-180p-3s")] + (RealWorldVideos.available ? [RealWorldVideos.folder.appendingPathComponent("bikes.mp4").path] : []) {
            let opened = try InputFile(path: path, analyzeStreams: false, packetData: .timingWhereIndexed)
            let taken = opened.readsTimingOnly
            let probe = try VideoProbe.concurrentProbe(scanning: opened)
            #expect(taken && probe != nil, "\(path)")
            if let probe { #expect(try Self.encoded(probe) == Self.encoded(try VideoProbe(path: path, method: .sequential)), "\(path)") }
        }
        let mkvTimingOnly = try InputFile(path: try TestSupport.video("mpeg4-180p-2s"), analyzeStreams: false, packetData: .timingWhereIndexed).readsTimingOnly
        #expect(!mkvTimingOnly)
        let fullTimingOnly = try InputFile(path: mp4, analyzeStreams: false).readsTimingOnly
        #expect(!fullTimingOnly)
    }

    /// MP4s remuxed by the ffmpeg CLI: fragmented (`moof` boxes, the sample table empty) and
    /// `faststart` (the sample table first), whole and cut short. Fragmented files must be read
    /// with their bytes; a cut faststart file lists samples its data no longer holds, so the
    /// timing-only scan comes up short and the probe reads again. Every probe equals the sequential one.
    @Test("fragmented and faststart MP4s, whole and cut", .enabled(if: FormatOracle.ffmpeg != nil))
    func remuxedMP4() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try TestSupport.video("h264-360p-5s")
        for (name, flags) in [("fragmented", "frag_keyframe+empty_moov"), ("faststart", "+faststart")] {
            let path = folder.appendingPathComponent("\(name).mp4").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FormatOracle.ffmpeg!)
            process.arguments = ["-v", "error", "-i", source, "-c", "copy", "-movflags", flags, "-y", path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let timingOnly = try InputFile(path: path, analyzeStreams: false, packetData: .timingWhereIndexed).readsTimingOnly
            #expect(timingOnly == (name == "faststart"), "\(name)")
            try Self.expectSameProbe(path, name)
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            for percent in [50, 90] {
                let cut = folder.appendingPathComponent("\(name)-cut\(percent).mp4").path
                try original.prefix(original.count * percent / 100).write(to: URL(fileURLWithPath: cut))
                try Self.expectSameProbe(cut, "\(name) cut at \(percent) %")
            }
        }
    }

    @Test("bad input fails the same way", arguments: BadInput.allCases)
    func badInput(input: BadInput) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.expectSameProbe(try input.make(in: folder), input.rawValue)
    }
}
