import ArgumentParser
import Filmstrip
import Foundation
import Synchronization

extension FilmstripCommand {
    struct Sprite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make seek-bar preview thumbnails for web players and media servers, for one video or a whole library.",
            discussion: """
            Formats (--format, comma-separated; all come from one decode per video):
              vtt       DIR/NAME/sheet-K.EXT and DIR/NAME/thumbnails.vtt (video.js, Plyr, JW Player, Vidstack)
              jellyfin  DIR/NAME.trickplay/W - CxR/K.jpg and DIR/NAME.trickplay/W - CxR.m3u8 (Jellyfin 10.9+)
              bif       DIR/NAME.bif (Roku, Plex, Emby)
            Cue i covers [i·interval, (i+1)·interval) and its tile shows the frame displayed at the cue's start,
            exactly, within the tolerance (default: half the interval), or the nearest keyframe.
            Folders are scanned for video files (into subfolders with --recursive); outputs keep their relative folders.
            A video whose outputs are complete and newer than it is skipped (--force remakes it).
            """)

        @Argument(help: "Videos and folders of videos.", completion: .file())
        var inputs: [String]

        @Option(name: [.short, .customLong("output")], help: "The output folder.", completion: .directory)
        var output: String

        @Option(help: "Seconds between thumbnails (default 10).")
        var interval: Double?

        @Option(help: "Number of thumbnails over the whole video, instead of --interval.")
        var count: Int?

        @Option(help: "Tiles per sheet as COLUMNSxROWS.")
        var tile = "10x10"

        @Option(help: "Thumbnail width in pixels (default 320); the height follows the display aspect ratio.")
        var width: Int?

        @Option(help: "Thumbnail height in pixels instead of a width.")
        var height: Int?

        @Option(help: "exact, keyframe, or tolerance:SEC (default: tolerance of half the interval).", completion: .list(Accuracy.completions), transform: OptionValues.accuracy)
        var accuracy: Accuracy?

        @Option(help: "vtt, jellyfin, bif, or several separated by commas.", completion: .list(SpriteFormat.allCases.map(\.rawValue)))
        var format = "vtt"

        @Option(help: "Image format of the vtt sheets (Jellyfin and BIF are always JPEG).")
        var image: SheetImageFormat = .jpeg

        @Option(help: "Image quality 1-100 (default 90 for JPEG, 80 for WebP).")
        var quality: Int?

        @Flag(help: "Also write DIR/NAME.html: one self-contained page with a hover-scrub preview.")
        var html = false

        @Flag(help: "Scan folders into their subfolders.")
        var recursive = false

        @Option(help: "Videos processed at a time (default: as many as cores, at most the videos); the cores are shared out between them.")
        var jobs: Int?

        @Option(help: "Decoding workers per video (default: cores / jobs, and the cores other videos leave idle at the end of a batch).")
        var workers: Int?

        @Flag(help: "Report a video that fails and go on with the rest (the exit status is still non-zero).")
        var ignoreErrors = false

        @Flag(help: "Remake outputs that are already complete and newer than their video.")
        var force = false

        @Option(help: "I/N: process only shard I (0-based) of N, chosen by a hash of each video's relative path.")
        var shard: String?

        @OptionGroup var limits: InputLimitOptions

        @OptionGroup var memory: MemoryLimitOptions

        func validate() throws {
            // `-o` is always a folder here; a name that ends like one of the files written into it
            // would silently become a folder called `thumbs.vtt`.
            let outputExtension = URL(fileURLWithPath: output).pathExtension.lowercased()
            if ["vtt", "jpg", "jpeg", "png", "webp", "bif", "html", "m3u8", "json"].contains(outputExtension) {
                throw ValidationError("-o is the output folder, and '\(output)' ends like a file name (.\(outputExtension)); give a folder: the index and sheets are written inside it (NAME/thumbnails.vtt, …).")
            }
            if interval != nil && count != nil { throw ValidationError("Give --interval or --count, not both.") }
            if let interval, !(interval >= 0.001 && interval <= 86_400) { throw ValidationError("--interval must be between 0.001 and 86400 seconds, got \(interval).") }
            let maxCount = ResourceLimits.maximumThumbnailCount, maxSide = ResourceLimits.maximumThumbnailSide, maxWorkers = ResourceLimits.maximumWorkers
            if let count, !(1...maxCount).contains(count) { throw ValidationError("--count must be 1 to \(maxCount), got \(count).") }
            if Self.grid(tile) == nil { throw ValidationError("--tile '\(tile)' is not COLUMNSxROWS (e.g. 10x10).") }
            if height != nil && width != nil { throw ValidationError("Give --height or --width, not both.") }
            if let height, !(1...maxSide).contains(height) { throw ValidationError("--height must be 1 to \(maxSide), got \(height).") }
            if let width, !(1...maxSide).contains(width) { throw ValidationError("--width must be 1 to \(maxSide), got \(width).") }
            if Self.formats(format) == nil { throw ValidationError("--format '\(format)' is not a list of vtt, jellyfin, bif.") }
            if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be 1 to 100, got \(quality).") }
            if let jobs, !(1...maxWorkers).contains(jobs) { throw ValidationError("--jobs must be 1 to \(maxWorkers), got \(jobs).") }
            if let workers, !(1...maxWorkers).contains(workers) { throw ValidationError("--workers must be 1 to \(maxWorkers), got \(workers).") }
            if let shard, Self.shard(shard) == nil { throw ValidationError("--shard '\(shard)' is not I/N with 0 <= I < N.") }
        }

        static func grid(_ text: String) -> (columns: Int, rows: Int)? {
            let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts.allSatisfy({ (1...1000).contains($0) }) else { return nil }
            return (parts[0], parts[1])
        }

        static func formats(_ text: String) -> [SpriteFormat]? {
            let formats = text.split(separator: ",").map { SpriteFormat(rawValue: String($0)) }
            guard !formats.isEmpty, formats.allSatisfy({ $0 != nil }) else { return nil }
            return formats.compactMap { $0 }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }

        static func shard(_ text: String) -> (index: Int, count: Int)? {
            let parts = text.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (0..<parts[1]).contains(parts[0]) else { return nil }
            return (parts[0], parts[1])
        }

        func settings(workersPerVideo: Int) -> SpriteSettings {
            let (columns, rows) = Self.grid(tile)!
            return SpriteSettings(
                spacing: count.map { .count($0) } ?? .interval(milliseconds: Int64(((interval ?? 10) * 1000).rounded())),
                columns: columns, rows: rows, size: height.map { .height($0) } ?? .width(width ?? 320),
                accuracy: accuracy, formats: Self.formats(format)!,
                image: image, quality: quality, html: html,
                // Files at a time share the cores (`CoreBudget`); each file's extractor splits its GOPs over its share.
                workers: workersPerVideo)
        }

        func run() async throws {
            limits.apply()
            let signalSources = SignalCleanup.install(doing: "making previews in \(output)")
            defer { signalSources.forEach { $0.cancel() } }
            guard System.isDirectory(output) || (System.status(output) == nil && (try? System.createDirectories(output)) != nil) else {
                throw failWithMessage("\(output): cannot be created as the output folder")
            }
            let scan = SpriteLibrary.scan(inputs: inputs, outputRoot: output, recursive: recursive)
            let targets = shard.flatMap(Self.shard).map { shard in
                scan.targets.filter { SpriteLibrary.shard(of: $0.shardKey, count: shard.count) == shard.index }
            } ?? scan.targets
            // Each running video holds the cores of its first workers, and takes more at the end
            // of the batch unless --workers fixes the count.
            let batch = VideoBatch(videos: targets.count, videosAtATime: jobs, workers: workers)
            let maker = SpriteMaker(settings: settings(workersPerVideo: batch.workersPerVideo))
            let sharedBudget = workers == nil ? batch.budget : nil
            // One limit for every video in flight: each reserves its estimate before allocating.
            let memoryBudget = MemoryBudget(limitBytes: memory.bytes)
            let progress = SpriteProgress(total: targets.count)
            let start = ContinuousClock.now
            let conflicts = try checkConflicts(targets, settings: maker.settings)

            // A folder the scan could not read may hold videos: each is a failure, as a video's is.
            var tally = Tally(failed: scan.failures.count)
            for failure in scan.failures { progress.printError("filmstrip: \(failure)") }
            if ignoreErrors || tally.failed == 0 {
                try await batch.run(count: targets.count, work: { [force] index -> Outcome in
                    let target = targets[index]
                    if let conflict = conflicts[index] { return .failed(String(describing: conflict)) }
                    if !force && maker.outputsAreCurrent(for: target) { return .skipped }
                    let fileStart = ContinuousClock.now
                    do {
                        let report = try await maker.make(target, sharing: sharedBudget, memory: memoryBudget) { done, total in progress.update(target.input, fraction: Double(done) / Double(total)) }
                        return .made(report, (ContinuousClock.now - fileStart).seconds)
                    } catch is CancellationError {
                        // Stopped because another video failed (without --ignore-errors).
                        return .cancelled
                    } catch {
                        return .failed(oneLineMessage(error))
                    }
                }, handle: { index, outcome in
                    try tally.record(outcome, of: targets[index], progress: progress)
                    if case .failed = outcome, !ignoreErrors { return .cancelAll }
                    return ignoreErrors || tally.failed == 0 ? .goOn : .stopStarting
                })
            }
            progress.clear()
            try Console.out(tally.summary(videos: targets.count, unread: scan.failures.count, elapsed: (ContinuousClock.now - start).seconds))
            if tally.failed > 0 { throw ExitCode.failure }
        }

        /// Two videos whose outputs would land on the same names, or on a video: the later one
        /// fails, and without --ignore-errors the run stops before any video is made.
        func checkConflicts(_ targets: [SpriteTarget], settings: SpriteSettings) throws -> [Int: SpriteError] {
            let conflicts = SpriteLibrary.conflicts(in: targets, settings: settings)
            if !conflicts.isEmpty && !ignoreErrors {
                for (index, conflict) in conflicts.sorted(by: { $0.key < $1.key }) { Console.err("filmstrip: \(targets[index].input): \(conflict)") }
                try Console.out("sprite: \(targets.count) videos: 0 made, \(conflicts.count) failed before any work (outputs that collide; --ignore-errors makes the others)")
                throw ExitCode.failure
            }
            return conflicts
        }

        /// What the videos of a run came to, as their outcomes arrive.
        struct Tally {
            var made = 0, skipped = 0, videoSeconds = 0.0
            /// Failures so far, the paths the scan could not read included.
            var failed: Int

            init(failed: Int) { self.failed = failed }

            /// Counts `outcome` of `target` and prints its line.
            mutating func record(_ outcome: Outcome, of target: SpriteTarget, progress: SpriteProgress) throws {
                progress.finished(target.input)
                switch outcome {
                case .made(let report, let seconds):
                    made += 1
                    videoSeconds += report.durationSeconds
                    try progress.print(Sprite.line(target, report: report, seconds: seconds))
                case .skipped:
                    skipped += 1
                    try progress.print("\(target.input): outputs up to date, skipped")
                case .failed(let message):
                    failed += 1
                    progress.printError("filmstrip: \(message.hasPrefix(target.input) ? message : "\(target.input): \(message)")")
                case .cancelled:
                    break
                }
            }

            /// The last line: how many were made, skipped, failed, not made or not read, and the speed.
            func summary(videos: Int, unread: Int, elapsed: Double) -> String {
                let speed = videoSeconds > 0 && elapsed > 0 ? String(format: "; %@ of video in %.1f s (x%.0f realtime)", Sprite.clock(videoSeconds), elapsed, videoSeconds / elapsed) : ""
                let videosFailed = failed - unread
                let notStarted = videos - made - skipped - videosFailed
                let stopped = notStarted > 0 ? ", \(notStarted) not made (stopped at the first failure; --ignore-errors goes on)" : ""
                let unreadText = unread == 0 ? "" : ", \(unread) \(unread == 1 ? "path" : "paths") not read"
                return "sprite: \(videos) videos: \(made) made, \(skipped) up to date, \(videosFailed) failed\(unreadText)\(stopped)\(speed)"
            }
        }

        enum Outcome: Sendable {
            case made(SpriteReport, Double)
            case skipped
            case failed(String)
            case cancelled
        }

        static func line(_ target: SpriteTarget, report: SpriteReport, seconds: Double) -> String {
            let bound: String
            switch report.accuracy {
            case .exact: bound = "exact"
            case .keyframe: bound = "keyframe"
            case .tolerance(let before, let after):
                bound = before == after ? "tolerance ±\(before.doubleValue) s" : "tolerance -\(before.doubleValue)/+\(after.doubleValue) s"
            }
            let substituted = report.substituted > 0 ? ", \(report.substituted) shown by a neighbouring frame (damaged data)" : ""
            return String(format: "%@: %d thumbnails %dx%d every %@ s on %d sheet(s), %@, worst offset %.3f s, %.2f s (x%.0f realtime)%@",
                          target.input, report.timing.count, report.grid.tile.width, report.grid.tile.height,
                          "\(Double(report.timing.intervalMilliseconds) / 1000)", report.grid.sheetCount, bound,
                          report.worstErrorSeconds, seconds, report.durationSeconds / max(seconds, 1e-9), substituted)
        }

        static func clock(_ seconds: Double) -> String {
            let total = Int(seconds.rounded())
            return String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
        }
    }
}

