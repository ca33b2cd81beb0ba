import Foundation
import Synchronization

/// Settings of a `ThumbnailGenerator`, fixed when it is made.
public struct ThumbnailGeneratorOptions: Sendable {
    /// How requests are answered: coarse images first or not, and the order of the work.
    public var strategy: any InteractiveStrategy
    /// Decoders in the pool, shared by all requests (nil: one per core).
    public var decoders: Int?
    /// Pixel bytes of recent thumbnails kept for requests that ask for them again (0: no cache).
    public var cacheBytes: Int
    /// Decoder and scaling settings, as for `strip`; `workers` is not used (the pool's size is `decoders`).
    public var extraction: ExtractionOptions
    /// The largest picture, and the time the generator may spend on the file from its creation
    /// (nil by default: a slider lives as long as its editor).
    public var limits: InputLimits

    /// Options with the default strategy, a decoder per core, a 64 MiB cache, `strip`'s extraction defaults and no time limit.
    public init(strategy: any InteractiveStrategy = InteractiveStrategies.standard, decoders: Int? = nil,
                cacheBytes: Int = 64 << 20,
                extraction: ExtractionOptions = ExtractionOptions(skipNonReferenceFrames: Pipeline.defaultSkipsNonReferenceFrames),
                limits: InputLimits = InputLimits()) {
        self.strategy = strategy
        self.decoders = decoders
        self.cacheBytes = cacheBytes
        self.extraction = extraction
        self.limits = limits
    }
}

/// Thumbnails of one video on demand, for a trimming slider: requests at any times, answered
/// in the order images are ready, cancellable, the newest request first.
///
/// The video is opened and probed once. A fixed pool of decoders (one per core by default),
/// each on a thread of its own, serves every request and keeps its open input and codec from
/// one request to the next; decoding never occupies Swift's cooperative thread pool. A bounded
/// cache of recent thumbnails (by frame and size) answers repeated requests without decoding.
/// Memory is bounded by the pool and the cache, not by the number of requests.
///
/// ```swift
/// let generator = try ThumbnailGenerator(path: "clip.mp4")
/// let times = generator.evenlySpacedTimes(count: 20)
/// for try await thumbnail in generator.thumbnails(for: ThumbnailRequest(times: times, box: .fitting(width: 160, height: 90))) {
///     show(thumbnail.image, at: thumbnail.slot)
/// }
/// ```
///
/// Final images are byte-identical to `strip`'s thumbnails for the same times and size.
/// Call `close()` when done (or drop the generator) to end the pool's threads.
public final class ThumbnailGenerator: Sendable {
    /// The video's path.
    public let path: String
    /// The video's probe, made once when the generator was made.
    public let probe: VideoProbe
    /// The settings it was made with.
    public let options: ThumbnailGeneratorOptions
    /// `options.limits` with their clock started when the generator was made: every decoder shares that deadline.
    private let limits: InputLimits
    private let pool: DecoderPool
    private let cache: SharedThumbnailCache
    /// Requests not yet finished, so that superseding and `cancelAll` reach the ones whose
    /// work is all taken by decoders but not yet done.
    private let active = Mutex<[InteractiveRun]>([])

    /// Opens and probes the video at `path` and starts the decoder pool.
    /// - Throws: `MediaError` when the file is not a readable video.
    public init(path: String, options: ThumbnailGeneratorOptions = ThumbnailGeneratorOptions()) throws {
        limits = options.limits.started()
        probe = try VideoProbe(path: path, limits: limits)
        self.path = path
        self.options = options
        pool = try DecoderPool(size: options.decoders ?? ProcessInfo.processInfo.activeProcessorCount)
        cache = SharedThumbnailCache(byteBudget: max(0, options.cacheBytes))
    }

    deinit { pool.close() }

    /// Number of decoders in the pool.
    public var decoderCount: Int { pool.size }

    /// The work done so far and the pool's state.
    public var counters: GeneratorCounters { pool.counters }

    /// Thumbnails kept in the cache now.
    public var cachedThumbnails: Int { cache.count }

    /// `count` times spread evenly over `from..<to` (seconds from the video's start; nil: the
    /// start and the end), at the centres of equal intervals as `strip` spreads its slots.
    public func evenlySpacedTimes(count: Int, from: Rational? = nil, to: Rational? = nil) -> [Rational] {
        SamplePlan.evenlySpacedTimes(count: count, from: from ?? .zero, to: to ?? probe.duration.seconds)
    }

