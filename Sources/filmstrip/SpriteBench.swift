import ArgumentParser
import Filmstrip
import FilmstripBench
import FilmstripFixtures
import FilmstripResults
import Foundation

extension FilmstripCommand {
    /// `bench --suite sprite`, then the library's totals as a table.
    struct SpriteBenchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sprite-bench",
            abstract: "Library throughput of `filmstrip sprite` against the ffmpeg CLI commands media servers run.",
            discussion: """
            Runs `bench --suite sprite`: on a cached library of reference videos totalling about 35 minutes in five \
            codecs and three containers, times filmstrip sprite in exact, tolerance and keyframe accuracy against \
            ffmpeg -vf fps=1/10,scale=320:-2,tile=10x10 with and without -skip_frame nokey, each a whole process, \
            repetitions interleaved, one raw row per contender and video (kind `sprite`) that compare, trend, report \
            and export read. Every tile's frame is read back from its marker; the error is its distance from the \
            cue's start. Then prints the library's totals as a Markdown table.
            """)

        @Option(help: "Repetitions; each runs every contender on every video once, in a rotated order.")
        var repetitions = 3

        @Flag(help: "A two-video library of 30 s each, to check the command end to end.")
        var smoke = false

        @Option(help: "Cache folder for the reference videos (default: $FILMSTRIP_FIXTURES, else $XDG_CACHE_HOME/filmstrip/fixtures or ~/.cache/filmstrip/fixtures).")
        var fixturesDir: String?

        @Option(help: "Output name: the runs are appended to NAME-raw.csv and NAME-summary.csv.")
        var out = "results/local/sprite-bench"

        func validate() throws {
            if repetitions <= 0 { throw ValidationError("--repetitions must be at least 1.") }
        }

        func run() async throws {
            // `bench` with its defaults, then this command's values set on it as they are typed.
            var bench = try Bench.parse([])
            bench.lists.suite = .sprite
            bench.lists.repetitions = repetitions
            if smoke { bench.lists.videos = ReferenceSuite.spriteSmokeSpecs.map(\.id).joined(separator: ",") }
            bench.out = out
            bench.fixturesDir = fixturesDir
            bench.reporting.quiet = true
            try await bench.run()
            let rows: [RawResultRow]
            do {
                rows = try ResultsFileReader.read(RawResultRow.self, from: ResultsFiles(name: out).raw)
            } catch {
                throw failWithMessage(error)
            }
            // The rows of this run: the file's last run.
            guard let runID = rows.last?.run.runID else { return }
            try printTable(rows.filter { $0.run.runID == runID && $0.kind == .sprite })
        }

        /// The Markdown table of medians over the repetitions, then the speed-ups against ffmpeg.
        func printTable(_ rows: [RawResultRow]) throws {
            let totals = SpriteBench.Totals(rows: rows)
            let videos = Dictionary(rows.map { ($0.video.id, $0.video.durationSeconds) }, uniquingKeysWith: { first, _ in first })
            let totalSeconds = videos.values.reduce(0, +)
            try Console.out("Library: \(videos.count) videos, \(String(format: "%.1f", totalSeconds / 60)) min of video; \(repetitions) interleaved repetitions; medians.\n")
            try Console.out("| contender | wall s (library) | s per hour of video | × realtime | CPU s (library) | worst frame error s | unreadable tiles |")
            try Console.out("| --- | --- | --- | --- | --- | --- | --- |")
            for contender in SpriteBench.Contender.allCases {
                guard let wall = totals.wall[contender], !wall.isEmpty else { continue }
                let seconds = Quantile.median(wall)
                try Console.out(String(format: "| %@ | %.2f | %.1f | %.0f | %.2f | %.3f | %d |", contender.rawValue, seconds, seconds * 3600 / totalSeconds,
                                       totalSeconds / seconds, Quantile.median(totals.cpu[contender] ?? [0]), totals.worst[contender] ?? 0,
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
