import ArgumentParser
import Filmstrip
import Foundation

extension FilmstripCommand {
    /// The command an editor drives: one image per time, each written as soon as it is ready,
    /// each announced by one JSON line on standard output.
    struct Thumbnails: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write thumbnails of a video at given times, each as soon as it is ready, announcing each with a JSON line.",
            discussion: """
            Each image is written atomically to DIR/thumbnail-INDEX.FORMAT (INDEX the slot, from 0),
            then one JSON object is printed on its own line, flushed at once:
              {"index":0,"requested_s":1.5,"actual_s":1.4833,"exact":true,"final":true,
               "path":"DIR/thumbnail-0000.png","elapsed_s":0.052}
            Lines come in the order images are ready, not by index. With --coarse-first a
            slot may first get its nearest keyframe's image ("final":false) and later the
            frame asked for, written over the same file; every slot ends with a "final":true line.

            Strategies (--strategy):
            \(Words.list(InteractiveStrategies.all.map { ($0.name, $0.summary) }, nameWidth: 15))

            Times are seconds (12.5) or [hh:]mm:ss(.fff) (1:02.250), counted from the video's first frame, \
            a share of the duration (25%) or a time before the end (-5s; --at=-5s when the list starts with it).
            """)

        @Argument(help: "The video.", completion: .file())
        var video: String

        /// Every `--at` given, in order: a second `--at` adds its times to the first's.
        @Option(name: .customLong("at"), help: "Times of the thumbnails, comma-separated (T[,T…]): seconds, [hh:]mm:ss, P% of the duration, or -Ts before the end (--at=-5s); repeat --at to add more.")
        var atValues: [String] = []

        /// The times of every `--at`, as one comma-separated list; nil when none was given.
        var at: String? { atValues.isEmpty ? nil : atValues.joined(separator: ",") }

        @Option(help: "Number of thumbnails spread evenly over the range (--from, --to), as `strip --count` spreads them.")
        var count: Int?

        @OptionGroup var range: RangeOptions

        @Option(help: "Fit each thumbnail in WxH pixels, aspect ratio kept, instead of --height or --width.", transform: Thumbnails.box)
        var maxSize: ThumbnailBox?

        @OptionGroup var thumbnail: ThumbnailOptions<StripDefaults>

        @Flag(help: "Show each slot's nearest keyframe first, then the frame asked for (the coarse-first strategy).")
        var coarseFirst = false

        @Option(help: "Interactive strategy: \(InteractiveStrategies.all.map(\.name).joined(separator: ", ")) (default: \(InteractiveStrategies.standard.name)).",
                completion: .list(InteractiveStrategies.all.map(\.name)), transform: OptionValues.strategy)
        var strategy: StrategyChoice?

        @Option(help: "Decoders working at once (default: one per core).")
        var decoders: Int?

        @Flag(help: "Keep the coded orientation instead of turning thumbnails upright by the video's rotation.")
        var noRotation = false

        @Option(help: "Folder for the images (made when missing).", completion: .directory)
        var outDir: String

        @Option(help: "Image format: png or jpg (default: png).", completion: .list(["png", "jpg"]), transform: Thumbnails.imageFormat)
        var format = StripFormat.png

        @OptionGroup var quality: QualityOption

        @Flag(name: .shortAndLong, help: "Print nothing on success: the images are written, the JSON lines are not (errors still go to stderr).")
        var quiet = false

        @Flag(help: "The JSON lines (the default output, accepted for symmetry with the other commands).")
        var json = false

        @OptionGroup(title: "Limits (untrusted input)") var limits: InputLimitOptions

        static func box(_ text: String) throws -> ThumbnailBox {
            let sides = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            let maxSide = ResourceLimits.maximumThumbnailSide
            guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]), (1...maxSide).contains(width), (1...maxSide).contains(height) else {
                throw ValidationError("'\(text)' is not WxH with both sides 1 to \(maxSide) pixels.")
            }
            return .fitting(width: width, height: height)
        }

        /// PNG or JPEG: each image is written whole, so the raw format has no use here.
        static func imageFormat(_ text: String) throws -> StripFormat {
            try OptionValues.choice(text, kind: "format", among: [("png", .png), ("jpg", .jpeg), ("jpeg", .jpeg)])
        }

        func validate() throws {
            if (at == nil) == (count == nil) { throw ValidationError("Give --at T[,T…] or --count N.") }
            if at != nil && range.isGiven { throw ValidationError("--from and --to go with --count, not --at.") }
            if maxSize != nil && thumbnail.isGiven { throw ValidationError("Give one of --max-size, --height or --width.") }
            try OptionRange.check(count, 1...ResourceLimits.maximumThumbnailCount, "--count")
            try OptionRange.check(decoders, 1...256, "--decoders")
            if coarseFirst && strategy != nil { throw ValidationError("Give --coarse-first or --strategy, not both.") }
            if quiet && json { throw ValidationError("Give --quiet or --json, not both.") }
            if let at, let bad = at.split(separator: ",", omittingEmptySubsequences: false).first(where: { TimePoint(parsing: String($0)) == nil }) {
                if bad.hasPrefix("-"), TimeParsing.seconds(String(bad.dropFirst())) != nil {
                    throw ValidationError("--at \(bad): times cannot be negative; they count from the video's first frame (0), or write -\(bad.dropFirst())s for a time before the end.")
                }
                throw ValidationError("--at '\(bad)' is not a time: \(OptionValues.timeLimitBroken(String(bad)) ?? OptionValues.timePointForms); give times separated by commas.")
            }
        }

        var box: ThumbnailBox {
            if let maxSize { return maxSize }
            switch thumbnail.size {
            case .height(let pixels): return .height(pixels)
            case .width(let pixels): return .width(pixels)
            }
        }

        func run() async throws {
            let started = ContinuousClock.now
            let signalSources = SignalCleanup.install(doing: "writing thumbnails of \(video) into \(outDir)")
            defer { signalSources.forEach { $0.cancel() } }
            // Made when missing, as `sprite -o` is; a file in its place is refused.
            do { try System.createDirectories(outDir) } catch { throw failWithMessage("--out-dir: \(oneLineMessage(error))") }
            guard System.isDirectory(outDir) else { throw failWithMessage("\(outDir): --out-dir is not a folder") }
            let (generator, results, files) = try start()
            defer { generator.close() }
            // Slots whose last image is not the frame an exact request asked for (damaged data there).
            var notExact = Set<Int>()
            do {
                for try await thumbnail in results {
                    if thumbnail.isFinal && !thumbnail.isExact { notExact.insert(thumbnail.slot) }
                    let (file, quotedPath) = files[thumbnail.slot]
                    try StripWriter.write(thumbnail.image, to: file, format: format, jpegQuality: quality.quality)
                    if quiet { continue }
                    let elapsed = started.duration(to: .now)
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                    let start = generator.probe.startTime.seconds.doubleValue
                    // Console.out writes the whole line with one write(2): the reader sees each line as soon as its image exists.
                    try Console.out("{\"index\":\(thumbnail.slot),\"requested_s\":\(Self.decimal(thumbnail.requestedTime.seconds.doubleValue - start)),"
                        + "\"actual_s\":\(Self.decimal(thumbnail.actualTime.seconds.doubleValue - start)),"
                        + "\"exact\":\(thumbnail.isExact),\"final\":\(thumbnail.isFinal),\"path\":\(quotedPath),\"elapsed_s\":\(Self.decimal(seconds))}")
                }
            } catch let failure as StandardOutputFailed {
                throw failure
            } catch {
                let message = oneLineMessage(error)
                throw failWithMessage(message.contains(video) || message.contains(outDir) ? message : "\(video): \(message)")
            }
            // An exact request that could not be met is a failure, not a picture that looks right.
            if (thumbnail.chosenAccuracy ?? .exact) == .exact, !notExact.isEmpty {
                let slots = notExact.sorted().prefix(10).map(String.init).joined(separator: ",") + (notExact.count > 10 ? ",…" : "")
                throw failWithMessage("\(video): \(notExact.count) of \(files.count) thumbnails could not show the exact frame asked for "
                    + "(the data there is damaged or missing; the nearest good frame was written, marked \"exact\":false): slots \(slots)")
            }
        }

        /// Opens the video and asks for its thumbnails: the generator, its results, and each
        /// slot's file with its name quoted for JSON, made once (a slot may be written twice:
        /// coarse, then exact). Every error is one line naming the video.
        func start() throws -> (ThumbnailGenerator, ThumbnailResults, [(path: String, quoted: String)]) {
            let chosen = coarseFirst ? CoarseThenExactStrategy() : strategy?.strategy ?? InteractiveStrategies.standard
            let folder = URL(fileURLWithPath: outDir, isDirectory: true)
            do {
                let generator = try ThumbnailGenerator(path: video, options: ThumbnailGeneratorOptions(strategy: chosen, decoders: decoders, limits: limits.value))
                let duration = generator.probe.duration.seconds, (from, to) = range.resolved(duration: duration)
                let times = at.map { $0.split(separator: ",").compactMap { TimePoint(parsing: String($0))?.resolved(duration: duration) } }
                    ?? generator.evenlySpacedTimes(count: count ?? 1, from: from, to: to)
                // A time before the end of a shorter video, or a share past 100 %, lies outside it.
                if let outside = times.first(where: { $0 < .zero || $0 > duration }) { throw TimeOutsideVideo(seconds: outside, duration: duration) }
                if at == nil {
                    // The evenly spaced plan's own checks (an empty range, a range outside the video), worded as strip words them.
                    _ = try SamplePlan(probe: generator.probe, count: times.count, from: from, to: to)
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = .withoutEscapingSlashes
                let files = try times.indices.map { slot in
                    let file = folder.appendingPathComponent("thumbnail-\(String(format: "%04d", slot)).\(format.extensions[0])").path
                    return (path: file, quoted: TerminalText.json(String(decoding: try encoder.encode(file), as: UTF8.self)))
                }
                try StripWriter.checkDistinct(input: video, outputs: files.map { ("--out-dir", $0.path) })
                let request = ThumbnailRequest(times: times, box: box, accuracy: thumbnail.chosenAccuracy ?? .exact, appliesRotation: !noRotation)
                return (generator, try generator.thumbnails(for: request), files)
            } catch let error as PlanError {
                throw failWithMessage("\(video): \(error)")
            } catch {
                let message = oneLineMessage(error)
                throw failWithMessage(message.contains(video) ? message : "\(video): \(message)")
            }
        }

        /// A time of `--at` that, resolved against the duration, lies outside the video.
        struct TimeOutsideVideo: Error, CustomStringConvertible {
            var seconds: Rational, duration: Rational
            var description: String { "--at \(seconds.doubleValue) s lies outside the video (0–\(duration.doubleValue) s)" }
        }

        /// Seconds with six decimals, as JSON numbers.
        static func decimal(_ value: Double) -> String { String(format: "%.6f", value) }
    }
}
