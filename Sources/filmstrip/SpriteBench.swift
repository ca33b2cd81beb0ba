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
            let cache = fixturesDir.map { ReferenceVideoCache(directory: URL(fileURLWithPath: $0, isDirectory: true)) } ?? ReferenceVideoCache()
            let videos = try SpriteBench.prepare(smoke ? SpriteBench.smokeLibrary : SpriteBench.library, cache: cache) { Console.err($0) }
            let totals: SpriteBench.Totals
            do {
                totals = try SpriteBench.run(videos: videos, repetitions: repetitions, filmstrip: Bench.ownExecutable.path,
                                             ffmpeg: ffmpegPath, csvPath: out) { Console.err($0) }
            } catch let failure as SpriteBench.RunFailed {
                throw failWithMessage(failure.description)
            }
            try printTable(totals, videos: videos)
            try Console.out("Runs appended to \(out).")
        }

        /// The Markdown table of medians over the repetitions, then the speed-ups against ffmpeg.
        func printTable(_ totals: SpriteBench.Totals, videos: [SpriteBench.Video]) throws {
            let totalSeconds = videos.map(\.probe.durationSeconds).reduce(0, +)
            try Console.out("Library: \(videos.count) videos, \(String(format: "%.1f", totalSeconds / 60)) min of video; \(repetitions) interleaved repetitions; medians.\n")
            try Console.out("| contender | wall s (library) | s per hour of video | × realtime | CPU s (library) | worst frame error s | unreadable tiles |")
            try Console.out("| --- | --- | --- | --- | --- | --- | --- |")
            for contender in SpriteBench.Contender.allCases {
                let seconds = Quantile.median(totals.wall[contender] ?? [])
                try Console.out(String(format: "| %@ | %.2f | %.1f | %.0f | %.2f | %.3f | %d |", contender.rawValue, seconds, seconds * 3600 / totalSeconds,
                                       totalSeconds / seconds, Quantile.median(totals.cpu[contender] ?? []), totals.worst[contender] ?? 0,
                                       totals.unreadable[contender] ?? 0))
            }
            try Console.out("")
            for (baseline, contender, target) in [(SpriteBench.Contender.ffmpegFPS, SpriteBench.Contender.spriteExact, " (target >= 2)"),
                                                  (.ffmpegFPS, .spriteTolerance, ""), (.ffmpegKeyframes, .spriteKeyframe, " (target >= 3)")] {
                try Console.out(String(format: "%@ / %@: wall %.2fx%@, CPU %.2fx", baseline.rawValue, contender.rawValue,
                                       totals.ratio(totals.wall, baseline, contender), target, totals.ratio(totals.cpu, baseline, contender)))
            }
        }
    }
}
