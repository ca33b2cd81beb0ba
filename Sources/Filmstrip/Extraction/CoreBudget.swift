import Synchronization

/// The cores a batch of videos made at the same time shares (`filmstrip sprite` on a library).
///
/// Several videos at once, one worker each, scale with the cores at no extra CPU: they share
/// nothing. Splitting one video's GOP runs between workers costs more (each worker opens its
/// own decoder and starts each part at a keyframe), so it only pays when there is no other
/// video left to start: at the end of a batch, when a long video would otherwise finish alone
/// on one core while the others stand idle. So the batch claims a core for each video it
/// starts, and a `TaskGroupExtractor` made with a budget keeps standby workers that take an
/// idle core, and start decoding its remaining GOP runs, only while no video waits to start.
/// A core a worker gives back goes to a waiting standby worker first, or else stays idle for
/// the next video.
public final class CoreBudget: Sendable {
    /// The cores shared out (the machine's, unless told otherwise).
    public let cores: Int

    private struct Waiter {
        var extraction: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var idle: Int
        var videosWaiting = 0
        var waiters: [Waiter] = []
        /// Extractions whose standby workers may still be given a core (numbers are never reused).
        var open: Set<Int> = []
        var lastExtraction = 0
    }

    private let state: Mutex<State>

    /// A budget of `cores` idle cores (at least one).
    public init(cores: Int) {
        self.cores = max(1, cores)
        state = Mutex(State(idle: max(1, cores)))
    }

    /// Videos a batch of `videos` makes at a time: `requested`, or one per core (at most the videos).
    /// Videos share nothing, so side by side they scale with the cores at no extra CPU, while
    /// splitting one video's GOP runs between workers costs more; the tail is this budget's job.
    public func videosAtATime(requested: Int?, videos: Int) -> Int { requested ?? max(1, min(cores, videos)) }

    /// Workers each video of the batch starts with: `requested`, or its share of the cores.
    public func workersPerVideo(requested: Int?, videosAtATime: Int) -> Int { requested ?? max(1, cores / max(1, videosAtATime)) }

    /// Cores not held by any video's workers.
    public var idleCores: Int { state.withLock { $0.idle } }

    /// Claims `cores` for a video about to start, and records how many videos are still to
    /// start after it (while any are, no standby worker takes a core).
    public func startVideo(claiming cores: Int, videosStillWaiting: Int) {
        state.withLock {
            $0.idle -= cores
            $0.videosWaiting = max(0, videosStillWaiting)
        }
    }

    /// Gives back the cores a finished video claimed, with how many videos are still to start.
    public func finishVideo(releasing cores: Int, videosStillWaiting: Int) {
        let granted = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.videosWaiting = max(0, videosStillWaiting)
            state.idle += cores
            return Self.grantIdleCores(&state)
        }
        granted.forEach { $0.resume(returning: true) }
    }

    /// A number for one extraction's standby workers, open until `close` is called with it.
    func openExtraction() -> Int {
        state.withLock { state in
            state.lastExtraction += 1
            state.open.insert(state.lastExtraction)
            return state.lastExtraction
        }
    }

    /// Waits until a core is idle and no video waits to start, then takes it (true), or until
    /// `extraction` is closed (false: its work ran out). A true answer must be followed by
    /// `release()`.
    func takeIdleCore(for extraction: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                if !state.open.contains(extraction) { return false }
                if state.idle > 0 && state.videosWaiting == 0 {
                    state.idle -= 1
                    return true
                }
                state.waiters.append(Waiter(extraction: extraction, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Gives back a core taken by `takeIdleCore`: to a waiting standby worker when no video
    /// waits to start, otherwise it stays idle for the next video.
    func release() {
        let granted = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.idle += 1
            return Self.grantIdleCores(&state)
        }
        granted.forEach { $0.resume(returning: true) }
    }

    /// Ends `extraction`'s standby: its waiting workers are told no (its parts have all been
    /// taken, or it failed), and later asks are answered no at once. Closing twice does nothing.
    func close(_ extraction: Int) {
        let dismissed = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.open.remove(extraction)
            let mine = state.waiters.filter { $0.extraction == extraction }
            state.waiters.removeAll { $0.extraction == extraction }
            return mine.map(\.continuation)
        }
        dismissed.forEach { $0.resume(returning: false) }
    }

    /// Hands idle cores to waiting standby workers, oldest first, while no video waits.
    private static func grantIdleCores(_ state: inout State) -> [CheckedContinuation<Bool, Never>] {
        var granted: [CheckedContinuation<Bool, Never>] = []
        while state.idle > 0, state.videosWaiting == 0, !state.waiters.isEmpty {
            state.idle -= 1
            granted.append(state.waiters.removeFirst().continuation)
        }
        return granted
    }
}
