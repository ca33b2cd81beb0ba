import Filmstrip
import Foundation

/// Checks a video without frame markers (the user's own) against a decoder this project did not
/// write: each thumbnail of an exact strip beside the ffmpeg CLI's decode of the same frame,
/// scaled to the same size with the same swscale flags (area, accurate rounding, full chroma).
package enum ReferenceDecodeCheck {
    /// What the comparison found for one video.
    package struct Outcome: Sendable {
        /// Thumbnails compared (distinct frames).
        package var compared: Int
        /// The largest mean absolute difference per colour byte (0–255) over the thumbnails.
        package var worstDifference: Double
        /// Frames whose difference is at or above ``threshold`` (display order).
        package var mismatchedFrames: [Int]
        /// True when every thumbnail is within ``threshold``.
        package var agrees: Bool { mismatchedFrames.isEmpty }
    }

    /// The CLI scales with filmstrip's own swscale flags (``ScalingFilter/ffmpegCLIFlags``), so
    /// progressive SDR video comes out bit-identical (0.000 measured on H.264, MPEG-4, VP9 and
    /// 10-bit clips); the bound leaves room for what the CLI is not asked to do the same way
    /// (filmstrip deinterlaces: about 2.4 on interlaced testsrc2). With the CLI's default flags
    /// (half-resolution chroma) saturated sharp edges differed by 6.4 alone, above this bound.
    package static let threshold = 6.0

    /// Makes `count` exact thumbnails `height` pixels high of `path` with the sequential
    /// extractor, decodes the same frames with `ffmpeg` in one pass (`select` by display index),
    /// scales them with the same swscale flags, and compares them.
    package static func run(path: String, count: Int, height: Int, ffmpeg: String, timeLimit: Double = 600) async throws -> Outcome {
        let probe = try VideoProbe(path: path)
        let plan = try SamplePlan(probe: probe, count: count)
        let request = try ExtractionRequest(path: path, probe: probe, plan: plan, size: .height(height))
        let thumbnails = try await SequentialExtractor().thumbnails(for: request).thumbnails
        var byFrame: [Int: Image] = [:]
        for thumbnail in thumbnails { if let image = thumbnail.image { byFrame[thumbnail.frameIndex] = image } }
        let frames = byFrame.keys.sorted()
        guard let first = frames.first.flatMap({ byFrame[$0] }) else { return Outcome(compared: 0, worstDifference: 0, mismatchedFrames: []) }
        let (width, thumbHeight) = (first.width, first.height)
        // Untagged video of 720 lines or more is BT.709 to players and to filmstrip; the CLI's
        // scale filter would take BT.601 unless told.
        let matrix = probe.height >= 720 ? ":in_color_matrix=bt709" : ""
        let selection = frames.map { "eq(n\\,\($0))" }.joined(separator: "+")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-reference-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).rgba").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", path,
                                                   "-vf", "select=\(selection),scale=\(width):\(thumbHeight):flags=\(ScalingFilter.area.ffmpegCLIFlags)\(matrix)",
                                                   "-vsync", "passthrough", "-frames:v", String(frames.count),
                                                   "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                                          timeLimit: timeLimit, standardOutput: output)
        guard run.succeeded else { throw ReferenceDecodeError.ffmpegFailed(path: path, status: run.exitStatus) }
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let frameBytes = width * thumbHeight * 4
        var worst = 0.0
        var mismatched: [Int] = []
        for (position, frame) in frames.enumerated() {
            let start = position * frameBytes
            let difference = start + frameBytes <= data.count
                ? meanAbsoluteDifference(byFrame[frame]!, Array(data[start..<start + frameBytes])) : .infinity
            worst = max(worst, difference)
            if !(difference < threshold) { mismatched.append(frame) }
        }
        return Outcome(compared: frames.count, worstDifference: worst, mismatchedFrames: mismatched)
    }

    /// Mean absolute difference per colour byte (alpha left out) of `image` and tightly packed RGBA.
    static func meanAbsoluteDifference(_ image: Image, _ packed: [UInt8]) -> Double {
        guard packed.count == image.width * image.height * 4 else { return .infinity }
        var total = 0
        for y in 0..<image.height {
            for x in 0..<image.width * 4 where x % 4 != 3 {
                total += abs(Int(image.pixels[y * image.bytesPerRow + x]) - Int(packed[y * image.width * 4 + x]))
            }
        }
        return Double(total) / Double(image.width * image.height * 3)
    }
}

/// Why the ffmpeg CLI's reference decode could not be made.
package enum ReferenceDecodeError: Error, CustomStringConvertible {
    /// The CLI exited with `status`.
    case ffmpegFailed(path: String, status: Int32)

    /// One line naming the file.
    package var description: String {
        switch self {
        case .ffmpegFailed(let path, let status): "\(path): the ffmpeg CLI could not decode the reference frames (exit \(status))"
        }
    }
}
