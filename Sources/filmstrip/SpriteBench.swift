import ArgumentParser
import Filmstrip
import FilmstripBench
import FilmstripFixtures
import Foundation

extension FilmstripCommand {
    struct SpriteBenchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sprite-bench",
            abstract: "Library throughput of `filmstrip sprite` against the ffmpeg CLI commands media servers run.",
            discussion: """
            Generates (and caches) a library of reference videos totalling about 35 minutes in five codecs and
            three containers, then times, as whole processes and interleaved per repetition, filmstrip sprite in
            exact, tolerance and keyframe accuracy against ffmpeg -vf fps=1/10,scale=320:-2,tile=10x10 with and
            without -skip_frame nokey. Every tile's frame is read back from its marker; the error is its distance
            from the cue's start. Prints a Markdown table and writes one CSV row per run.
            """)

        @Option(help: "Repetitions; each runs every contender on every video once, in a rotated order.")
        var repetitions = 3

        @Flag(help: "A two-video library of 30 s each, to check the command end to end.")
        var smoke = false

        @Option(help: "Cache folder for the reference videos (default: $FILMSTRIP_FIXTURES or ./fixtures-cache).")
        var fixturesDir: String?

        @Option(help: "CSV file the runs are appended to.")
        var out = "results/local/sprite-bench.csv"

        @Option(help: "The ffmpeg program.")
        var ffmpeg = "ffmpeg"

        func validate() throws {
            if repetitions <= 0 { throw ValidationError("--repetitions must be at least 1.") }
        }

        func run() async throws {
            guard let ffmpegPath = ffmpeg.contains("/") ? ffmpeg : ExternalProcess.find(ffmpeg) else {
                throw failWithMessage("\(ffmpeg): not found on PATH")
            }
            let filmstrip = Bench.ownExecutable.path
            let cache = fixturesDir.map { ReferenceVideoCache(directory: URL(fileURLWithPath: $0, isDirectory: true)) } ?? ReferenceVideoCache()
            let specs = smoke ? SpriteBench.smokeLibrary : SpriteBench.library
            var videos: [(spec: ReferenceVideoSpec, path: String, probe: VideoProbe)] = []
            for spec in specs {
                let start = ContinuousClock.now
                let (url, generated) = try cache.ensure(spec)
                if generated { Console.err("sprite-bench: generated \(spec.id) in \(String(format: "%.0f", (ContinuousClock.now - start).seconds)) s") }
                videos.append((spec, url.path, try VideoProbe(path: url.path)))
            }
            let totalSeconds = videos.map(\.probe.durationSeconds).reduce(0, +)
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-sprite-bench-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: out).deletingLastPathComponent().path, withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: out) {
                try Data("contender,video,repetition,wall_s,user_s,system_s,peak_rss_bytes,tiles,unreadable,worst_error_s,mean_error_s\n".utf8)
                    .write(to: URL(fileURLWithPath: out))
            }
            let csv = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            csv.seekToEndOfFile()

            let contenders = SpriteBench.Contender.allCases
            // wall[contender][repetition] = seconds summed over the library.
            var wall: [SpriteBench.Contender: [Double]] = [:], cpu: [SpriteBench.Contender: [Double]] = [:]
            var worst: [SpriteBench.Contender: Double] = [:], unreadable: [SpriteBench.Contender: Int] = [:]
            for repetition in 0..<repetitions {
                var sums: [SpriteBench.Contender: Double] = [:], cpuSums: [SpriteBench.Contender: Double] = [:]
                for (videoNumber, video) in videos.enumerated() {
                    // Rotated per video and repetition, so drift on a shared machine spreads over every contender.
                    let shift = (repetition + videoNumber) % contenders.count
                    for contender in Array(contenders[shift...] + contenders[..<shift]) {
                        let folder = "\(scratch)/\(contender.rawValue)"
                        try? FileManager.default.removeItem(atPath: folder)
                        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                        let (program, arguments) = contender.command(filmstrip: filmstrip, ffmpeg: ffmpegPath, video: video.path, folder: folder,
                                                                     intervalSeconds: 10, width: 320, columns: 10, rows: 10)
                        let run = try ExternalProcess.run(program, arguments, timeLimit: 900)
                        guard run.succeeded else { throw failWithMessage("\(contender.rawValue) failed on \(video.spec.id): \(program) \(arguments.joined(separator: " "))") }
                        let name = URL(fileURLWithPath: video.path).deletingPathExtension().lastPathComponent
                        let errors = try SpriteBench.frameErrors(contender, folder: folder, videoName: name, probe: video.probe,
                                                                 intervalSeconds: 10, columns: 10, rows: 10)
                        sums[contender, default: 0] += run.wallSeconds
                        cpuSums[contender, default: 0] += run.userSeconds + run.systemSeconds
                        worst[contender] = max(worst[contender] ?? 0, errors.worstSeconds)
                        unreadable[contender, default: 0] += errors.unreadable
                        try csv.write(contentsOf: Data(String(format: "%@,%@,%d,%.4f,%.4f,%.4f,%d,%d,%d,%.4f,%.4f\n", contender.rawValue, video.spec.id, repetition,
                                              run.wallSeconds, run.userSeconds, run.systemSeconds, run.peakRSSBytes, errors.tiles, errors.unreadable,
                                              errors.worstSeconds, errors.meanSeconds).utf8))
                        Console.err(String(format: "sprite-bench: rep %d %@ %@: %.2f s, worst error %.3f s", repetition + 1,
                                           video.spec.id, contender.rawValue, run.wallSeconds, errors.worstSeconds))
                    }
                }
                for (contender, sum) in sums { wall[contender, default: []].append(sum) }
                for (contender, sum) in cpuSums { cpu[contender, default: []].append(sum) }
            }
            csv.closeFile()

            try Console.out("Library: \(videos.count) videos, \(String(format: "%.1f", totalSeconds / 60)) min of video; \(repetitions) interleaved repetitions; medians.\n")
            try Console.out("| contender | wall s (library) | s per hour of video | × realtime | CPU s (library) | worst frame error s | unreadable tiles |")
            try Console.out("| --- | --- | --- | --- | --- | --- | --- |")
            for contender in contenders {
                let seconds = Quantile.median(wall[contender] ?? [])
                try Console.out(String(format: "| %@ | %.2f | %.1f | %.0f | %.2f | %.3f | %d |", contender.rawValue, seconds, seconds * 3600 / totalSeconds,
                             totalSeconds / seconds, Quantile.median(cpu[contender] ?? []), worst[contender] ?? 0, unreadable[contender] ?? 0))
            }
            // Ratios per repetition (same repetition, interleaved), then their median.
            func ratio(_ times: [SpriteBench.Contender: [Double]], _ baseline: SpriteBench.Contender, _ contender: SpriteBench.Contender) -> Double {
                Quantile.median(zip(times[baseline] ?? [], times[contender] ?? []).map { $0 / $1 })
            }
            try Console.out("")
            for (baseline, contender, target) in [(SpriteBench.Contender.ffmpegFPS, SpriteBench.Contender.spriteExact, " (target >= 2)"),
                                                  (.ffmpegFPS, .spriteTolerance, ""), (.ffmpegKeyframes, .spriteKeyframe, " (target >= 3)")] {
                try Console.out(String(format: "%@ / %@: wall %.2fx%@, CPU %.2fx", baseline.rawValue, contender.rawValue,
                             ratio(wall, baseline, contender), target, ratio(cpu, baseline, contender)))
            }
            try Console.out("Runs appended to \(out).")
        }
    }
}
