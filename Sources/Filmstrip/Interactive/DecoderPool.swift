import Dispatch
import Foundation
import Synchronization

/// Counts of a generator's work over all its requests, and the state of its decoder pool.
public struct GeneratorCounters: Sendable, Hashable {
    /// Frames the pool's decoders returned.
    public var framesDecoded = 0
    /// Packets read from the container.
    public var packetsRead = 0
    /// Frames decoded whose image was never delivered because their request was cancelled or superseded.
    public var wastedFrames = 0
    /// Decodes a cancellation stopped part way (within one packet of it).
    public var interruptedDecodes = 0
    /// Requests cancelled or superseded while they still had work.
    public var cancelledRequests = 0
    /// Images served from the cache.
    public var cacheHits = 0
    /// Decoder threads of the pool (its size while it is open, 0 once closed and they have ended).
    public var decoderThreads = 0
    /// Decoders working on a request now; the others wait in the pool.
    public var busyDecoders = 0
    /// Decoders holding an open input and codec (kept between requests).
    public var openDecoders = 0

    /// All counts zero.
    public init() {}
}

/// A fixed set of decoding threads shared by every request of one generator, each keeping its
/// own input, decoder and scaler (FFmpeg contexts are not thread-safe) from request to request.
///
/// The threads are the pool's own, not Swift's cooperative pool: a decode blocks its thread
/// for milliseconds at a time, and on the cooperative pool that would hold back every other
/// task of the process (an app's UI updates, cancellation handlers) until it ended. Results go
/// back to async code through each request's stream.
///
/// Work is taken one distinct frame at a time from the newest request first, in the order its
/// strategy chose, so a superseding request is served before the one it replaced finishes
/// stopping, and a cancelled request's remaining frames are dropped without being decoded.
final class DecoderPool: Sendable {
    private struct Queued {
        var run: InteractiveRun
        var items: [InteractiveRun.WorkItem]
        var next = 0
    }

    private struct State {
        /// Newest first.
        var queue: [Queued] = []
        var closed = false
        var threadsStarted = 0
        var counters = GeneratorCounters()
    }

    private struct Job {
        var run: InteractiveRun
        var item: InteractiveRun.WorkItem
    }

    private let state = Mutex(State())
    /// Counts wake-ups for idle threads; a thread that wakes to an empty queue waits again.
    private let wakeUps = DispatchSemaphore(value: 0)

    /// Starts `requested` decoder threads (at least one).
    /// - Throws: `SystemError` (out of memory for a thread's stack) when not even one thread
    ///   starts. A pool that got some of its threads works with those: fewer decoders at once,
    ///   the same thumbnails.
    init(size requested: Int) throws(SystemError) {
        for index in 0..<max(1, requested) {
            do {
                // FFmpeg's decoders use more stack than a secondary thread's default.
                try JoinableThread.startDetached(stackSize: 8 << 20) { [self] in workerLoop() }
            } catch {
                if index == 0 { throw error }
                break
            }
            state.withLock {
                $0.threadsStarted += 1
                $0.counters.decoderThreads += 1
            }
        }
    }

    /// Decoder threads the pool started.
    var size: Int { state.withLock { $0.threadsStarted } }

    var counters: GeneratorCounters { state.withLock { $0.counters } }

    /// Queues `items` of `run` ahead of older requests' work.
    func submit(_ run: InteractiveRun, items: [InteractiveRun.WorkItem]) {
        guard !items.isEmpty else { return }
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.queue.removeAll { $0.run.stop.isRaised }
            state.queue.insert(Queued(run: run, items: items), at: 0)
            return true
        }
        guard accepted else {
            run.fail(CancellationError())
            return
        }
        for _ in 0..<min(items.count, size) { wakeUps.signal() }
    }

    /// Cancels every request still running; returns how many were.
    @discardableResult
    func cancelAll() -> Int {
        let runs = state.withLock { state -> [InteractiveRun] in
            defer { state.queue.removeAll() }
            return state.queue.map(\.run)
        }
        // Runs whose every item is taken are no longer queued but may still be decoding: their
        // stop signals are raised by the generator, which keeps every active run.
        return runs.reduce(0) { $0 + ($1.cancel() ? 1 : 0) }
    }

    func recordCancelled(_ count: Int) { state.withLock { $0.counters.cancelledRequests += count } }
    func recordCacheHits(_ count: Int) { state.withLock { $0.counters.cacheHits += count } }

    /// Stops the threads once they finish what they are doing; requests still queued end cancelled.
    func close() {
        let runs = state.withLock { state -> [InteractiveRun] in
            state.closed = true
            defer { state.queue.removeAll() }
            return state.queue.map(\.run)
        }
        for run in runs { run.cancel() }
        for _ in 0..<size { wakeUps.signal() }
    }

    /// The next frame to decode, or nil when the pool is closed; waits while there is none.
    private func take() -> Job? {
        while true {
            let job = state.withLock { state -> Job?? in
                if state.closed { return .some(nil) }
                state.queue.removeAll { $0.run.stop.isRaised }
                guard let index = state.queue.firstIndex(where: { $0.next < $0.items.count }) else { return nil }
                let item = state.queue[index].items[state.queue[index].next]
                state.queue[index].next += 1
                let run = state.queue[index].run
                if state.queue[index].next == state.queue[index].items.count { state.queue.remove(at: index) }
                state.counters.busyDecoders += 1
                return .some(Job(run: run, item: item))
            }
            if let job { return job }
            wakeUps.wait()
        }
    }

    private func workerLoop() {
        defer { state.withLock { $0.counters.decoderThreads -= 1 } }
        while var job = take() {
            do {
                var engine = try TargetDecoder(request: job.run.request(for: job.item.phase))
                state.withLock { $0.counters.openDecoders += 1 }
                defer { state.withLock { $0.counters.openDecoders -= 1 } }
                while true {
                    try perform(job, with: &engine)
                    guard let next = take() else { return }
                    job = next
                }
            } catch {
                // The file stopped decoding: this request ends with the error, and the next
                // job opens a fresh decoder rather than trust this one's state.
                job.run.fail(error)
                _ = job.run.finishItem(framesDecoded: 0, packetsRead: 0, interrupted: false)
                state.withLock { $0.counters.busyDecoders -= 1 }
            }
        }
    }

    /// Decodes one work item; a cancellation of its run ends it within one packet.
    private func perform(_ job: Job, with engine: inout TargetDecoder) throws {
        let run = job.run
        let before = engine.workDone
        var interrupted = false
        if !run.stop.isRaised {
            engine.stopSignal = run.stop
            engine.retarget(run.request(for: job.item.phase))
            do {
                try engine.run(run.frames(for: job.item.phase)[job.item.position...job.item.position], policy: .whenKeyframeAhead,
                               alsoWanted: run.wantedTimes(for: job.item.phase)) {
                    run.deliver($0, phase: job.item.phase)
                }
            } catch is CancellationError {
                interrupted = true
            }
        }
        let after = engine.workDone
        let frames = after.framesDecoded - before.framesDecoded, packets = after.packetsRead - before.packetsRead
        let (wasted, _) = run.finishItem(framesDecoded: frames, packetsRead: packets, interrupted: interrupted)
        state.withLock { state in
            state.counters.framesDecoded += frames
            state.counters.packetsRead += packets
            state.counters.wastedFrames += wasted
            if interrupted { state.counters.interruptedDecodes += 1 }
            state.counters.busyDecoders -= 1
        }
    }
}
