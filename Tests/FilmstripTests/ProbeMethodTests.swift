@testable import Filmstrip
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

    @Test("bad input fails the same way", arguments: BadInput.allCases)
    func badInput(input: BadInput) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.expectSameProbe(try input.make(in: folder), input.rawValue)
    }
}
