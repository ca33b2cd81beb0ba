import Foundation

/// Runs the videos of a batch (`strip` or `sprite` on several videos) a few at a time, sharing
/// the machine's cores between them through one ``CoreBudget``: each video claims its workers'
/// cores when it starts and gives them back when it ends, and the cores of finished videos go
/// to the running ones once no video waits to start.
///
/// The one place the handshake with the budget is written; a command gives the work of one
/// video and what to do with each result.
public struct VideoBatch: Sendable {
    /// What the batch does after a video's result has been handled.
    public enum Next: Sendable {
        /// Start the next video, if any.
        case goOn
        /// Start no more videos; those running finish.
        case stopStarting
        /// Start no more videos and cancel the running ones.
        case cancelAll
    }

    /// The cores the videos share.
    public let budget: CoreBudget
    /// Videos in flight at once.
    public let videosAtATime: Int
    /// Workers (and cores claimed) of each video at its start.
    public let workersPerVideo: Int

    /// A batch of `videos` videos: `videosAtATime` and `workers` as asked for, else one video per
    /// core (at most `videos`) and the cores split between the videos in flight.
    public init(videos: Int, videosAtATime requested: Int?, workers: Int?,
                cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        budget = CoreBudget(cores: cores)
        videosAtATime = budget.videosAtATime(requested: requested, videos: videos)
        workersPerVideo = budget.workersPerVideo(requested: workers, videosAtATime: videosAtATime)
    }

    /// Runs `work` for the videos `0..<count`, `videosAtATime` at once, and hands each result to
    /// `handle` on the calling task in the order they finish; `handle` says whether to go on.
    /// Returns when every started video has finished (or ended after a cancellation).
    public func run<Outcome: Sendable>(count: Int, work: @escaping @Sendable (Int) async -> Outcome,
                                       handle: (Int, Outcome) async throws -> Next) async rethrows {
        try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            var next = 0, starting = true
            func startNext() {
                guard starting, next < count else { return }
                let index = next
                next += 1
                budget.startVideo(claiming: workersPerVideo, videosStillWaiting: count - next)
                group.addTask { (index, await work(index)) }
            }
            for _ in 0..<videosAtATime { startNext() }
            while let (index, outcome) = try await group.next() {
                let decision = try await handle(index, outcome)
                if decision != .goOn { starting = false }
                if decision == .cancelAll { group.cancelAll() }
                // Its cores go to the next video, or, when none is left to start, to the running ones.
                budget.finishVideo(releasing: workersPerVideo, videosStillWaiting: starting ? count - next : 0)
                startNext()
            }
        }
    }
}
