import Synchronization

/// Counts of one request's work and results.
public struct RequestCounters: Sendable, Hashable {
    /// Frames its decoders returned (targets and the frames decoded on the way to them).
    public var framesDecoded = 0
    /// Packets read from the container for it.
    public var packetsRead = 0
    /// Frames decoded whose image was never delivered because the request was cancelled or superseded.
    public var wastedFrames = 0
    /// Decodes a cancellation stopped part way (within one packet of it).
    public var interruptedDecodes = 0
    /// Images delivered, coarse and final.
    public var delivered = 0
    /// Images delivered from the cache.
    public var cacheHits = 0

    /// All counts zero.
    public init() {}
}

/// The thumbnails of a generator's cache, shared by its requests.
final class SharedThumbnailCache: Sendable {
    private let cache: Mutex<ThumbnailCache>

    init(byteBudget: Int) { cache = Mutex(ThumbnailCache(byteBudget: byteBudget)) }

    func image(for key: ThumbnailCache.Key) -> (image: Image, actualPts: Int64)? {
        cache.withLock { $0.byteBudget == 0 ? nil : $0.image(for: key) }
    }

    func store(_ image: Image, actualPts: Int64, for key: ThumbnailCache.Key) {
        cache.withLock { $0.store(image, actualPts: actualPts, for: key) }
    }

    var count: Int { cache.withLock { $0.count } }
}

/// One request being answered: its plans, the slots already final, and the stream its images
/// go to. Every image passes `deliver`, which drops it once the run is cancelled, so no image
/// reaches the consumer after `cancel` returns.
final class InteractiveRun: Sendable {
    enum Phase: Sendable { case coarse, final }

    /// One distinct frame of one phase's plan: what a decoder takes from the pool's queue.
    struct WorkItem: Sendable {
        var phase: Phase
        var position: Int
    }

    typealias Frames = [(target: SamplePlan.Target, slots: [Int])]

    let stop = StopSignal()
    let finalRequest: ExtractionRequest
    let coarseRequest: ExtractionRequest?
    let finalFrames: Frames
    let coarseFrames: Frames
    /// The presentation times of each phase's frames: a decoder working on one of them decodes
    /// the others it passes rather than skip them, since the request still wants them.
    let finalTimes: Set<Int64>
    let coarseTimes: Set<Int64>
    /// Per slot: the frame displayed at its time, the frame the accuracy chose, and the nearest keyframe's.
    let exactFrameIndex: [Int]
    let finalFrameIndex: [Int]
    private let cache: SharedThumbnailCache
    private let state: Mutex<State>

    private struct State {
        var continuation: AsyncThrowingStream<GeneratedThumbnail, any Error>.Continuation?
        var finalSlots: [Bool]
        var remaining = 0
        var cancelled = false
        var failed = false
        var counters = RequestCounters()
    }

    init(finalRequest: ExtractionRequest, coarseRequest: ExtractionRequest?, exactFrameIndex: [Int], cache: SharedThumbnailCache,
         continuation: AsyncThrowingStream<GeneratedThumbnail, any Error>.Continuation) {
        self.finalRequest = finalRequest
        self.coarseRequest = coarseRequest
        finalFrames = finalRequest.plan.distinctFrames
        coarseFrames = coarseRequest?.plan.distinctFrames ?? []
        finalTimes = Set(finalFrames.map(\.target.framePts))
        coarseTimes = Set(coarseFrames.map(\.target.framePts))
        self.exactFrameIndex = exactFrameIndex
        finalFrameIndex = finalRequest.plan.targets.map(\.frameIndex)
        self.cache = cache
        state = Mutex(State(continuation: continuation, finalSlots: Array(repeating: false, count: finalRequest.plan.count)))
    }

    func request(for phase: Phase) -> ExtractionRequest {
        phase == .coarse ? coarseRequest ?? finalRequest : finalRequest
    }

    func frames(for phase: Phase) -> Frames { phase == .coarse ? coarseFrames : finalFrames }

    func wantedTimes(for phase: Phase) -> Set<Int64> { phase == .coarse ? coarseTimes : finalTimes }

