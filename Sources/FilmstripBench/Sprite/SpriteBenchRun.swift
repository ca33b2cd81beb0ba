import Filmstrip
import FilmstripFixtures
import FilmstripProcess
import Foundation

extension SpriteBench {
    /// One video of the library: its spec, its cached file and its probe.
    public struct Video: Sendable {
        /// What the video is made of.
        public var spec: ReferenceVideoSpec
        /// Its file in the cache.
        public var path: String
        /// Its streams and timing.
        public var probe: VideoProbe
    }

    /// The library's videos, generated into `cache` where missing and probed; `note` hears of each one generated.
    public static func prepare(_ specs: [ReferenceVideoSpec], cache: ReferenceVideoCache, note: (String) -> Void) throws -> [Video] {
        try specs.map { spec in
            let start = ContinuousClock.now
            let (url, generated) = try cache.ensure(spec)
            if generated { note("sprite-bench: generated \(spec.id) in \(String(format: "%.0f", (ContinuousClock.now - start).seconds)) s") }
            return Video(spec: spec, path: url.path, probe: try VideoProbe(path: url.path))
        }
    }

    /// What the repetitions came to, per contender.
    public struct Totals: Sendable {
        /// Wall seconds over the whole library, one per repetition.
        public var wall: [Contender: [Double]] = [:]
        /// CPU seconds (user + system) over the whole library, one per repetition.
        public var cpu: [Contender: [Double]] = [:]
        /// The largest frame error of any tile, in seconds.
        public var worst: [Contender: Double] = [:]
        /// Tiles whose marker could not be read.
        public var unreadable: [Contender: Int] = [:]

        /// The median over repetitions of `baseline`'s time over `contender`'s, each ratio within one repetition.
        public func ratio(_ times: [Contender: [Double]], _ baseline: Contender, _ contender: Contender) -> Double {
            Quantile.median(zip(times[baseline] ?? [], times[contender] ?? []).map { $0 / $1 })
        }
    }

    /// A contender's process failed.
    public struct RunFailed: Error, CustomStringConvertible {
        /// The contender, the video and the command line that failed.
        public var description: String
    }

    /// The columns of the CSV file each run is appended to.
    public static let csvHeader = "contender,video,repetition,wall_s,user_s,system_s,peak_rss_bytes,tiles,unreadable,worst_error_s,mean_error_s\n"

    /// Times every contender on every video, `repetitions` times, as whole processes, the order
    /// rotated per video and repetition so that drift on a shared machine spreads over every
    /// contender; each run's tiles are read back for their frame errors and a row appended to
    /// the CSV file at `csvPath` (made with its header when missing). `note` hears one line per run.
    public static func run(videos: [Video], repetitions: Int, filmstrip: String, ffmpeg: String, csvPath: String,
                           note: (String) -> Void) throws -> Totals {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-sprite-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: csvPath).deletingLastPathComponent().path, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: csvPath) { try Data(csvHeader.utf8).write(to: URL(fileURLWithPath: csvPath)) }
        let csv = try FileHandle(forWritingTo: URL(fileURLWithPath: csvPath))
        defer { csv.closeFile() }
        csv.seekToEndOfFile()
        let contenders = Contender.allCases
        var totals = Totals()
        for repetition in 0..<repetitions {
            var sums: [Contender: Double] = [:], cpuSums: [Contender: Double] = [:]
            for (videoNumber, video) in videos.enumerated() {
                let shift = (repetition + videoNumber) % contenders.count
                for contender in Array(contenders[shift...] + contenders[..<shift]) {
                    let folder = "\(scratch)/\(contender.rawValue)"
                    try? FileManager.default.removeItem(atPath: folder)
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    let (program, arguments) = contender.command(filmstrip: filmstrip, ffmpeg: ffmpeg, video: video.path, folder: folder,
                                                                 intervalSeconds: 10, width: 320, columns: 10, rows: 10)
                    let run = try ExternalProcess.run(program, arguments, timeLimit: 900)
                    guard run.succeeded else {
                        throw RunFailed(description: "\(contender.rawValue) failed on \(video.spec.id): \(program) \(arguments.joined(separator: " "))")
                    }
                    let name = URL(fileURLWithPath: video.path).deletingPathExtension().lastPathComponent
                    let errors = try frameErrors(contender, folder: folder, videoName: name, probe: video.probe,
                                                 intervalSeconds: 10, columns: 10, rows: 10)
                    sums[contender, default: 0] += run.wallSeconds
                    cpuSums[contender, default: 0] += run.userSeconds + run.systemSeconds
                    totals.worst[contender] = max(totals.worst[contender] ?? 0, errors.worstSeconds)
                    totals.unreadable[contender, default: 0] += errors.unreadable
                    try csv.write(contentsOf: Data(String(format: "%@,%@,%d,%.4f,%.4f,%.4f,%d,%d,%d,%.4f,%.4f\n", contender.rawValue, video.spec.id, repetition,
                                                          run.wallSeconds, run.userSeconds, run.systemSeconds, run.peakRSSBytes, errors.tiles, errors.unreadable,
                                                          errors.worstSeconds, errors.meanSeconds).utf8))
                    note(String(format: "sprite-bench: rep %d %@ %@: %.2f s, worst error %.3f s", repetition + 1,
                                video.spec.id, contender.rawValue, run.wallSeconds, errors.worstSeconds))
                }
            }
            for (contender, sum) in sums { totals.wall[contender, default: []].append(sum) }
            for (contender, sum) in cpuSums { totals.cpu[contender, default: []].append(sum) }
        }
        return totals
    }
}
