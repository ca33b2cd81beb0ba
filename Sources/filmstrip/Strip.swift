import ArgumentParser
import Filmstrip
import Foundation

extension FilmstripCommand {
    struct Strip: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a thumbnail strip of a video.",
            discussion: """
            Extractors (--extractor):
            \(Extractors.all.map { "  \($0.name.padded(to: 11)) \($0.summary)" }.joined(separator: "\n"))

            Composers (--composer; `fused` is not a composer but the mode that scales straight into the strip):
            \(StripDestination.all.map { "  \($0.name.padded(to: 11)) \($0.summary)" }.joined(separator: "\n"))

            Times are seconds (12.5) or [hh:]mm:ss(.fff) (1:02.250), counted from the video's first frame.
            Slot i of N shows the frame displayed at the centre of the i-th of N equal parts of the range.
            """)

        @Argument(help: "The video, or several: one strip each (next to each video, or in --out-dir).", completion: .file())
        var videos: [String]

        @Option(name: [.short, .customLong("output")], help: "The strip to write (.png, .jpg or .rgba); - writes a PNG to standard output. One video only.",
                completion: .file(extensions: StripFormat.allCases.flatMap(\.extensions)))
        var output: String?

        @Option(help: "Folder for the strips, named VIDEO.strip.FORMAT (default with several videos: next to each video).", completion: .directory)
        var outDir: String?

        @Option(help: "Image format (file extension) of the strips named after their videos: png, jpg or rgba.",
                completion: .list(["png", "jpg", "rgba"]))
        var format = "png"

        @Option(help: "Number of thumbnails.")
        var count = 10

        @Option(help: "Seconds between thumbnails instead of --count: ⌈range / SEC⌉ thumbnails.")
        var interval: Double?

        @Option(help: "JPEG quality 1-100.")
        var quality = 90

        @Option(help: "Thumbnail height in pixels (default 64); the width follows the display aspect ratio.")
        var height: Int?

        @Option(help: "Thumbnail width in pixels instead of a height.")
        var width: Int?

        @Option(help: "Start of the range (default: the start).")
        var from: String?

        @Option(help: "End of the range (default: the end).")
        var to: String?

        @Option(help: "exact, keyframe, or tolerance:SEC (tolerance:BEFORE,AFTER). (default: exact)", completion: .list(Accuracy.completions), transform: OptionValues.accuracy)
        var accuracy: Accuracy = .exact

        @Option(help: "Extraction strategy: \(Extractors.all.map(\.name).joined(separator: ", ")). (default: \(Pipeline.default.extractor.name))", completion: .list(Extractors.all.map(\.name)), transform: OptionValues.extractor)
        var extractor = ExtractorChoice(extractor: Pipeline.default.extractor)

        @Option(help: "Composition strategy: \(StripDestination.all.map(\.name).joined(separator: ", ")). (default: \(Pipeline.default.destination.name))", completion: .list(StripDestination.all.map(\.name)), transform: OptionValues.destination)
        var composer: StripDestination = Pipeline.default.destination

        @Option(help: "Gap between thumbnails in pixels.")
        var gap = 0

        @Option(help: "Thumbnails per row (a contact sheet); default: one row.")
        var columns: Int?

        @Option(help: "Selected time range FROM..TO that stays bright; the rest is dimmed to 60 %.")
        var select: String?

        @Option(help: "Background colour as RRGGBB or RRGGBBAA hex. (default: 000000)", transform: OptionValues.color)
        var background = RGBAColor(red: 0, green: 0, blue: 0)

        @Option(help: "Decoder threads per decoder (0: one per core).")
        var threads = 1

        @Option(help: "Workers for the taskgroup extractor (default: from the plan's GOP runs and the cores; with several videos, cores / jobs and the cores other videos leave idle).")
        var workers: Int?

        @Option(name: .customLong("jobs"), help: "With several videos, how many are made at a time (default: one per core, at most the videos).")
        var videosAtATime: Int?

        @Option(help: "Scaling filter: \(ScalingFilter.allCases.map(\.rawValue).joined(separator: ", ")). (default: \(ScalingFilter.area.rawValue))", completion: .list(ScalingFilter.allCases.map(\.rawValue)), transform: OptionValues.filter)
        var filter = ScalingFilter.area

        @Flag(inversion: .prefixedNo, help: "Let the decoder skip non-reference frames that are not shown (same pixels; on by default).")
        var skipNonReference = Pipeline.defaultSkipsNonReferenceFrames

        @Flag(help: "Skip the in-loop deblocking filter: faster decoding, slightly blockier thumbnails (same frames).")
        var skipLoopFilter = false

        @Flag(help: "Print a JSON line of measurements (phase seconds, frames decoded, peak RSS before and after writing) on stdout.")
        var stats = false

        @Option(help: "Also write a JSON manifest: per thumbnail the requested and actual time and its rectangle.", completion: .file(extensions: ["json"]))
        var manifest: String?

        @Flag(name: .shortAndLong, help: "Print nothing on success (errors still go to stderr).")
        var quiet = false

        @Flag(name: .shortAndLong, help: "Also print the video, the pipeline and each phase's time on stderr.")
        var verbose = false

        @OptionGroup(title: "Limits (untrusted input)") var limits: StripLimitOptions

        /// `-o -`: the strip goes to standard output as a PNG, and the summary line is not printed.
        var writesToStandardOutput: Bool { output == "-" }

        /// Each video with the strip it makes: `-o`, or `VIDEO.strip.FORMAT` next to the video or in `--out-dir`.
        var jobs: [(video: String, output: String)] {
            if let output { return videos.map { ($0, output) } }
            return videos.map { video in
                let url = URL(fileURLWithPath: video)
                let name = url.deletingPathExtension().lastPathComponent + ".strip." + format
                let folder = outDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? url.deletingLastPathComponent()
                return (video, folder.appendingPathComponent(name).path)
            }
        }

        func validate() throws {
            if height != nil && width != nil { throw ValidationError("Give --height or --width, not both.") }
            try checkRanges()
            if output != nil && outDir != nil { throw ValidationError("Give -o or --out-dir, not both.") }
            if videos.count > 1 && output != nil { throw ValidationError("-o names one strip; with several videos give --out-dir, or neither to write each strip next to its video.") }
            if videos.count == 1 && output == nil && outDir == nil { throw ValidationError("Give -o FILE (or --out-dir DIR) for the strip.") }
            if videos.count > 1 && (manifest != nil || stats) { throw ValidationError("--manifest and --stats take one video.") }
            if StripFormat(path: "strip.\(format)") == nil { throw ValidationError("unknown --format '\(format)'; png, jpg or rgba.") }
            if let output, !writesToStandardOutput && StripFormat(path: output) == nil { throw ValidationError("--output must end in .png, .jpg, .jpeg or .rgba, or be - for standard output.") }
            if quiet && verbose { throw ValidationError("Give --quiet or --verbose, not both.") }
            if writesToStandardOutput && stats { throw ValidationError("--stats prints on standard output; give -o a file.") }
            if writesToStandardOutput && manifest == "-" { throw ValidationError("--manifest cannot also go to standard output.") }
            // Image bytes on a terminal are noise at best: `-o -` is for pipes and files.
            if writesToStandardOutput && isatty(STDOUT_FILENO) != 0 {
                throw ValidationError("-o - writes the image to standard output, which is a terminal here; redirect it (> strip.png) or pipe it.")
            }
        }

        /// One video's failure, already worded as the line for stderr.
        struct Failure: Error {
            var message: String
            /// Set when standard output failed: that ends the whole run, not one video.
            var output: StandardOutputFailed?
        }

        func run() async throws {
            let startupCPUSeconds = ResourceUsage.processCPUSeconds
            limits.input.apply()
            let jobs = jobs
            let signalSources = SignalCleanup.install(doing: jobs.count == 1 ? "making \(jobs[0].output) from \(jobs[0].video)" : "making \(jobs.count) strips")
            defer { signalSources.forEach { $0.cancel() } }
            try checkBeforeWork(jobs)
            if jobs.count == 1 {
                do {
                    try await makeStrip(of: jobs[0].video, to: jobs[0].output, startupCPUSeconds: startupCPUSeconds)
                } catch {
                    if let output = error.output { throw output }
                    throw failWithMessage(error.message)
                }
                return
            }
            // Several videos: a bad one is reported (naming it) and skipped; the rest are made.
            // The exit status is non-zero if any failed; a failed strip leaves no file.
            // Videos share nothing, so several at a time scale with the cores at no extra CPU;
            // the cores the last ones leave idle go to those still running (`VideoBatch`, as `sprite`).
            let batch = VideoBatch(videos: jobs.count, videosAtATime: videosAtATime, workers: workers)
            var failed: [Int] = [], outputFailure: StandardOutputFailed?
            await batch.run(count: jobs.count, work: { index -> Failure? in
                do throws(Failure) {
                    try await makeStrip(of: jobs[index].video, to: jobs[index].output, startupCPUSeconds: startupCPUSeconds, sharing: batch)
                    return nil
                } catch {
                    return error
                }
            }, handle: { index, failure in
                guard let failure else { return .goOn }
                if let output = failure.output {
                    outputFailure = output
                    return .cancelAll
                }
                Console.err("filmstrip: \(FileSystemName.display(failure.message))")
                failed.append(index)
                return outputFailure == nil ? .goOn : .cancelAll
            })
            if let outputFailure { throw outputFailure }
            if !failed.isEmpty {
                let names = failed.sorted().map { jobs[$0].video }
                throw failWithMessage("\(names.count) of \(jobs.count) videos failed: \(names.joined(separator: ", "))")
            }
        }

        /// The checks of the whole run before any work (a one-line error, exit 1): the interval and
        /// quality, the folder, and that no strip is another video, nor two videos' strips one
        /// file (a.mp4 and b/a.mkv into one --out-dir).
        func checkBeforeWork(_ jobs: [(video: String, output: String)]) throws {
            if let interval, !(interval > 0) { throw failWithMessage("--interval must be positive, got \(interval).") }
            if !(1...100).contains(quality) { throw failWithMessage("--quality must be 1 to 100, got \(quality).") }
            if let outDir, !System.isDirectory(outDir) { throw failWithMessage("\(outDir): --out-dir is not an existing folder") }
            guard !writesToStandardOutput else { return }
            do {
                let option = { (video: String) in output == nil ? "the strip of \(video)" : "--output" }
                for job in jobs {
                    for video in videos { try StripWriter.checkDistinct(input: video, outputs: [(option(job.video), job.output)]) }
                }
                // Compared with one another (the input given here is one no strip can be).
                try StripWriter.checkDistinct(input: "/dev/null", outputs: jobs.map { (option($0.video), $0.output) })
            } catch {
                throw failWithMessage(error)
            }
        }

        /// The library's job for `video`: every option parsed once into its type. In a batch, the
        /// video starts with the batch's workers per video unless `--workers` is given, and then
        /// takes the cores the batch leaves idle.
        func job(of video: String, to output: String, sharing batch: VideoBatch?) -> StripJob {
            var job = StripJob(video: video)
            job.spacing = interval.map { .interval(seconds: $0) } ?? .count(count)
            job.from = from.flatMap(TimeParsing.seconds)
            job.to = to.flatMap(TimeParsing.seconds)
            job.accuracy = accuracy
            job.size = width.map { .width($0) } ?? .height(height ?? 64)
            job.options = ExtractionOptions(decoder: DecoderOptions(threads: threads, skipLoopFilter: skipLoopFilter), skipNonReferenceFrames: skipNonReference,
                                            filter: filter, workers: batch?.workersPerVideo ?? workers)
            let shared = workers == nil ? batch.map { extractor.extractor.sharing($0.budget) } : nil
            job.pipeline = Pipeline(extractor: shared ?? extractor.extractor, destination: composer)
            job.stripOptions = StripOptions(columns: columns, gap: gap, background: background, selection: select.flatMap(TimeParsing.range))
            job.memoryLimitBytes = limits.memory.bytes
            job.output = output
            return job
        }

        /// Makes the strip of `video` into `output`; every error is worded with the file it concerns.
        func makeStrip(of video: String, to output: String, startupCPUSeconds: Double, sharing batch: VideoBatch? = nil) async throws(Failure) {
            do {
                let files = (writesToStandardOutput ? [] : [("--output", output)]) + (manifest.map { [("--manifest", $0)] } ?? [])
                try StripWriter.checkDistinct(input: video, outputs: files)
                if !writesToStandardOutput { try StripWriter.checkWritable(output) }
                if let manifest { try StripWriter.checkWritable(manifest) }
                let probe = try VideoProbe(path: video)
                if probe.dataEndsEarly {
                    Console.err("filmstrip: warning: \(FileSystemName.display(video)): data ends early (file truncated?): the strip covers the \(String(format: "%.3f", probe.durationSeconds)) s that can be read")
                }
                let prepared = try job(of: video, to: output, sharing: batch).prepare(probe: probe)
                let result = try await prepared.run()
                // Measured before and after writing: the pipeline's peak, and the run's with the writer's buffers.
                let pipelinePeakBytes = ResourceUsage.peakResidentBytes
                let manifestData = try manifest.map { ($0, try prepared.manifest(of: result).json()) }
                if writesToStandardOutput {
                    try Self.writeToStandardOutput(result.pixels, manifest: manifestData)
                } else {
                    try StripWriter.write(result.pixels, to: output, jpegQuality: quality, manifest: manifestData)
                }
                try report(result, of: prepared, output: output, pipelinePeakBytes: pipelinePeakBytes, startupCPUSeconds: startupCPUSeconds)
            } catch let failure as Failure {
                throw failure
            } catch let failure as StandardOutputFailed {
                throw Failure(message: failure.description, output: failure)
            } catch let error as PlanError {
                throw Failure(message: "\(video): \(error)")
            } catch let error as LayoutError {
                throw Failure(message: "\(output): \(error)")
            } catch let error as MemoryLimitExceeded {
                throw Failure(message: "\(video): \(oneLineMessage(error))")
            } catch {
                let message = oneLineMessage(error)
                // Errors that do not name a file get the video's name: with several inputs a bare reason is no help.
                throw Failure(message: message.contains(video) || message.contains(output) ? message : "\(video): \(message)")
            }
        }

        /// What a made strip prints: `--verbose`'s phases on stderr, `--stats`'s JSON line, or the summary line.
        func report(_ result: StripResult, of prepared: PreparedStrip, output: String, pipelinePeakBytes: Int, startupCPUSeconds: Double) throws {
            let probe = prepared.probe, pipeline = prepared.job.pipeline
            if verbose {
                let phases = String(format: "extract %.3f s, compose %.3f s", result.extractSeconds, result.composeSeconds)
                Console.err("\(FileSystemName.display(prepared.job.video)): \(probe.width)x\(probe.height), \(String(format: "%.3f", probe.durationSeconds)) s; \(pipeline.name); \(phases); \(result.counters.framesDecoded) frames decoded")
            }
            if stats {
                let measurements: [String: Double] = [
                    "extract_s": result.extractSeconds, "compose_s": result.composeSeconds,
                    "frames_decoded": Double(result.counters.framesDecoded), "seeks": Double(result.counters.seeks),
                    "peak_rss_bytes": Double(pipelinePeakBytes), "peak_rss_written_bytes": Double(ResourceUsage.peakResidentBytes),
                ].merging(RunBound(counters: result.counters, startupCPUSeconds: startupCPUSeconds).measurements) { $1 }
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                try Console.out(String(decoding: try encoder.encode(measurements), as: UTF8.self))
                return
            }
            let substituted = result.thumbnails.filter(\.substituted).count
            let note = substituted > 0 ? ", \(substituted) shown by a neighbouring frame (damaged data)" : ""
            if quiet || writesToStandardOutput { return }
            try Console.out("\(FileSystemName.display(output)): \(result.pixels.width)x\(result.pixels.height), \(prepared.plan.count) thumbnails via \(pipeline.name)\(note)")
        }

        /// Writes the strip as a PNG to a private temporary folder (the writer works on files,
        /// atomically), then copies it to standard output; the manifest is written as usual.
        static func writeToStandardOutput(_ pixels: some PixelRows, manifest: (path: String, data: Data)?) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-stdout-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("strip.png").path
            try StripWriter.write(pixels, to: file, format: .png, manifest: manifest)
            try Console.out(Array(Data(contentsOf: URL(fileURLWithPath: file))))
        }

    }
}
