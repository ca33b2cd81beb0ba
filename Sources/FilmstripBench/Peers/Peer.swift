import Filmstrip
import FilmstripResults
import Foundation

/// How each peer is run (its names are in `FilmstripResults`, which reads their rows).
extension Peer {
    /// The program this peer needs.
    package var program: String {
        switch self {
        case .ffmpegthumbnailer: "ffmpegthumbnailer"
        case .filmstrip: "filmstrip"
        default: "ffmpeg"
        }
    }

    /// The accuracy this peer competes in (decode floors are listed with the mode they bound).
    package var accuracy: Accuracy {
        switch self {
        case .ffmpegExact, .decodeAll, .ffmpegthumbnailer, .filmstrip: .exact
        case .ffmpegKeyframes, .decodeKeyframes: .keyframe
        }
    }

    /// The command lines for one strip of `count` thumbnails of `width`x`height` px over the whole
    /// video (`durationSeconds` long), writing into `folder`. Most peers are one command;
    /// ffmpegthumbnailer is one per thumbnail.
    package func commands(video: String, durationSeconds: Double, count: Int, width: Int, height: Int,
                         folder: String) -> [[String]] {
        let rate = "\(count)/\(String(format: "%.6f", durationSeconds))"
        let strip = "\(folder)/\(rawValue).png"
        switch self {
        case .ffmpegExact:
            return [["-v", "error", "-nostdin", "-y", "-i", video,
                     "-vf", "fps=\(rate),scale=-2:\(height):flags=area,tile=\(count)x1", "-frames:v", "1", strip]]
        case .ffmpegKeyframes:
            return [["-v", "error", "-nostdin", "-y", "-skip_frame", "nokey", "-i", video,
                     "-vf", "fps=\(rate),scale=-2:\(height):flags=area,tile=\(count)x1", "-frames:v", "1", strip]]
        case .decodeAll:
            return [["-v", "error", "-nostdin", "-i", video, "-f", "null", "-"]]
        case .decodeKeyframes:
            return [["-v", "error", "-nostdin", "-skip_frame", "nokey", "-i", video, "-f", "null", "-"]]
        case .filmstrip:
            preconditionFailure("filmstrip's own command line is built from its configuration")
        case .ffmpegthumbnailer:
            // -t takes a percentage of the duration; the slot centres match filmstrip's plan.
            return (0..<count).map { slot in
                let percent = (Double(slot) + 0.5) * 100 / Double(count)
                return ["-i", video, "-o", "\(folder)/thumb-\(slot).png", "-s", "\(width)", "-q", "8",
                        "-t", String(format: "%.4f%%", percent)]
            }
        }
    }
}