/// The progress line on stderr (only on a terminal): videos done, the running ones'
/// fractions, and an ETA from the rate so far; result lines are printed above it.
final class SpriteProgress: Sendable {
    private struct State {
        var done = 0
        var running: [String: Double] = [:]
        var lineShown = false
    }

    private let state = Mutex(State())
    private let total: Int
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let start = ContinuousClock.now

    init(total: Int) { self.total = total }

    func update(_ input: String, fraction: Double) {
        state.withLock { $0.running[input] = fraction }
        redraw()
    }

    func finished(_ input: String) {
        state.withLock {
            $0.running[input] = nil
            $0.done += 1
        }
    }

    func print(_ line: String) throws(StandardOutputFailed) {
        clear()
        try Console.out(FileSystemName.display(line))
        redraw()
    }

    func printError(_ line: String) {
        clear()
        Console.err(FileSystemName.display(line))
        redraw()
    }

    func clear() {
        guard isTerminal else { return }
        state.withLock { state in
            if state.lineShown { Console.err("\r\u{1B}[K", terminator: "") }
            state.lineShown = false
        }
    }

    private func redraw() {
        guard isTerminal else { return }
        state.withLock { state in
            let progress = Double(state.done) + state.running.values.reduce(0, +)
            let elapsed = (ContinuousClock.now - start).seconds
            let eta = progress > 0 ? " ETA \(FilmstripCommand.Sprite.clock(elapsed * (Double(total) - progress) / progress))" : ""
            Console.err("\r\u{1B}[K[\(state.done)/\(total) videos, \(state.running.count) running]\(eta)", terminator: "")
            state.lineShown = true
        }
    }
}

extension SheetImageFormat: ExpressibleByArgument {
    /// `jpg` is `jpeg`, as `strip -o x.jpg` and `--format jpg` take it.
    public init?(argument: String) {
        self.init(rawValue: argument == "jpg" ? "jpeg" : argument)
    }
}
