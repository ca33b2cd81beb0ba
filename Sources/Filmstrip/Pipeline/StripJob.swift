import Foundation

/// How many thumbnails a strip has: a count, or one per interval of the range.
public enum StripSpacing: Sendable, Hashable {
    /// This many thumbnails.
    case count(Int)
    /// One thumbnail per this many seconds of the range, rounded up (at least one).
    case interval(seconds: Double)
}

/// One strip of one video, from the request to the pixels: probe → plan → limits → run, and
/// the file written from them. The command line's `strip`, the one-call `makeStrip` and
/// `writeStrip`, and the benchmark's child all make their strips through it, so the chain is
/// written once.
public struct StripJob: Sendable {
    /// The video file.
    public var video: String
    /// How many thumbnails.
    public var spacing: StripSpacing = .count(10)
    /// Start of the range (seconds from the video's start, a share of its duration, or seconds
    /// before its end, resolved against the probed duration); nil: the start.
    public var from: TimePoint?
    /// End of the range, as `from`; nil: the end.
    public var to: TimePoint?
    /// Which frame may stand for each slot's time.
    public var accuracy: Accuracy = .exact
    /// One thumbnail's height or width in pixels (the other side follows the display aspect ratio).
    public var size: ThumbnailSize = .height(64)
    /// A box each thumbnail must fit in, aspect ratio kept (`--max-size WxH`): instead of
    /// `size`, the box's width for a video wider than the box, else its height.
    public var maximumSize: PixelSize?
    /// Decoder and worker settings.
    public var options = ExtractionOptions(skipNonReferenceFrames: Pipeline.defaultSkipsNonReferenceFrames)
    /// The extractor and the destination.
    public var pipeline: Pipeline = .default
    /// Columns, gap, background and dimming of the strip.
    public var stripOptions = StripOptions()
    /// The memory the request may be estimated to need, in bytes; nil: no limit (the benchmark,
    /// which measures what a run takes).
    public var memoryLimitBytes: Int? = ResourceLimits.defaultMemoryBytes
    /// The largest picture and the time the probe and the decoding may take together (started
    /// by `prepare`; default: no time limit).
    public var limits = InputLimits()
    /// The file the strip will be written to and its format, when it is: a JPEG bounds the
    /// strip's sides and needs an RGBA copy to encode from.
    public var output: StripOutput?

    /// A job with `filmstrip strip`'s defaults for everything but the video.
    public init(video: String) {
        self.video = video
    }

    /// Probes the video, plans the thumbnails and checks the limits, before anything is decoded.
    /// - Throws: `MediaError` or `FFmpegError` for a file that is not a readable video,
    ///   `PlanError` for a count, range or tolerance that cannot be planned, ``StripJobError`` for
    ///   an interval that gives too many thumbnails, `LayoutError` for a strip too large,
    ///   `OutputError` for a strip too large for JPEG, `MemoryLimitExceeded` over the memory limit.
    /// - Parameter probe: the video's probe when the caller has already made it (to warn about
    ///   the file first), with `limits` started before it so that one deadline covers both.
    public func prepare(probe: VideoProbe? = nil) throws -> PreparedStrip {
        let limits = limits.started()
        let probe = try probe ?? VideoProbe(path: video, limits: limits)
        let duration = probe.duration.seconds
        let plan = try SamplePlan(probe: probe, count: try thumbnailCount(probe: probe), from: from?.resolved(duration: duration),
                                  to: to?.resolved(duration: duration), accuracy: accuracy)
        let size = maximumSize.map { ThumbnailSize.fitting(in: $0, displayAspectRatio: probe.displayAspectRatio) } ?? self.size
        let request = try ExtractionRequest(path: video, probe: probe, plan: plan, size: size, options: options, limits: limits)
        let layout = try Pipeline.layout(for: request, options: stripOptions)
        let jpeg = output?.format == .jpeg
        // Measured here, so that a missing font fails before any decoding.
        let annotation = stripOptions.annotation, sheet = try annotation.frame(stripWidth: layout.width, probe: probe).sheetSize(width: layout.width, height: layout.height)
        if jpeg, let output { try StripWriter.checkJPEGSize(width: sheet.width, height: sheet.height, file: output.path) }
        if let memoryLimitBytes {
            // Text is drawn on an RGBA copy of the strip framed by its margin and header.
            let annotated = annotation.isEmpty ? 0 : Image.alignedRowBytes(forWidth: sheet.width).multipliedClamped(by: sheet.height)
            try MemoryEstimate(request: request, layout: layout, fused: pipeline.destination.isCanvas,
                               writingBytes: { strip in (jpeg ? strip.multipliedClamped(by: 2) : 0).addingClamped(annotated.multipliedClamped(by: jpeg ? 2 : 1)) })
                .check(limitBytes: memoryLimitBytes)
        }
        pipeline.destination.prepare()
        return PreparedStrip(job: self, probe: probe, plan: plan, request: request, layout: layout)
    }

    /// The count, or one thumbnail per interval of the range (at least one, at most
    /// `ResourceLimits.maximumThumbnailCount`: the range is the file's claim, and a quotient past
    /// `Int.max` would trap in the conversion).
    func thumbnailCount(probe: VideoProbe) throws(StripJobError) -> Int {
        let interval: Double
        switch spacing {
        case .count(let count): return count
        case .interval(let seconds): interval = seconds
        }
        let duration = probe.duration.seconds
        let range = (to?.resolved(duration: duration) ?? duration) - (from?.resolved(duration: duration) ?? .zero)
        let cues = (range.doubleValue / interval).rounded(.up), limit = ResourceLimits.maximumThumbnailCount
        guard cues <= Double(limit) else {
            throw .tooManyThumbnails(file: probe.path, interval: interval, count: cues, rangeSeconds: range.doubleValue, limit: limit)
        }
        return max(1, Int(cues))
    }
}

/// A strip job probed, planned and checked: ready to run.
public struct PreparedStrip: Sendable {
    /// The job.
    public let job: StripJob
    /// The video's streams, timing and keyframes.
    public let probe: VideoProbe
    /// The frame each slot shows.
    public let plan: SamplePlan
    /// What the extractor is asked for.
    public let request: ExtractionRequest
    /// Where each thumbnail goes in the strip.
    public let layout: StripLayout

    /// Extracts and composes (`Pipeline.run`); `mark` is called at the start, between the phases
    /// and at the end, for a caller that times them.
    public func run(onProgress: (@Sendable (Int, Int) -> Void)? = nil, mark: (Pipeline.Mark) -> Void = { _ in }) async throws -> StripResult {
        try await job.pipeline.run(request, layout: layout, options: job.stripOptions, onProgress: onProgress, mark: mark)
    }

    /// The manifest of `result`: per thumbnail the time asked for, the frame shown and its rectangle.
    public func manifest(of result: StripResult) -> StripManifest {
        StripManifest(result: result, request: request, pipeline: job.pipeline, stripOptions: job.stripOptions)
    }
}

/// Why a strip job cannot be planned, besides the plan's own errors.
public enum StripJobError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The interval over the range gives more thumbnails than a strip may have.
    case tooManyThumbnails(file: String, interval: Double, count: Double, rangeSeconds: Double, limit: Int)

    /// One line naming the file.
    public var description: String {
        switch self {
        case let .tooManyThumbnails(file, interval, count, range, limit):
            "\(file): an interval of \(interval) s gives \(count) thumbnails over \(range) s, more than \(limit); give a longer interval"
        }
    }
}