    /// Starts answering `request` and returns its images as they are ready (completion order).
    ///
    /// Cached thumbnails come first, at once. With `superseding`, every earlier request still
    /// running is cancelled first, as a slider drag replaces the last position's request.
    /// Cancelling the consuming task, `ThumbnailResults.cancel()` or a superseding request ends
    /// the sequence: decoders stop within one packet and go back to the pool, and no image of
    /// the request is delivered after that.
    /// - Throws: `PlanError` for no times, a time outside the video, or a size that is not positive.
    public func thumbnails(for request: ThumbnailRequest, superseding: Bool = false) throws(PlanError) -> ThumbnailResults {
        var view = probe
        if !request.appliesRotation { view.rotationDegrees = 0 }
        switch request.box {
        case .fitting(let width, let height) where width <= 0 || height <= 0: throw .sizeNotPositive(.width(min(width, height)))
        default: break
        }
        let size = request.box.thumbnailSize(forDisplayAspectRatio: view.displayAspectRatio)
        let plan = try SamplePlan(probe: view, times: request.times, accuracy: request.accuracy)
        let finalRequest = try ExtractionRequest(path: path, probe: view, plan: plan, size: size, options: options.extraction, limits: limits)
        let exactFrames = request.accuracy == .exact
            ? plan.targets.map(\.frameIndex) : try SamplePlan(probe: view, times: request.times).targets.map(\.frameIndex)
        let coarseRequest = options.strategy.showsKeyframesFirst && request.accuracy != .keyframe
            ? try ExtractionRequest(path: path, probe: view, plan: SamplePlan(probe: view, times: request.times, accuracy: .keyframe),
                                    size: size, options: options.extraction, limits: limits)
            : nil
        if superseding { cancelAll() }

        let (stream, continuation) = AsyncThrowingStream.makeStream(of: GeneratedThumbnail.self)
        let run = InteractiveRun(finalRequest: finalRequest, coarseRequest: coarseRequest, exactFrameIndex: exactFrames, cache: cache,
                                 continuation: continuation)
        continuation.onTermination = { [pool, weak self] _ in
            if run.cancel() { pool.recordCancelled(1) }
            self?.active.withLock { $0.removeAll { $0 === run } }
        }
        let items = workItems(for: run)
        active.withLock { runs in
            runs.removeAll { $0.stop.isRaised }
            runs.append(run)
        }
        run.expect(items: items.count)
        pool.submit(run, items: items)
        return ThumbnailResults(stream: stream, run: run)
    }

    /// Cancels every request still running (`AVAssetImageGenerator.cancelAllCGImageGeneration()`).
    public func cancelAll() {
        let runs = active.withLock { runs in
            defer { runs.removeAll() }
            return runs
        }
        pool.recordCancelled(runs.reduce(0) { $0 + ($1.cancel() ? 1 : 0) })
        pool.cancelAll()
    }

    /// Ends the pool's threads once their current packet is done; running requests end cancelled.
    public func close() {
        cancelAll()
        pool.close()
    }

    /// Delivers what the cache holds and returns the frames left to decode, in the strategy's order.
    private func workItems(for run: InteractiveRun) -> [InteractiveRun.WorkItem] {
        var hits = 0
        func cached(_ entry: (target: SamplePlan.Target, slots: [Int]), phase: InteractiveRun.Phase) -> Bool {
            guard let hit = cache.image(for: run.cacheKey(frameIndex: entry.target.frameIndex)) else { return false }
            let timeBase = run.finalRequest.probe.timeBase
            for slot in entry.slots {
                let requested = run.request(for: phase).plan.targets[slot].requestedTime
                run.deliver(Thumbnail(slot: slot, requestedTime: requested, actualTime: Timestamp(pts: hit.actualPts, timeBase: timeBase),
                                      frameIndex: entry.target.frameIndex, substituted: false, image: hit.image),
                            phase: phase, fromCache: true)
            }
            hits += 1
            return true
        }
        let finalPending = run.finalFrames.enumerated().filter { !cached($0.element, phase: .final) }
        let finalSlotsLeft = Set(finalPending.flatMap(\.element.slots))
        let coarseFrameIndex = run.coarseRequest?.plan.targets.map(\.frameIndex)
        let coarsePending = run.coarseFrames.enumerated().filter { position, entry in
            entry.slots.contains(where: finalSlotsLeft.contains) && !cached(entry, phase: .coarse)
        }
        pool.recordCacheHits(hits)
        // A final frame every one of whose slots gets it as its coarse image needs no second decode.
        let finalWork = finalPending.filter { _, entry in
            guard let coarseFrameIndex else { return true }
            return !entry.slots.allSatisfy { coarseFrameIndex[$0] == entry.target.frameIndex }
        }
        func ordered(_ pending: [(offset: Int, element: (target: SamplePlan.Target, slots: [Int]))],
                     phase: InteractiveRun.Phase) -> [InteractiveRun.WorkItem] {
            let frameTimes = run.request(for: phase).probe.frameTimes
            let frames = pending.map { position, entry in
                PendingFrame(position: position, slots: entry.slots, frameIndex: entry.target.frameIndex,
                             framesFromKeyframe: entry.target.frameIndex + 1 - (FrameTable.lastIndex(in: frameTimes, atOrBefore: entry.target.keyframePts) ?? 0))
            }
            return options.strategy.order(frames).map { InteractiveRun.WorkItem(phase: phase, position: $0.position) }
        }
        return ordered(coarsePending, phase: .coarse) + ordered(finalWork, phase: .final)
    }
}

/// The images of one request, in the order they are ready: an `AsyncSequence` that ends when
/// every slot has its final image, or at once when the request is cancelled or superseded.
public struct ThumbnailResults: AsyncSequence, Sendable {
    /// One image: a slot's coarse image or its final one.
    public typealias Element = GeneratedThumbnail
    /// A file that stops decoding part way ends the sequence with its `MediaError`.
    public typealias Failure = any Error

    let stream: AsyncThrowingStream<GeneratedThumbnail, any Error>
    let run: InteractiveRun

    /// Stops the request: its decoders stop within one packet and go back to the pool, and the
    /// sequence ends without another image, even one already made.
    public func cancel() { run.cancel() }

    /// True once the request was cancelled or superseded.
    public var isCancelled: Bool { run.isCancelled }

    /// The request's work and results so far.
    public var counters: RequestCounters { run.counters }

    /// An iterator over the images.
    public func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator(), run: run) }

    /// Iterates the images; after a cancellation it returns nil even for images made before it.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<GeneratedThumbnail, any Error>.AsyncIterator
        let run: InteractiveRun

        /// The next image, or nil at the end or after a cancellation.
        public mutating func next() async throws -> GeneratedThumbnail? {
            guard let thumbnail = try await base.next(), !run.isCancelled else { return nil }
            return thumbnail
        }
    }
}
