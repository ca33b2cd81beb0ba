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
            \(Words.list([("vtt", "DIR/NAME/sheet-K.EXT and DIR/NAME/thumbnails.vtt (video.js, Plyr, JW Player, Vidstack)"),
                          ("jellyfin", "DIR/NAME.trickplay/W - CxR/K.jpg and DIR/NAME.trickplay/W - CxR.m3u8 (Jellyfin 10.9+; -o the library folder, as Jellyfin looks beside each video)"),
                          ("bif", "DIR/NAME.bif (Roku, Plex, Emby)")], nameWidth: 9))

            Cue i covers [i·interval, (i+1)·interval) and its tile shows the frame displayed at the cue's start, \
            exactly, within the tolerance (default: half the interval), or the nearest keyframe. \
            Folders are scanned for video files (into subfolders with --recursive); outputs keep their relative folders. \
            A video whose outputs are complete and newer than it is skipped (--force remakes it). \
            Several sizes (--width 320,640) come from one decode: one Jellyfin folder per width, \
            and NAME-w320/, NAME-w640.bif, … for the other formats.
            """)

        @Argument(help: "Videos and folders of videos.", completion: .file())
        var inputs: [String]

        @Option(name: [.short, .customLong("output")], help: "The output folder.", completion: .directory)
        var output: String

        @Option(help: "Seconds between thumbnails (default 10).")
        var interval: Double?

        @Option(help: "Number of thumbnails over the whole video, instead of --interval.")
        var count: Int?

        @Option(help: "Tiles per sheet as COLUMNSxROWS (default: 10x10).", transform: Sprite.grid)
        var tile = Grid(columns: 10, rows: 10)

        @OptionGroup var thumbnail: ThumbnailOptions<SpriteDefaults>

        @Option(help: "vtt, jellyfin, bif, or several separated by commas (default: vtt).", completion: .list(SpriteFormat.allCases.map(\.rawValue)), transform: Sprite.formats)
        var format: [SpriteFormat] = [.vtt]

        @Option(help: "Image format of the vtt sheets: jpg, webp or png (default: jpg; Jellyfin and BIF are always JPEG).", completion: .list(["jpg", "webp", "png"]), transform: Sprite.image)
        var image: SheetImageFormat = .jpeg

        @Option(help: "Image quality 1-100 (default 90 for JPEG, 80 for WebP).")
        var quality: Int?

        @Flag(help: "Also write DIR/NAME.html: one self-contained page with a hover-scrub preview.")
        var html = false

        @Flag(help: "Scan folders into their subfolders.")
        var recursive = false

        @OptionGroup var cores: BatchOptions

        @Flag(help: "Stop at the first video that fails; by default every video is tried and the failures are listed at the end (exit 1).")
        var failFast = false

        /// Going on was once this flag's doing and is now the default; scripts that still pass it keep working.
        @Flag(help: .hidden)
        var ignoreErrors = false

        @Flag(help: "Remake outputs that are already complete and newer than their video.")
        var force = false

        @Option(help: "I/N: process only shard I (0-based) of N, chosen by a hash of each video's relative path.", transform: Sprite.shard)
        var shard: Shard?

        @OptionGroup var reporting: ReportingOptions

        @OptionGroup(title: "Limits (untrusted input)") var limits: LimitOptions

        func validate() throws {
            // `-o` is always a folder here; a name that ends like one of the files written into it
            // would silently become a folder called `thumbs.vtt`.
            let outputExtension = URL(fileURLWithPath: output).pathExtension.lowercased()
            if ["vtt", "jpg", "jpeg", "png", "webp", "bif", "html", "m3u8", "json"].contains(outputExtension) {
                throw ValidationError("-o is the output folder, and '\(FileSystemName.display(output))' ends like a file name (.\(outputExtension)); give a folder: the index and sheets are written inside it (NAME/thumbnails.vtt, …).")
            }
            if interval != nil && count != nil { throw ValidationError("Give --interval or --count, not both.") }
            if failFast && ignoreErrors { throw ValidationError("Give --fail-fast or --ignore-errors, not both.") }
            if let interval, !(interval >= 0.001 && interval <= 86_400) { throw ValidationError("--interval must be between 0.001 and 86400 seconds, got \(interval).") }
            try OptionRange.check(count, 1...ResourceLimits.maximumThumbnailCount, "--count")
            try OptionRange.check(quality, 1...100, "--quality")
        }

        /// Tiles across and down one sheet.
        struct Grid { var columns, rows: Int }

        /// Shard `index` of `count`.
        struct Shard { var index, count: Int }

        static func grid(_ text: String) throws -> Grid {
            let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts.allSatisfy({ (1...1000).contains($0) }) else { throw ValidationError("'\(text)' is not COLUMNSxROWS (e.g. 10x10), each 1 to 1000.") }
            return Grid(columns: parts[0], rows: parts[1])
        }

        static func formats(_ text: String) throws -> [SpriteFormat] {
            let formats = try text.split(separator: ",").map { try OptionValues.choice(String($0), kind: "format", among: SpriteFormat.allCases.map { ($0.rawValue, $0) }) }
            guard !formats.isEmpty else { throw ValidationError("'\(text)' is not a list of vtt, jellyfin, bif.") }
            return formats.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }

        /// `jpg` is `jpeg`, as `strip -o x.jpg` and `--format jpg` take it.
        static func image(_ text: String) throws -> SheetImageFormat {
            try OptionValues.choice(text, kind: "image format", among: [("jpg", .jpeg), ("jpeg", .jpeg), ("webp", .webp), ("png", .png)])
        }

        static func shard(_ text: String) throws -> Shard {
            let parts = text.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (0..<parts[1]).contains(parts[0]) else { throw ValidationError("'\(text)' is not I/N with 0 <= I < N.") }
            return Shard(index: parts[0], count: parts[1])
        }

        func settings(workersPerVideo: Int) -> SpriteSettings {
            SpriteSettings(
                spacing: count.map { .count($0) } ?? .interval(milliseconds: Int64(((interval ?? 10) * 1000).rounded())),
                columns: tile.columns, rows: tile.rows, size: thumbnail.size, moreSizes: Array(thumbnail.sizes.dropFirst()),
                accuracy: thumbnail.chosenAccuracy, formats: format,
                image: image, quality: quality, html: html,
                // Files at a time share the cores (`CoreBudget`); each file's extractor splits its GOPs over its share.
                workers: workersPerVideo, limits: limits.input.value)
        }

        func run() async throws {
            let signalSources = SignalCleanup.install(doing: "making previews in \(output)")
            defer { signalSources.forEach { $0.cancel() } }
            do throws(SystemError) {
                try System.createDirectories(output)
            } catch {
                throw failWithMessage("\(output): cannot be created as the output folder: \(error.reason)")
            }
            // Held to the end of the run: a second run into the folder stops here, shards of one library excepted (docs/sprite.md).
            let lock: OutputFolderLock
            do { lock = try OutputFolderLock(folder: output, shard: shard.map { ($0.index, $0.count) }) } catch { throw failWithMessage(error) }
            defer { withExtendedLifetime(lock) {} }
            let scan = SpriteLibrary.scan(inputs: inputs, outputRoot: output, recursive: recursive)
            let targets = shard.map { shard in
                scan.targets.filter { SpriteLibrary.shard(of: $0.shardKey, count: shard.count) == shard.index }
            } ?? scan.targets
            // Each running video holds the cores of its first workers, and takes more at the end
            // of the batch unless --workers fixes the count.
            let batch = cores.batch(videos: targets.count)
            let maker = SpriteMaker(settings: settings(workersPerVideo: batch.workersPerVideo))
            let progress = SpriteProgress(targets: targets, reporting: reporting)
            let conflicts = try checkConflicts(targets, settings: maker.settings, progress: progress)
            // A folder the scan could not read may hold videos: each is a failure, as a video's is.
            var tally = Tally(unread: scan.failures.map { "\($0)" })
            for failure in scan.failures { progress.printError("filmstrip: \(failure)") }
            if !failFast || tally.failures.isEmpty {
                try await make(targets, with: maker, in: batch, conflicts: conflicts, progress: progress, tally: &tally)
            }
            progress.clear()
            try progress.finish(tally.summary(videos: targets.count, unread: scan.failures.count, elapsed: progress.elapsedSeconds), tally: tally)
            if !tally.failures.isEmpty {
                // Lines scrolled past by the time a library is done: the failures again, together, in
                // the order of the library (one video's line is the last above, and not repeated).
                if targets.count + scan.failures.count > 1 {
                    for line in tally.failureList(videos: targets.count) { progress.printError(line) }
                }
                throw ExitCode.failure
            }
        }

        /// Makes each target's outputs in `batch`, counting each outcome in `tally` as it arrives.
        func make(_ targets: [SpriteTarget], with maker: SpriteMaker, in batch: VideoBatch, conflicts: [Int: SpriteError],
                  progress: SpriteProgress, tally: inout Tally) async throws {
            let sharedBudget = cores.workers == nil ? batch.budget : nil
            // One limit for every video in flight: each reserves its estimate before allocating.
            let memoryBudget = MemoryBudget(limitBytes: limits.memory.bytes)
            try await batch.run(count: targets.count, work: { [force] index -> Outcome in
                let target = targets[index]
                if let conflict = conflicts[index] { return .failed(String(describing: conflict)) }
                if !force && maker.outputsAreCurrent(for: target) { return .skipped }
                let fileStart = ContinuousClock.now
                do {
                    let report = try await maker.make(target, sharing: sharedBudget, memory: memoryBudget) { done, total in progress.update(index, fraction: Double(done) / Double(total)) }
                    return .made(report, (ContinuousClock.now - fileStart).seconds)
                } catch is CancellationError {
                    // Stopped because another video failed (--fail-fast).
                    return .cancelled
                } catch {
                    return .failed(oneLineMessage(error))
                }
            }, handle: { index, outcome in
                try tally.record(outcome, of: targets[index], index: index, progress: progress)
                if case .failed = outcome, failFast { return .cancelAll }
                return .goOn
            })
        }

        /// Two videos whose outputs would land on the same names, or on a video: the later one
        /// fails, and with --fail-fast the run stops before any video is made.
        func checkConflicts(_ targets: [SpriteTarget], settings: SpriteSettings, progress: SpriteProgress) throws -> [Int: SpriteError] {
            let conflicts = SpriteLibrary.conflicts(in: targets, settings: settings)
            if !conflicts.isEmpty && failFast {
                var tally = Tally(unread: [])
                for (index, conflict) in conflicts.sorted(by: { $0.key < $1.key }) {
                    tally.failures.append("\(targets[index].input): \(conflict)")
                    progress.printError("filmstrip: \(targets[index].input): \(conflict)")
                }
                try progress.finish("sprite: \(Words.count(targets.count, "video")): 0 made, \(conflicts.count) failed before any work (outputs that collide; without --fail-fast the others are made)",
                                    tally: tally)
                throw ExitCode.failure
            }
            return conflicts
        }

        /// What the videos of a run came to, as their outcomes arrive.
        struct Tally {
            var made = 0, skipped = 0, videoSeconds = 0.0
            /// Each failure so far as its line (the video or path, then the reason), the paths the scan could not read first.
            var failures: [String]
            /// Where each video's failure sits in `failures`, so that the list at the end follows the library's order, not the finishing order.
            private var failedVideos: [(index: Int, line: String)] = []
            private let unread: [String]

            init(unread: [String]) {
                self.unread = unread
                failures = unread
            }

            var failed: Int { failures.count }

            /// Counts `outcome` of `target` (the `index`-th) and prints its line.
            mutating func record(_ outcome: Outcome, of target: SpriteTarget, index: Int, progress: SpriteProgress) throws {
                progress.finished(index)
                switch outcome {
                case .made(let report, let seconds):
                    made += 1
                    videoSeconds += report.durationSeconds
                    try progress.print(Sprite.line(target, report: report, seconds: seconds),
                                       event: ["event": "made", "video": .string(target.input), "thumbnails": .integer(report.timing.count),
                                               "frames_decoded": .integer(report.framesDecoded),
                                               "tiles": .string(report.grids.map { "\($0.tile.width)x\($0.tile.height)" }.joined(separator: ",")),
                                               "sheets": .integer(report.grid.sheetCount), "seconds": .number(seconds), "video_seconds": .number(report.durationSeconds)])
                case .skipped:
                    skipped += 1
                    try progress.print("\(target.input): outputs up to date, skipped", event: ["event": "skipped", "video": .string(target.input)])
                case .failed(let message):
                    let line = message.hasPrefix(target.input) ? message : "\(target.input): \(message)"
                    failedVideos.append((index, line))
                    failures = unread + failedVideos.sorted { $0.index < $1.index }.map(\.line)
                    progress.printError("filmstrip: \(line)")
                case .cancelled:
                    break
                }
            }

            /// The last line: how many were made, skipped, failed, not made or not read, and the speed.
            func summary(videos: Int, unread: Int, elapsed: Double) -> String {
                let speed = videoSeconds > 0 && elapsed > 0 ? String(format: "; %@ of video in %.1f s (x%.0f realtime)", Sprite.clock(videoSeconds), elapsed, videoSeconds / elapsed) : ""
                let videosFailed = failed - unread
                let notStarted = videos - made - skipped - videosFailed
                let stopped = notStarted > 0 ? ", \(notStarted) not made (stopped at the first failure: --fail-fast)" : ""
                let unreadText = unread == 0 ? "" : ", \(unread) \(unread == 1 ? "path" : "paths") not read"
                return "sprite: \(Words.count(videos, "video")): \(made) made, \(skipped) up to date, \(videosFailed) failed\(unreadText)\(stopped)\(speed)"
            }

            /// Every failure with its reason, a line each under a heading, for stderr after the summary
            /// (indented after the `filmstrip: ` every line of stderr starts with).
            func failureList(videos: Int) -> [String] {
                let videosFailed = failed - unread.count
                let heading = unread.isEmpty ? "\(videosFailed) of \(Words.count(videos, "video")) failed:"
                    : "\(videosFailed) of \(Words.count(videos, "video")) failed, \(unread.count) \(unread.count == 1 ? "path" : "paths") not read:"
                return ["filmstrip: \(heading)"] + failures.map { "filmstrip:   \($0)" }
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
            let tiles = report.grids.map { "\($0.tile.width)x\($0.tile.height)" }.joined(separator: ", ")
            return String(format: "%@: %@ %@ every %@ s on %@, %@, worst offset %.3f s, %.2f s (x%.0f realtime)%@",
                          target.input, Words.count(report.timing.count, "thumbnail"), tiles,
                          "\(Double(report.timing.intervalMilliseconds) / 1000)", Words.count(report.grid.sheetCount, "sheet"), bound,
                          report.worstErrorSeconds, seconds, report.durationSeconds / max(seconds, 1e-9), substituted)
        }

        static func clock(_ seconds: Double) -> String {
            let total = Int(seconds.rounded())
            return String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
        }
    }
}

/// What a run shows while it works: on a terminal, a progress line on stderr (videos done,
/// the running ones, an ETA weighed by the videos' sizes, `BatchProgress`) with the result
/// lines printed above it; with `--json`, JSON lines on standard output instead; with
/// `--quiet`, only errors.
final class SpriteProgress: Sendable {
    private struct State {
        var batch: BatchProgress
        var lineShown = false
    }

    private let state: Mutex<State>
    private let names: [String]
    private let quiet: Bool, json: Bool
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let start = ContinuousClock.now

    init(targets: [SpriteTarget], reporting: ReportingOptions) {
        names = targets.map(\.input)
        state = Mutex(State(batch: BatchProgress(files: names)))
        quiet = reporting.quiet
        json = reporting.json
    }

    var elapsedSeconds: Double { (ContinuousClock.now - start).seconds }

    func update(_ index: Int, fraction: Double) {
        state.withLock { $0.batch.update(index, fraction: fraction) }
        if json { try? Console.jsonLine(["event": "progress", "video": .string(names[index]), "fraction": .number(fraction)]) }
        redraw()
    }

    func finished(_ index: Int) {
        state.withLock { $0.batch.finish(index) }
    }

    /// Prints a result line, or its JSON object with `--json`, or nothing with `--quiet`.
    func print(_ line: String, event: [String: JSONValue]) throws(StandardOutputFailed) {
        if quiet { return }
        if json { return try Console.jsonLine(event) }
        clear()
        try Console.out(FileSystemName.display(line))
        redraw()
    }

    func printError(_ line: String) {
        clear()
        Console.err(FileSystemName.display(line))
        redraw()
    }

    /// The summary line, or `--json`'s last object.
    func finish(_ summary: String, tally: FilmstripCommand.Sprite.Tally) throws(StandardOutputFailed) {
        if quiet { return }
        if json {
            return try Console.jsonLine(["event": "done", "made": .integer(tally.made), "skipped": .integer(tally.skipped), "failed": .integer(tally.failed),
                                         "summary": .string(summary)])
        }
        try Console.out(summary)
    }

    func clear() {
        guard isTerminal else { return }
        state.withLock { state in
            if state.lineShown { Console.err("\r\u{1B}[K", terminator: "") }
            state.lineShown = false
        }
    }

    private func redraw() {
        guard isTerminal, !quiet, !json else { return }
        state.withLock { state in
            let eta = state.batch.remainingSeconds(elapsed: elapsedSeconds).map { " ETA \(FilmstripCommand.Sprite.clock($0))" } ?? ""
            Console.err("\r\u{1B}[K[\(state.batch.finished)/\(names.count) videos, \(state.batch.runningCount) running]\(eta)", terminator: "")
            state.lineShown = true
        }
    }
}
