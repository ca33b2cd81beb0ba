import Filmstrip
import Foundation
import ResultsTestSupport
import Testing
@testable import FilmstripBench

/// The bench's reference-decode check compares like with like: the ffmpeg CLI scales with the
/// swscale flags filmstrip uses, so saturated sharp-edged content (test patterns, graphics) is
/// not reported as a mismatch for the CLI's half-resolution chroma.
@Suite("Reference decode check", .enabled(if: ReferenceCLI.ffmpeg != nil, "needs the ffmpeg CLI (scripts/setup.sh)"))
struct ReferenceDecodeCheckTests {
    static let ffmpeg = ReferenceCLI.ffmpeg

    /// A saturated test pattern whose thumbnails are an even number of pixels wide (swscale
    /// interpolates chroma fully by itself only for odd widths, which hid this on 4:3 clips).
    static func saturatedClip(codec: [String], container: String, size: String) throws -> String {
        let path = Fixtures.temporaryPath("saturated.\(container)")
        let run = try ExternalProcess.run(ffmpeg!, ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25",
                                                    "-t", "2", "-g", "25"] + codec + [path], timeLimit: 120)
        #expect(run.succeeded)
        return path
    }

    // Before the CLI was given filmstrip's flags: every thumbnail 6.4–6.8 of 255 from the CLI's
    // decode (MISMATCH); after: bit-identical.
    @Test("a saturated 720p MPEG-4 clip agrees with the CLI's decode, pixel for pixel")
    func saturatedMPEG4Agrees() async throws {
        let path = try Self.saturatedClip(codec: ["-c:v", "mpeg4", "-q:v", "3"], container: "avi", size: "1280x720")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let outcome = try await ReferenceDecodeCheck.run(path: path, count: 6, height: 64, ffmpeg: Self.ffmpeg!, timeLimit: 120)
        #expect(outcome.compared == 6)
        #expect(outcome.agrees, "frames \(outcome.mismatchedFrames), worst \(outcome.worstDifference)")
        #expect(outcome.worstDifference < 0.5, "same decoder, same scaler flags: \(outcome.worstDifference)")
    }

    /// Every filter's CLI flags reproduce the scaler's pixels (a wrong flag name would make the
    /// CLI fail; a missing flag would show as a difference at the pattern's colour edges).
    @Test("the CLI with a filter's ffmpegCLIFlags makes the scaler's pixels", arguments: ScalingFilter.allCases)
    func cliFlagsMatchScaler(filter: ScalingFilter) async throws {
        let path = try Self.saturatedClip(codec: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"], container: "mp4", size: "640x360")
        let folder = (path as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let probe = try VideoProbe(path: path)
        let request = try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: 1), size: .height(64),
                                            options: ExtractionOptions(filter: filter))
        let thumbnail = try #require(try await SequentialExtractor().thumbnails(for: request).thumbnails.first)
        let image = try #require(thumbnail.image)
        let output = folder + "/cli.rgba"
        let run = try ExternalProcess.run(Self.ffmpeg!, ["-nostdin", "-v", "error", "-i", path,
                                                         "-vf", "select=eq(n\\,\(thumbnail.frameIndex)),scale=\(image.width):\(image.height):flags=\(filter.ffmpegCLIFlags)",
                                                         "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                                          timeLimit: 120, standardOutput: output)
        #expect(run.succeeded, "\(filter.ffmpegCLIFlags)")
        let cli = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(image.width % 2 == 0)
        #expect(ReferenceDecodeCheck.meanAbsoluteDifference(image, cli) < 0.5, "\(filter)")
    }
}

/// The ffmpeg CLI on PATH (outside the suite: its trait cannot name the suite itself).
enum ReferenceCLI {
    static let ffmpeg = ExternalProcess.find("ffmpeg")
}
