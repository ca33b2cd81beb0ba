import ArgumentParser
import Filmstrip
import FilmstripBench
import FilmstripFixtures
import Foundation

extension FilmstripCommand {
    /// The slider's benchmark: scripted sessions per interactive strategy, one CSV row per step.
    struct BenchInteractive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench-interactive",
            abstract: "Replay scripted slider sessions (open, zoom in, drag in 20 superseding steps, zoom back) per interactive strategy; write CSV rows.",
            discussion: """
                Columns: machine, commit, video, strategy, decoders, repetition, step, requests, first_thumbnail_s, \
                first_exact_s, full_row_s, all_thumbnails_s, latency_p50_s, latency_p95_s, wasted_frames, frames_decoded, \
                cache_hits. Latency is per request that was not superseded, from the request to its last final image. \
                The cold-single step asks a fresh generator for the drag's last position: the reference for the drag's latency.
                """)

        @Option(help: "Reference video ids, or paths of video files (default: h264-360p-20s).")
        var videos = "h264-360p-20s"

        @Option(help: "Strategies (default: all): \(InteractiveStrategies.all.map(\.name).joined(separator: ", ")).")
        var strategies: String?

        @Option(help: "Thumbnails per open and zoom request.")
        var count = 20

        @Option(help: "Sessions per strategy and video.")
        var repetitions = 3

        @Option(help: "Also make this many superseding requests and report memory and threads before and after (0: none).")
        var soak = 0

        @Option(help: "CSV file to append rows to (default: results/interactive-HOST.csv).")
        var out: String?

        @Option(name: .customLong("fixtures-dir"), help: "Reference video cache (default: $FILMSTRIP_FIXTURES or ./fixtures-cache).")
        var fixturesDir: String?

        func run() async throws {
            let chosen = try (strategies?.split(separator: ",").map(String.init) ?? InteractiveStrategies.all.map(\.name)).map { name in
                guard let strategy = InteractiveStrategies.named(name) else { throw failWithMessage("unknown strategy '\(name)'") }
                return strategy
            }
            let cache = ReferenceVideoCache(directory: URL(fileURLWithPath: fixturesDir ?? ProcessInfo.processInfo.environment["FILMSTRIP_FIXTURES"] ?? "fixtures-cache"))
            let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "machine"
            let output = out ?? "results/interactive-\(host).csv"
            var lines: [String] = []
            if !FileManager.default.fileExists(atPath: output) {
                lines.append("machine,commit,video,strategy,decoders,repetition,step,requests,first_thumbnail_s,first_exact_s,full_row_s,all_thumbnails_s,latency_p50_s,latency_p95_s,wasted_frames,frames_decoded,cache_hits")
            }
            func number(_ value: Double?) -> String { value.map { String(format: "%.6f", $0) } ?? "" }
            for id in videos.split(separator: ",").map(String.init) {
                let path: String
                if let spec = ReferenceSuite.spec(id: id) {
                    path = try cache.ensure(spec).url.path
                } else if FileManager.default.fileExists(atPath: id) {
                    path = id
                } else {
                    throw failWithMessage("'\(id)' is neither a reference video id nor a file")
                }
                for repetition in 1...max(1, repetitions) {
                    // Strategies interleaved per repetition, so a drift of the machine touches them alike.
                    for strategy in chosen {
                        let steps = try await InteractiveSessions.run(path: path, strategy: strategy, count: count)
                        for step in steps {
                            let row = [host, BuildInfo.commitDescription, id, strategy.name, "\(ProcessInfo.processInfo.activeProcessorCount)",
                                       "\(repetition)", step.step, "\(step.requests)", number(step.firstThumbnailSeconds),
                                       number(step.firstExactSeconds), number(step.fullRowSeconds), number(step.allThumbnailsSeconds),
                                       number(step.latency(quantile: 0.5)), number(step.latency(quantile: 0.95)),
                                       "\(step.wastedFrames)", "\(step.framesDecoded)", "\(step.cacheHits)"]
                            lines.append(row.joined(separator: ","))
                            try Console.out(row.joined(separator: ","))
                        }
                    }
                }
                if soak > 0 {
                    let result = try await InteractiveSessions.soak(path: path, count: soak)
                    try Console.out("soak \(id): \(soak) superseded requests: RSS \(result.residentBytesBefore / 1000) kB -> \(result.residentBytesAfter / 1000) kB (\((result.residentBytesAfter - result.residentBytesBefore) / 1000) kB); threads \(result.threadsBefore) -> \(result.threadsAfter); decoders open \(result.openDecoders) of \(result.poolSize), busy \(result.busyDecoders)")
                }
            }
            let existing = (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()
            do {
                try StripWriter.writeAtomically(existing + Data((lines.joined(separator: "\n") + "\n").utf8), to: output)
            } catch {
                throw failWithMessage(error)
            }
        }
    }
}
