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
            \(InteractiveStrategies.all.map { "  \($0.name.padded(to: 15)) \($0.summary)" }.joined(separator: "\n"))

            Times are seconds (12.5) or [hh:]mm:ss(.fff) (1:02.250), counted from the video's first frame.
            """)

        @Argument(help: "The video.", completion: .file())
        var video: String

        @Option(help: "Times of the thumbnails, comma-separated (T[,T…]).")
        var at: String?

        @Option(help: "Number of thumbnails spread evenly over the range, as `strip --count` spreads them.")
        var count: Int?

        @Option(help: "Start of the range for --count (default: the start).")
        var from: String?

        @Option(help: "End of the range for --count (default: the end).")
        var to: String?

        @Option(help: "Fit each thumbnail in WxH pixels, aspect ratio kept.", transform: Thumbnails.box)
        var maxSize: ThumbnailBox?

        @Option(help: "Thumbnail height in pixels (default 64 when no size is given); the width follows the display aspect ratio.")
        var height: Int?

        @Option(help: "Thumbnail width in pixels; the height follows the display aspect ratio.")
        var width: Int?

        @Option(help: "exact, keyframe, or tolerance:SEC (tolerance:BEFORE,AFTER). (default: exact)", completion: .list(Accuracy.completions), transform: OptionValues.accuracy)
        var accuracy: Accuracy = .exact

        @Flag(help: "Show each slot's nearest keyframe first, then the frame asked for (the coarse-first strategy).")
        var coarseFirst = false

        @Option(help: "Interactive strategy: \(InteractiveStrategies.all.map(\.name).joined(separator: ", ")). (default: \(InteractiveStrategies.standard.name))",
                completion: .list(InteractiveStrategies.all.map(\.name)), transform: Thumbnails.strategy)
        var strategy: StrategyChoice?

        @Option(help: "Decoders working at once (default: one per core).")
        var decoders: Int?

        @Flag(help: "Keep the coded orientation instead of turning thumbnails upright by the video's rotation.")
        var noRotation = false

        @Option(help: "Folder for the images (must exist).", completion: .directory)
        var outDir: String

        @Option(help: "Image format: png or jpg.")
        var format = "png"

        @Option(help: "JPEG quality 1-100.")
        var quality = 90

        @OptionGroup(title: "Limits (untrusted input)") var limits: InputLimitOptions

        static func box(_ text: String) throws -> ThumbnailBox {
            let sides = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]), width > 0, height > 0,
                  width <= 16_384, height <= 16_384 else {
                throw ValidationError("'\(text)' is not WxH with both sides 1 to 16384 pixels.")
            }
            return .fitting(width: width, height: height)
        }

        static func strategy(_ text: String) throws -> StrategyChoice {
            guard let value = InteractiveStrategies.named(text) else {
                throw ValidationError("unknown strategy '\(text)'; one of \(InteractiveStrategies.all.map(\.name).joined(separator: ", ")).")
            }
            return StrategyChoice(strategy: value)
        }

        func validate() throws {
            if (at == nil) == (count == nil) { throw ValidationError("Give --at T[,T…] or --count N.") }
            if at != nil && (from != nil || to != nil) { throw ValidationError("--from and --to go with --count, not --at.") }
            if [maxSize != nil, height != nil, width != nil].filter({ $0 }).count > 1 {
                throw ValidationError("Give one of --max-size, --height or --width.")
            }
            for (value, name) in [(height, "--height"), (width, "--width")] {
                if let value, !(1...16_384).contains(value) { throw ValidationError("\(name) must be 1 to 16384, got \(value).") }
            }
            if let count, !(1...ResourceLimits.maximumThumbnailCount).contains(count) {
                throw ValidationError("--count must be 1 to \(ResourceLimits.maximumThumbnailCount), got \(count).")
            }
            if let decoders, !(1...256).contains(decoders) { throw ValidationError("--decoders must be 1 to 256, got \(decoders).") }
            if coarseFirst && strategy != nil { throw ValidationError("Give --coarse-first or --strategy, not both.") }
            if !["png", "jpg", "jpeg"].contains(format) { throw ValidationError("unknown --format '\(format)'; png or jpg.") }
            if !(1...100).contains(quality) { throw ValidationError("--quality must be 1 to 100, got \(quality).") }
            for (text, name) in [(from, "--from"), (to, "--to")] {
                if let text, TimeParsing.seconds(text) == nil { throw ValidationError("\(name) '\(text)' is not a time.") }
            }
            if let at, at.split(separator: ",", omittingEmptySubsequences: false).contains(where: { TimeParsing.seconds(String($0)) == nil }) {
                throw ValidationError("--at '\(at)' is not a comma-separated list of times.")
            }
        }

        var box: ThumbnailBox { maxSize ?? width.map { .width($0) } ?? .height(height ?? 64) }

        func run() async throws {
            let started = ContinuousClock.now
            limits.apply()
            let signalSources = SignalCleanup.install(doing: "writing thumbnails of \(video) into \(outDir)")
            defer { signalSources.forEach { $0.cancel() } }
            // Made when missing, as `sprite -o` is; a file in its place is refused.
            do { try System.createDirectories(outDir) } catch { throw failWithMessage("--out-dir: \(oneLineMessage(error))") }
            guard System.isDirectory(outDir) else { throw failWithMessage("\(outDir): --out-dir is not a folder") }
            let chosen = coarseFirst ? CoarseThenExactStrategy() : strategy?.strategy ?? InteractiveStrategies.standard
            let generator: ThumbnailGenerator
            let results: ThumbnailResults
            // Each slot's file and its name quoted for JSON, made once: a slot may be written twice (coarse, then exact).
            let files: [(path: String, quoted: String)]
            let extensionName = format == "png" ? "png" : "jpg"
            let folder = URL(fileURLWithPath: outDir, isDirectory: true)
            func path(of slot: Int) -> String { folder.appendingPathComponent("thumbnail-\(String(format: "%04d", slot)).\(extensionName)").path }
            do {
                generator = try ThumbnailGenerator(path: video, options: ThumbnailGeneratorOptions(strategy: chosen, decoders: decoders))
                let times = at.map { $0.split(separator: ",").compactMap { TimeParsing.seconds(String($0)) } }
                    ?? generator.evenlySpacedTimes(count: count ?? 1, from: from.flatMap(TimeParsing.seconds), to: to.flatMap(TimeParsing.seconds))
                if at == nil {
                    // The evenly spaced plan's own checks (an empty range, a range outside the video), worded as strip words them.
                    _ = try SamplePlan(probe: generator.probe, count: times.count, from: from.flatMap(TimeParsing.seconds),
                                       to: to.flatMap(TimeParsing.seconds))
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = .withoutEscapingSlashes
                files = try times.indices.map { slot in
                    let file = path(of: slot)
                    return (file, String(decoding: try encoder.encode(file), as: UTF8.self))
                }
                try StripWriter.checkDistinct(input: video, outputs: files.map { ("--out-dir", $0.path) })
                results = try generator.thumbnails(for: ThumbnailRequest(times: times, box: box, accuracy: accuracy, appliesRotation: !noRotation))
            } catch let error as PlanError {
                throw failWithMessage("\(video): \(error)")
            } catch {
                let message = oneLineMessage(error)
                throw failWithMessage(message.contains(video) ? message : "\(video): \(message)")
            }
            defer { generator.close() }
            do {
                for try await thumbnail in results {
                    let (file, quotedPath) = files[thumbnail.slot]
                    try StripWriter.write(thumbnail.image, to: file, format: extensionName == "png" ? .png : .jpeg, jpegQuality: quality)
                    let elapsed = started.duration(to: .now)
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                    // Console.out writes the whole line with one write(2): the reader sees each line as soon as its image exists.
                    try Console.out("{\"index\":\(thumbnail.slot),\"requested_s\":\(Self.decimal(thumbnail.requestedTime.seconds.doubleValue - generator.probe.startTime.seconds.doubleValue)),"
                        + "\"actual_s\":\(Self.decimal(thumbnail.actualTime.seconds.doubleValue - generator.probe.startTime.seconds.doubleValue)),"
                        + "\"exact\":\(thumbnail.isExact),\"final\":\(thumbnail.isFinal),\"path\":\(quotedPath),\"elapsed_s\":\(Self.decimal(seconds))}")
                }
            } catch let failure as StandardOutputFailed {
                throw failure
            } catch {
                let message = oneLineMessage(error)
                throw failWithMessage(message.contains(video) || message.contains(outDir) ? message : "\(video): \(message)")
            }
        }

        /// Seconds with six decimals, as JSON numbers.
        static func decimal(_ value: Double) -> String { String(format: "%.6f", value) }
    }
}

/// An interactive strategy from the registry as an option value; its name is what help and errors show.
struct StrategyChoice: CustomStringConvertible {
    let strategy: any InteractiveStrategy
    var description: String { strategy.name }
}
