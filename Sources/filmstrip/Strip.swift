import ArgumentParser
import Filmstrip
import Foundation

extension FilmstripCommand {
    struct Strip: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a thumbnail strip of a video.",
            discussion: """
            Extractors (--extractor):
            \(Words.list(Extractors.all.map { ($0.name, $0.summary) }, nameWidth: 11))

            Composers (--composer; `fused` is not a composer but the mode that scales straight into the strip):
            \(Words.list(StripDestination.all.map { ($0.name, $0.summary) }, nameWidth: 11))

            Times are seconds (12.5) or [hh:]mm:ss(.fff) (1:02.250), counted from the video's first frame; \
            --from and --to also take a share of the duration (10%) or a time before the end (-5s).
            Slot i of N shows the frame displayed at the centre of the i-th of N equal parts of the range.
            """)

        @Argument(help: "The video, or several: one strip each (next to each video, or in --out-dir).", completion: .file())
        var videos: [String]

        @Option(name: [.short, .customLong("output")], help: "The strip to write (.png, .jpg or .rgba); - writes it to standard output in --format. One video only.",
                completion: .file(extensions: StripFormat.allCases.flatMap(\.extensions)))
        var output: String?

        @Option(help: "Folder for the strips, named VIDEO.strip.FORMAT, made when missing (default with several videos: next to each video).", completion: .directory)
        var outDir: String?

        @Option(help: "Image format of strips named after their videos and of -o -: png, jpg or rgba (default: png).",
                completion: .list(["png", "jpg", "rgba"]), transform: OptionValues.stripFormat)
        var format = StripFormat.png

        @Option(help: "Number of thumbnails.")
        var count = 10

        @Option(help: "Seconds between thumbnails instead of --count: ⌈range / SEC⌉ thumbnails.")
        var interval: Double?

        @OptionGroup var quality: QualityOption

        @OptionGroup var thumbnail: ThumbnailOptions<StripDefaults>

        @Option(help: "Fit each thumbnail in WxH pixels, aspect ratio kept, instead of --height or --width.", transform: OptionValues.box)
        var maxSize: PixelSize?

        @OptionGroup var range: RangeOptions

        @Option(help: "Extraction strategy: \(Extractors.all.map(\.name).joined(separator: ", ")) (default: \(Pipeline.default.extractor.name)).", completion: .list(Extractors.all.map(\.name)), transform: OptionValues.extractor)
        var extractor = ExtractorChoice(extractor: Pipeline.default.extractor)

        @Option(help: "Composition strategy: \(StripDestination.all.map(\.name).joined(separator: ", ")) (default: \(Pipeline.default.destination.name)).", completion: .list(StripDestination.all.map(\.name)), transform: OptionValues.destination)
        var composer: StripDestination = Pipeline.default.destination

        @Option(help: "Gap between thumbnails in pixels (default: 0, and \(SheetAnnotation.defaultGutter) with --timestamps or --header).")
        var gap: Int?

        @Option(help: "Thumbnails per row (a contact sheet); default: one row.")
        var columns: Int?

        @Flag(help: "Draw each tile's time (of the frame it shows) on a dark box in its bottom-right corner; the sheet gets gutters and a margin.")
        var timestamps = false

        @Flag(help: "Put a header above the tiles: file name, size, duration, bit rate, codec, display size, frame rate; the sheet gets gutters and a margin.")
        var header = false

        @Option(help: "Selected time range FROM..TO that stays bright; the rest is dimmed to 60 %.", transform: OptionValues.timeRange)
        var select: Range<Rational>?

        @Option(help: "Background colour as RRGGBB or RRGGBBAA hex (default: 000000).", transform: OptionValues.color)
        var background = RGBAColor(red: 0, green: 0, blue: 0)

        @Option(help: "Decoder threads per decoder (0: one per core).")
        var threads = 1

        @OptionGroup var cores: BatchOptions

        @Flag(help: "With several videos, stop at the first that fails; by default every video is tried and the failures are listed at the end (exit 1).")
        var failFast = false

        @Option(help: "Scaling filter: \(ScalingFilter.allCases.map(\.rawValue).joined(separator: ", ")) (default: \(ScalingFilter.area.rawValue)).", completion: .list(ScalingFilter.allCases.map(\.rawValue)), transform: OptionValues.filter)
        var filter = ScalingFilter.area

        @Flag(inversion: .prefixedNo, help: "Let the decoder skip non-reference frames that are not shown (same pixels).")
        var skipNonReference = Pipeline.defaultSkipsNonReferenceFrames

        @Flag(help: "Skip the in-loop deblocking filter: faster decoding, slightly blockier thumbnails (same frames).")
        var skipLoopFilter = false

        @Flag(help: "Print a JSON line of measurements (phase seconds, frames decoded, peak RSS before and after writing) on stdout.")
        var stats = false

        @Option(help: "Also write a JSON manifest: per thumbnail the requested and actual time and its rectangle.", completion: .file(extensions: ["json"]))
        var manifest: String?

        @OptionGroup var reporting: ReportingOptions

        @Flag(name: .shortAndLong, help: "Also print the video, the pipeline and each phase's time on stderr.")
        var verbose = false

        @OptionGroup(title: "Limits (untrusted input)") var limits: LimitOptions

        /// `-o -`: the strip goes to standard output, and the summary line is not printed.
        var writesToStandardOutput: Bool { output == "-" }

        /// Each video with the strip it makes, its format decided here once: `-o FILE` in the format
        /// its extension names, `-o -` in `--format`, or `VIDEO.strip.FORMAT` next to the video or in `--out-dir`.
        var jobs: [(video: String, output: StripOutput)] {
            if let output {
                let target = writesToStandardOutput ? StripOutput(path: output, format: format) : StripOutput(path: output)
                return videos.map { ($0, target) }
            }
            return videos.map { video in
                let url = URL(fileURLWithPath: video)
                let name = url.deletingPathExtension().lastPathComponent + ".strip." + format.extensions[0]
                let folder = outDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? url.deletingLastPathComponent()
                return (video, StripOutput(path: folder.appendingPathComponent(name).path, format: format))
            }
        }

        func validate() throws {
            try OptionRange.check(count, 1...ResourceLimits.maximumThumbnailCount, "--count")
            try OptionRange.check(gap, 0...ResourceLimits.maximumGap, "--gap")
            try OptionRange.check(columns, 1...ResourceLimits.maximumThumbnailCount, "--columns")
            try OptionRange.check(threads, 0...ResourceLimits.maximumThreads, "--threads")
            if maxSize != nil && thumbnail.isGiven { throw ValidationError("Give one of --max-size, --height or --width.") }
            if let interval, !(interval > 0) { throw ValidationError("--interval must be positive, got \(interval).") }
            if output != nil && outDir != nil { throw ValidationError("Give -o or --out-dir, not both.") }
            if videos.count > 1 && output != nil { throw ValidationError("-o names one strip; with several videos give --out-dir, or neither to write each strip next to its video.") }
            if videos.count == 1 && output == nil && outDir == nil { throw ValidationError("Give -o FILE (or --out-dir DIR) for the strip.") }
            if videos.count > 1 && (manifest != nil || stats) { throw ValidationError("--manifest and --stats take one video.") }
            if let output, !writesToStandardOutput && StripFormat(path: output) == nil { throw ValidationError("--output must end in .png, .jpg, .jpeg or .rgba, or be - for standard output.") }
            if reporting.quiet && verbose { throw ValidationError("Give --quiet or --verbose, not both.") }
            if stats && reporting.json { throw ValidationError("Give --stats or --json, not both.") }
            if writesToStandardOutput && (stats || reporting.json) { throw ValidationError("\(stats ? "--stats" : "--json") prints on standard output; give -o a file.") }
            if writesToStandardOutput && manifest == "-" { throw ValidationError("--manifest cannot also go to standard output.") }
            // Image bytes on a terminal are noise at best: `-o -` is for pipes and files.
            if writesToStandardOutput && isatty(STDOUT_FILENO) != 0 {
                throw ValidationError("-o - writes the image to standard output, which is a terminal here; redirect it (> strip.png) or pipe it.")
            }
        }

        /// What became of one video of several.
        enum Outcome: Sendable {
            case made
            case failed(Failure)
            /// Stopped by `--fail-fast` after another video failed.
            case cancelled
        }

        /// One video's failure, already worded as the line for stderr.
        struct Failure: Error {
            var message: String
            /// Set when standard output failed: that ends the whole run, not one video.
            var output: StandardOutputFailed?
        }

        func run() async throws {
            let startupCPUSeconds = ResourceUsage.processCPUSeconds
            let jobs = jobs
            let signalSources = SignalCleanup.install(doing: jobs.count == 1 ? "making \(jobs[0].output.path) from \(jobs[0].video)" : "making \(jobs.count) strips")
            defer { signalSources.forEach { $0.cancel() } }
            try checkBeforeWork(jobs)
            guard jobs.count > 1 else {
                do {
                    try await makeStrip(of: jobs[0].video, to: jobs[0].output, startupCPUSeconds: startupCPUSeconds)
                } catch {
                    if let output = error.output { throw output }
                    throw failWithMessage(error.message)
                }
                return
            }
            try await makeStrips(jobs, startupCPUSeconds: startupCPUSeconds)
        }

        /// Several videos: a bad one is reported (naming it) and skipped; the rest are made, unless
        /// `--fail-fast`, which stops the others at the first failure. The failures are listed
        /// again at the end with their reasons; the exit status is non-zero if any failed; a failed strip leaves no file.
        /// Videos share nothing, so several at a time scale with the cores at no extra CPU;
        /// the cores the last ones leave idle go to those still running (`VideoBatch`, as `sprite`).
        func makeStrips(_ jobs: [(video: String, output: StripOutput)], startupCPUSeconds: Double) async throws {
            let batch = cores.batch(videos: jobs.count)
            var failed: [(index: Int, message: String)] = [], made = 0, outputFailure: StandardOutputFailed?
            await batch.run(count: jobs.count, work: { index -> Outcome in
                do throws(Failure) {
                    try await makeStrip(of: jobs[index].video, to: jobs[index].output, startupCPUSeconds: startupCPUSeconds, sharing: batch)
                    return .made
                } catch {
                    // Ended by --fail-fast because another video failed: not a failure of its own.
                    return Task.isCancelled && error.output == nil ? .cancelled : .failed(error)
                }
            }, handle: { index, outcome in
                guard case .failed(let failure) = outcome else {
                    if case .made = outcome { made += 1 }
                    return .goOn
                }
                if let output = failure.output {
                    outputFailure = output
                    return .cancelAll
                }
                Console.err("filmstrip: \(FileSystemName.display(failure.message))")
                failed.append((index, failure.message))
                return failFast ? .cancelAll : .goOn
            })
            if let outputFailure { throw outputFailure }
            if reporting.json { try Console.jsonLine(["event": "done", "videos": .integer(jobs.count), "made": .integer(made), "failed": .integer(failed.count)]) }
            if !failed.isEmpty {
                // By the end of a long run the lines above have scrolled away: each failure again, in the order the videos were given.
                // Videos cancelled or never started (--fail-fast) are neither made nor failed.
                let notMade = jobs.count - made - failed.count
                let stopped = notMade > 0 ? ", \(notMade) not made (stopped at the first failure: --fail-fast)" : ""
                Console.err("filmstrip: \(failed.count) of \(Words.count(jobs.count, "video")) failed\(stopped):")
                for failure in failed.sorted(by: { $0.index < $1.index }) { Console.err("filmstrip:   \(FileSystemName.display(failure.message))") }
                throw ExitCode.failure
            }
        }

        /// The checks of the whole run before any work (a one-line error, exit 1): the folder,
        /// and that no strip is another video, nor two videos' strips one file (a.mp4 and
        /// b/a.mkv into one --out-dir).
        func checkBeforeWork(_ jobs: [(video: String, output: StripOutput)]) throws {
            // Made when missing, as `thumbnails --out-dir` and `sprite -o` are; a file in its place is refused.
            if let outDir {
                do { try System.createDirectories(outDir) } catch { throw failWithMessage("--out-dir: \(oneLineMessage(error))") }
                guard System.isDirectory(outDir) else { throw failWithMessage("\(outDir): --out-dir is not a folder") }
            }
            guard !writesToStandardOutput else { return }
            do {
                let option = { (video: String) in output == nil ? "the strip of \(video)" : "--output" }
                for job in jobs {
                    for video in videos { try StripWriter.checkDistinct(input: video, outputs: [(option(job.video), job.output.path)]) }
                }
                // Compared with one another (the input given here is one no strip can be).
                try StripWriter.checkDistinct(input: "/dev/null", outputs: jobs.map { (option($0.video), $0.output.path) })
            } catch {
                throw failWithMessage(error)
            }
        }

        /// The library's job for `video`: every option parsed once into its type. In a batch, the
        /// video starts with the batch's workers per video unless `--workers` is given, and then
        /// takes the cores the batch leaves idle.
        func job(of video: String, to output: StripOutput, sharing batch: VideoBatch?) -> StripJob {
            var job = StripJob(video: video)
            job.spacing = interval.map { .interval(seconds: $0) } ?? .count(count)
            job.from = range.from
            job.to = range.to
            job.accuracy = thumbnail.chosenAccuracy ?? .exact
            job.size = thumbnail.size
            job.maximumSize = maxSize
            job.options = ExtractionOptions(decoder: DecoderOptions(threads: threads, skipLoopFilter: skipLoopFilter), skipNonReferenceFrames: skipNonReference,
                                            filter: filter, workers: batch?.workersPerVideo ?? cores.workers)
            let shared = cores.workers == nil ? batch.map { extractor.extractor.sharing($0.budget) } : nil
            job.pipeline = Pipeline(extractor: shared ?? extractor.extractor, destination: composer)
            let annotation = SheetAnnotation(timestamps: timestamps, header: header)
            job.stripOptions = StripOptions(columns: columns, gap: gap ?? (annotation.isEmpty ? 0 : SheetAnnotation.defaultGutter), background: background,
                                           selection: select, annotation: annotation)
            job.memoryLimitBytes = limits.memory.bytes
            job.limits = limits.input.value
            job.output = output
            return job
        }

        /// Makes the strip of `video` into `output`; every error is worded with the file it concerns.
        func makeStrip(of video: String, to output: StripOutput, startupCPUSeconds: Double, sharing batch: VideoBatch? = nil) async throws(Failure) {
            do {
                let files = (writesToStandardOutput ? [] : [("--output", output.path)]) + (manifest.map { [("--manifest", $0)] } ?? [])
                try StripWriter.checkDistinct(input: video, outputs: files)
                if !writesToStandardOutput { try StripWriter.checkWritable(output.path) }
                if let manifest { try StripWriter.checkWritable(manifest) }
                var job = job(of: video, to: output, sharing: batch)
                // Started here, so that the probe made to warn first and the decoding share one deadline.
                job.limits = job.limits.started()
                let probe = try VideoProbe(path: video, limits: job.limits)
                if probe.dataEndsEarly {
                    Console.err("filmstrip: warning: \(FileSystemName.display(video)): data ends early (file truncated?): the strip covers the \(String(format: "%.3f", probe.durationSeconds)) s that can be read")
                }
                let prepared = try job.prepare(probe: probe)
                let result = try await prepared.run(onProgress: reporting.json ? Self.progressLines(of: video) : nil)
                // Measured before and after writing: the pipeline's peak, and the run's with the writer's buffers.
                let pipelinePeakBytes = ResourceUsage.peakResidentBytes
                try write(result, manifest: try manifest.map { ($0, try prepared.manifest(of: result).json()) }, to: output)
                try report(result, of: prepared, output: output, pipelinePeakBytes: pipelinePeakBytes, startupCPUSeconds: startupCPUSeconds)
            } catch let failure as Failure {
                throw failure
            } catch let failure as StandardOutputFailed {
                throw Failure(message: failure.description, output: failure)
            } catch let error as PlanError {
                throw Failure(message: "\(video): \(error)")
            } catch let error as LayoutError {
                throw Failure(message: "\(output.path): \(error)")
            } catch let error as MemoryLimitExceeded {
                throw Failure(message: "\(video): \(oneLineMessage(error))")
            } catch {
                let message = oneLineMessage(error)
                // Errors that do not name a file get the video's name: with several inputs a bare reason is no help.
                throw Failure(message: message.contains(video) || message.contains(output.path) ? message : "\(video): \(message)")
            }
        }

        /// `--json`'s progress: a line per thumbnail placed. A line that cannot be written is
        /// left out; the strip's own line then fails and ends the run.
        static func progressLines(of video: String) -> @Sendable (Int, Int) -> Void {
            { done, total in try? Console.jsonLine(["event": "progress", "video": .string(video), "done": .integer(done), "total": .integer(total)]) }
        }

        /// Writes the strip to `output` (and the manifest with it, both or neither), or with
        /// `-o -` streams it to standard output through the same writers, then writes the manifest.
        func write(_ result: StripResult, manifest: (path: String, data: Data)?, to output: StripOutput) throws {
            guard writesToStandardOutput else {
                try StripWriter.write(result.pixels, to: output, jpegQuality: quality.quality, manifest: manifest)
                return
            }
            do throws(OutputError) {
                try StripWriter.write(result.pixels, toDescriptor: STDOUT_FILENO, named: "standard output", format: output.format, jpegQuality: quality.quality)
            } catch {
                // A failed write is standard output's failure, worded and handled as any other (Console).
                if let code = error.systemCode { throw StandardOutputFailed(code: code) }
                throw error
            }
            if let manifest { try StripWriter.writeAtomically(manifest.data, to: manifest.path) }
        }

        /// What a made strip prints: `--verbose`'s phases on stderr, `--stats`'s JSON line, `--json`'s, or the summary line.
        func report(_ result: StripResult, of prepared: PreparedStrip, output: StripOutput, pipelinePeakBytes: Int, startupCPUSeconds: Double) throws {
            let probe = prepared.probe, pipeline = prepared.job.pipeline
            if verbose {
                let phases = String(format: "extract %.3f s, compose %.3f s", result.extractSeconds, result.composeSeconds)
                Console.err("\(FileSystemName.display(prepared.job.video)): \(probe.width)x\(probe.height), \(String(format: "%.3f", probe.durationSeconds)) s; \(pipeline.name); \(phases); \(result.counters.framesDecoded) frames decoded")
            }
            let substituted = result.thumbnails.filter(\.substituted).count
            if stats {
                let measurements: [String: Double] = [
                    "extract_s": result.extractSeconds, "compose_s": result.composeSeconds,
                    "frames_decoded": Double(result.counters.framesDecoded), "seeks": Double(result.counters.seeks),
                    "peak_rss_bytes": Double(pipelinePeakBytes), "peak_rss_written_bytes": Double(ResourceUsage.peakResidentBytes),
                ].merging(RunBound(counters: result.counters, startupCPUSeconds: startupCPUSeconds).measurements) { $1 }
                try Console.jsonLine(measurements.mapValues { .number($0) })
            } else if reporting.json {
                try Console.jsonLine(["event": "strip", "video": .string(prepared.job.video), "output": .string(output.path), "width": .integer(result.pixels.width),
                                      "height": .integer(result.pixels.height), "thumbnails": .integer(prepared.plan.count), "pipeline": .string(pipeline.name),
                                      "substituted": .integer(substituted)])
            } else if !reporting.quiet && !writesToStandardOutput {
                let note = substituted > 0 ? ", \(substituted) shown by a neighbouring frame (damaged data)" : ""
                try Console.out("\(FileSystemName.display(output.path)): \(result.pixels.width)x\(result.pixels.height), \(Words.count(prepared.plan.count, "thumbnail")) via \(pipeline.name)\(note)")
            }
        }
    }
}