    func cacheKey(frameIndex: Int) -> ThumbnailCache.Key {
        let (width, height) = finalRequest.thumbnailPixels
        return ThumbnailCache.Key(frameIndex: frameIndex, size: PixelSize(width: width, height: height),
                                  rotated: finalRequest.probe.rotationDegrees != 0)
    }

    /// Sets how many work items must finish before the stream ends; ends it now when none.
    func expect(items: Int) {
        let finished = state.withLock { state -> AsyncThrowingStream<GeneratedThumbnail, any Error>.Continuation? in
            state.remaining = items
            guard items == 0 else { return nil }
            defer { state.continuation = nil }
            return state.continuation
        }
        finished?.finish()
    }

    /// True once cancelled or superseded (not when it failed: its error is still to be thrown).
    var isCancelled: Bool { state.withLock { $0.cancelled && !$0.failed } }
    var counters: RequestCounters { state.withLock { $0.counters } }

    /// Passes a decoded thumbnail on (caching it), unless the run was cancelled or its slot already has its final image.
    func deliver(_ thumbnail: Thumbnail, phase: Phase, fromCache: Bool = false) {
        guard let image = thumbnail.image else { return }
        if !fromCache && !thumbnail.substituted { cache.store(image, actualPts: thumbnail.actualTime.pts, for: cacheKey(frameIndex: thumbnail.frameIndex)) }
        let slot = thumbnail.slot
        let generated = GeneratedThumbnail(
            slot: slot, requestedTime: thumbnail.requestedTime, actualTime: thumbnail.actualTime, frameIndex: thumbnail.frameIndex,
            isExact: !thumbnail.substituted && thumbnail.frameIndex == exactFrameIndex[slot],
            isFinal: phase == .final || thumbnail.frameIndex == finalFrameIndex[slot], fromCache: fromCache, image: image)
        state.withLock { state in
            guard !state.cancelled, let continuation = state.continuation, !state.finalSlots[slot] else { return }
            if generated.isFinal { state.finalSlots[slot] = true }
            state.counters.delivered += 1
            if fromCache { state.counters.cacheHits += 1 }
            continuation.yield(generated)
        }
    }

    /// Records one work item's decoding; ends the stream after the last.
    func finishItem(framesDecoded: Int, packetsRead: Int, interrupted: Bool) -> (wasted: Int, interrupted: Bool) {
        let (finished, wasted) = state.withLock { state -> (AsyncThrowingStream<GeneratedThumbnail, any Error>.Continuation?, Int) in
            state.counters.framesDecoded += framesDecoded
            state.counters.packetsRead += packetsRead
            let wasted = interrupted || state.cancelled ? framesDecoded : 0
            state.counters.wastedFrames += wasted
            if interrupted { state.counters.interruptedDecodes += 1 }
            state.remaining -= 1
            guard state.remaining == 0, !state.cancelled else { return (nil, wasted) }
            defer { state.continuation = nil }
            return (state.continuation, wasted)
        }
        // Finished outside the lock: finishing runs the stream's termination handler, which cancels (and locks).
        finished?.finish()
        return (wasted, interrupted)
    }

    /// Stops the run: decoders working for it stop within one packet, nothing more is
    /// delivered. Returns true when it was still running.
    @discardableResult
    func cancel() -> Bool {
        // A run that already finished stays finished: its buffered images are still to be read.
        let continuation = state.withLock { state -> AsyncThrowingStream<GeneratedThumbnail, any Error>.Continuation? in
            guard !state.cancelled, let continuation = state.continuation else { return nil }
            state.cancelled = true
            state.continuation = nil
            return continuation
        }
        guard let continuation else { return false }
        stop.raise()
        continuation.finish()
        return true
    }

    /// Ends the run with `error` (a file that stopped decoding, say); the rest of its work is dropped.
    func fail(_ error: any Error) {
        stop.raise()
        let continuation = state.withLock { state -> AsyncThrowingStream<GeneratedThumbnail, any Error>.Continuation? in
            state.cancelled = true
            state.failed = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.finish(throwing: error)
    }
}
