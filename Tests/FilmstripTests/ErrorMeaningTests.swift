import CFFmpeg
@testable import Filmstrip
import Foundation
import Testing

/// FFmpeg's raw error texts describe the machine ("Cannot allocate memory", "Operation not
/// permitted"); filmstrip says what happened to the file first and keeps FFmpeg's text after it.
@Suite("Error meanings")
struct ErrorMeaningTests {
    @Test("FFmpeg codes read as what happened to the file, FFmpeg's text kept", arguments: [
        (filmstrip_averror(ENOMEM), "av_read_frame", "a size in the file claims more memory than a video needs", "Cannot allocate memory"),
        (filmstrip_averror(EPERM), "avcodec_open2", "damaged codec header", "Operation not permitted"),
        (filmstrip_averror(EINVAL), "avformat_find_stream_info", "damaged header", "Invalid argument"),
        (filmstrip_averror_patchwelcome(), "avcodec_send_packet", "uses a feature FFmpeg does not implement", "Not yet implemented"),
        (filmstrip_averror_invaliddata(), "avformat_open_input", "damaged container header", "Invalid data"),
    ])
    func meanings(code: Int32, call: String, meaning: String, ffmpegText: String) {
        let reason = MediaError.Reason.ffmpeg(FFmpegError(code: code, call: call)).description
        #expect(reason.hasPrefix(meaning), "\(reason)")
        #expect(reason.contains("(FFmpeg \(call): \(ffmpegText)"), "\(reason)")
    }

    /// The process out of memory (an allocation FFmpeg's fixed-size objects need failed, as
    /// under `ulimit -v`) is named as such, never blamed on the file: `avcodec_alloc_context3`
    /// returning NULL was a trap (exit 132), and ENOMEM read "a size in the file claims more memory".
    @Test("out of memory says so, and does not call the file damaged or not a video")
    func outOfMemory() {
        let error = FFmpegError.outOfMemory(in: "avcodec_alloc_context3", file: "v.mkv")
        #expect(error.processOutOfMemory)
        #expect(error.description == "v.mkv: out of memory: avcodec_alloc_context3 failed: Cannot allocate memory")
        for reason in [MediaError.Reason.ffmpeg(error), .unreadableContainer(error), .firstFrameFails(error)] {
            #expect(reason.description.hasPrefix("out of memory (the process could not allocate more; not a fault of the file)"), "\(reason)")
        }
        // ENOMEM while plenty is left: a size in the file asked for too much.
        #expect(!FFmpegError(code: filmstrip_averror(ENOMEM), call: "av_read_frame").processOutOfMemory)
    }

    @Test("a stream without a codec says so instead of \"codec 'none' has no decoder\"")
    func noCodec() {
        #expect(MediaError.Reason.unsupportedCodec("none").description == "no video codec is named in the stream's header (damaged header)")
    }

    @Test("info fails, naming what it could not read, on a file strip cannot draw")
    func infoDecodesTheFirstFrame() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The reference video with its coded pictures zeroed: the header and index are intact.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video("h264-180p-3s")))
        guard let mdat = bytes.range(of: Data("mdat".utf8)) else { throw CocoaError(.fileReadCorruptFile) }
        bytes.replaceSubrange(mdat.upperBound..<bytes.endIndex - 2000, with: Data(count: bytes.endIndex - 2000 - mdat.upperBound))
        let path = folder.appendingPathComponent("zeroed.mp4").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let info = try BoundedCLI.run(["info", path])
        #expect(info.status == 1)
        #expect(info.standardError.contains("\(path): the first frame cannot be decoded: damaged video data (FFmpeg avcodec_send_packet: Invalid data"),
                "\(info.standardError)")
        let strip = try BoundedCLI.run(["strip", path, "-o", folder.appendingPathComponent("s.png").path])
        #expect(strip.status == 1)
        #expect(BoundedCLI.leftovers(in: folder, besides: ["zeroed.mp4"]).isEmpty)
    }
}
