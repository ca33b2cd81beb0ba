import Synchronization

/// Counts of decoding work, summed over workers; the benchmark reports them.
public struct DecodeCounters: Sendable, Hashable {
    /// Frames the decoders returned, targets and frames decoded on the way to them alike.
    public var framesDecoded = 0
    /// Packets read from the container, whether or not they were sent to a decoder.
    public var packetsRead = 0
    /// Bytes of those packets: the video's compressed data the work read. Unlike the bytes the
    /// I/O layer read from the file, it does not depend on what a worker's read buffer held
    /// from its previous GOP, so the same work counts the same bytes in every run.
    public var packetBytes = 0
    /// Seeks made in the container (each one flushes a decoder).
    public var seeks = 0
    /// Frames the decoder flagged as corrupt or failed to decode, which were skipped.
    public var damagedFrames = 0
    /// Parallel workers that decoded (0 from extractors that do not count them).
    public var workers = 0
    /// CPU seconds of the busiest worker's own thread (0 when not counted): the walk cannot end
    /// before that worker's share is done.
    public var longestWorkerSeconds = 0.0

    /// All counts zero.
    public init() {}

    static func + (lhs: DecodeCounters, rhs: DecodeCounters) -> DecodeCounters {
        var sum = lhs
        sum.framesDecoded += rhs.framesDecoded
        sum.packetsRead += rhs.packetsRead
        sum.packetBytes += rhs.packetBytes
        sum.seeks += rhs.seeks
        sum.damagedFrames += rhs.damagedFrames
        sum.workers += rhs.workers
        sum.longestWorkerSeconds = max(lhs.longestWorkerSeconds, rhs.longestWorkerSeconds)
        return sum
    }
}

/// Collects thumbnails from one or many workers and passes them on in plan order.
///
/// Workers may finish slots out of order; slots wait here until every earlier slot has
/// arrived, then go to `onThumbnail` in order. `onProgress` sees (done, total) as slots arrive.
///
/// The consumer is never called under the lock: one caller at a time becomes the emitter and
/// hands out the ready slots with the lock released, taking any that other workers (or the
/// consumer itself, re-entrantly) made ready meanwhile before it lets go. The other workers
/// only queue their slots and go back to decoding, so a slow consumer stalls no worker and a
/// re-entrant one cannot deadlock.
public final class ThumbnailDelivery: Sendable {
    /// Both buffers are allocated once, at their full size, when the delivery is made, so the
    /// order in which workers finish changes no allocation count: a dictionary of waiting slots
    /// grew with how many waited, and each hand-out made a batch array, both set by the race,
    /// under the benchmark's heap-allocation counter.
    private struct State {
        /// Slot `i`'s thumbnail from its arrival until it is released, by slot.
        var waiting: [Thumbnail?]
        var nextSlot = 0
        var delivered = 0
        /// What is released, in order: slots, and after each arrival its progress. At most two
        /// per slot ever, so appending never grows it; `head` is the next one to hand out.
        var ready: [Emission?]
        var head = 0
        /// Someone is handing out `ready`; the others only add to it.
        var emitting = false
    }

    private enum Emission {
        case thumbnail(Thumbnail)
        case progress(done: Int)
    }

    private let state: Mutex<State>
    /// Thumbnails the plan asks for; the delivery is complete when this many have been passed on.
    public let total: Int
    private let onThumbnail: @Sendable (Thumbnail) -> Void
    private let onProgress: (@Sendable (Int, Int) -> Void)?

    /// A delivery for `total` slots that calls `onThumbnail` in slot order and `onProgress` with (done, total) as each
    /// arrives.
    public init(total: Int, onProgress: (@Sendable (Int, Int) -> Void)? = nil,
                onThumbnail: @escaping @Sendable (Thumbnail) -> Void) {
        self.total = total
        self.onThumbnail = onThumbnail
        self.onProgress = onProgress
        var ready: [Emission?] = []
        ready.reserveCapacity(2 * max(0, total))
        state = Mutex(State(waiting: Array(repeating: nil, count: max(0, total)), ready: ready))
    }

    /// Accepts one thumbnail; releases it and any that were waiting on it, in plan order.
    /// A slot outside the plan is never released, as no later slot can wait on it.
    public func deliver(_ thumbnail: Thumbnail) {
        let emitter = state.withLock { state -> Bool in
            guard state.waiting.indices.contains(thumbnail.slot) else { return false }
            state.waiting[thumbnail.slot] = thumbnail
            state.delivered += 1
            while state.nextSlot < state.waiting.count, let next = state.waiting[state.nextSlot] {
                state.waiting[state.nextSlot] = nil
                state.ready.append(.thumbnail(next))
                state.nextSlot += 1
            }
            state.ready.append(.progress(done: state.delivered))
            guard !state.emitting else { return false }
            state.emitting = true
            return true
        }
        guard emitter else { return }
        // One item per turn of the lock: the consumer runs unlocked and may deliver re-entrantly.
        while let item = state.withLock({ state -> Emission? in
            guard state.head < state.ready.count else {
                state.emitting = false
                return nil
            }
            defer {
                state.ready[state.head] = nil
                state.head += 1
            }
            return state.ready[state.head]
        }) {
            switch item {
            case .thumbnail(let ready): onThumbnail(ready)
            case .progress(let done): onProgress?(done, total)
            }
        }
    }

    /// Whether every slot, 0..<`total`, has been passed to `onThumbnail`.
    public var isComplete: Bool { state.withLock { $0.nextSlot == total } }
}

extension ThumbnailExtractor {
    /// Runs the extractor and returns every thumbnail in plan order.
    public func thumbnails(for request: ExtractionRequest,
                           onProgress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> (thumbnails: [Thumbnail], counters: DecodeCounters) {
        let collected = Mutex<[Thumbnail]>([])
        let delivery = ThumbnailDelivery(total: request.plan.count, onProgress: onProgress) { thumbnail in
            collected.withLock { $0.append(thumbnail) }
        }
        let counters = try await extract(request, into: delivery)
        return (collected.withLock { $0 }, counters)
    }

    /// The thumbnails as an asynchronous sequence, in plan order, as they are produced.
    /// Cancelling the consuming task (or dropping the stream) cancels the extraction.
    public func stream(for request: ExtractionRequest) -> AsyncThrowingStream<Thumbnail, any Error> {
        AsyncThrowingStream { continuation in
            let delivery = ThumbnailDelivery(total: request.plan.count) { continuation.yield($0) }
            let work = Task {
                do {
                    _ = try await extract(request, into: delivery)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}
