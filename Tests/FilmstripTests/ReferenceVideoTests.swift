import Foundation
import FilmstripFixtures
import Testing

@Suite("Reference videos")
struct ReferenceVideoTests {
    /// A benchmark compares runs made on different days and machines, each of which makes its
    /// own copy of the videos: a copy that decodes to other pixels, or a file whose bytes
    /// differ, changes checksums and bytes read between runs of the same code. libx264 read
    /// heap memory nobody wrote and ran on threads of its own, so H.264 videos made after
    /// others in one process came out different (three makes of `h264-180p-2s-rot90` were
    /// three different files, one of them with other pixels), and every Matroska file carried
    /// a random segment UID. Made here, in the test process, after whatever the other tests
    /// allocated.
    @Test("made three times, a video is the same bytes each time",
          arguments: ["h264-180p-2s-rot90", "h264-180p-2s-sar43", "h264-180p-2s-opengop-offset", "vp9-180p-2s", "av1-180p-2s"])
    func makingAgainGivesTheSameBytes(id: String) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = TestSupport.spec(id)
        let makes = try (0..<3).map { make in
            let path = folder.appendingPathComponent("\(make)-\(spec.fileName)").path
            try ReferenceVideoGenerator.write(spec, to: path)
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        #expect(makes[0].count > 1_000)
        #expect(makes.allSatisfy { $0 == makes[0] }, "sizes \(makes.map(\.count))")
    }
}
