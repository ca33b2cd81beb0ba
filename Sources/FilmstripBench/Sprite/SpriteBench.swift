import Filmstrip
import FilmstripFixtures
import Foundation

/// Library throughput of `filmstrip sprite` against the ffmpeg CLI commands media servers
/// run for the same job (Jellyfin's trickplay: `fps=1/10,scale=320:-2` then tiles of 10x10,
/// with or without `-skip_frame nokey`), each run a whole process: bench runs of kind `sprite`
/// (``BenchConfiguration/sprite(_:)``, `bench --suite sprite`), interleaved by the session;
/// every tile's frame read back through the reference videos' markers.
package enum SpriteBench {
    /// The sprite every contender makes: a tile of 320 px wide every 10 s, sheets of 10x10
    /// (Jellyfin's trickplay defaults).
    package static let layout = (intervalSeconds: 10, width: 320, columns: 10, rows: 10)

    package enum Contender: String, CaseIterable, Sendable {
        case spriteExact = "sprite-exact"
        case spriteTolerance = "sprite-tolerance"
        case spriteKeyframe = "sprite-keyframe"
        case ffmpegFPS = "ffmpeg-fps"
        case ffmpegKeyframes = "ffmpeg-fps-nokey"

        package var isFFmpeg: Bool { self == .ffmpegFPS || self == .ffmpegKeyframes }

        /// The program and arguments for one video, writing into `folder`.
        package func command(filmstrip: String, ffmpeg: String, video: String, folder: String,
                            intervalSeconds: Int, width: Int, columns: Int, rows: Int) -> (String, [String]) {
            switch self {
            case .spriteExact, .spriteTolerance, .spriteKeyframe:
                var arguments = ["sprite", video, "-o", folder, "--force", "--interval", "\(intervalSeconds)", "--width", "\(width)",
                                 "--tile", "\(columns)x\(rows)"]
                if self == .spriteExact { arguments += ["--accuracy", "exact"] }
                if self == .spriteKeyframe { arguments += ["--accuracy", "keyframe"] }
                return (filmstrip, arguments)
            case .ffmpegFPS, .ffmpegKeyframes:
                // -qscale:v 4 is Jellyfin's default trickplay quality; mjpeg quality 90 maps to about the same.
                let skip = self == .ffmpegKeyframes ? ["-skip_frame", "nokey"] : []
                return (ffmpeg, ["-v", "error", "-nostdin", "-y"] + skip + ["-i", video, "-an", "-sn",
                        "-vf", "fps=1/\(intervalSeconds),scale=\(width):-2,tile=\(columns)x\(rows)", "-qscale:v", "4",
                        "\(folder)/sheet-%03d.jpg"])
            }
        }
    }

    /// How far each tile's frame lies from its cue's start.
    package struct FrameErrors: Sendable {
        package var tiles: Int
        package var unreadable: Int
        package var worstSeconds: Double
        package var meanSeconds: Double
    }

    /// Reads every tile `contender` wrote into `folder` for the video `probe` describes: cue k
    /// starts at k · interval (what the WebVTT track, Jellyfin's playlist and BIF all state).
    package static func frameErrors(_ contender: Contender, folder: String, videoName: String, probe: VideoProbe,
                                   intervalSeconds: Int, columns: Int, rows: Int) throws -> FrameErrors {
        var tiles: [(start: Double, image: Image)] = []
        if contender.isFFmpeg {
            let sheets = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("sheet-") }.sorted()
            let expected = Int((probe.durationSeconds / Double(intervalSeconds)).rounded(.up))
            for (number, name) in sheets.enumerated() {
                let sheet = try ImageDecoder.decode(path: "\(folder)/\(name)")
                let width = sheet.width / columns, height = sheet.height / rows
                for cell in 0..<columns * rows where number * columns * rows + cell < expected {
                    let rect = PixelRect(x: cell % columns * width, y: cell / columns * height, width: width, height: height)
                    tiles.append((Double((number * columns * rows + cell) * intervalSeconds), sheet.cropped(to: rect)))
                }
            }
        } else {
            let track = "\(folder)/\(videoName)"
            let text = try String(contentsOfFile: "\(track)/thumbnails.vtt", encoding: .utf8)
            var sheets: [String: Image] = [:]
            var start = 0.0
            for line in text.split(separator: "\n") {
                if line.contains(" --> ") {
                    let clock = line.prefix(12).split(separator: ":").compactMap { Double($0) }
                    start = clock.count == 3 ? clock[0] * 3600 + clock[1] * 60 + clock[2] : -1
                } else if let hash = line.range(of: "#xywh=") {
                    let name = String(line[..<hash.lowerBound])
                    let numbers = line[hash.upperBound...].split(separator: ",").compactMap { Int($0) }
                    if sheets[name] == nil { sheets[name] = try ImageDecoder.decode(path: "\(track)/\(name)") }
                    tiles.append((start, sheets[name]!.cropped(to: PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))))
                }
            }
        }
        var worst = 0.0, sum = 0.0, unreadable = 0
        for (start, image) in tiles {
            guard let frame = FrameIndexMarker.read(from: image), frame < probe.frameTimes.count else {
                unreadable += 1
                continue
            }
            let shown = (Rational(probe.frameTimes[frame] - probe.startTime.pts) * probe.timeBase).doubleValue
            worst = max(worst, abs(shown - start))
            sum += abs(shown - start)
        }
        let read = tiles.count - unreadable
        return FrameErrors(tiles: tiles.count, unreadable: unreadable, worstSeconds: worst, meanSeconds: read > 0 ? sum / Double(read) : 0)
    }
}
