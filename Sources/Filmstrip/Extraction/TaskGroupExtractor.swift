import Foundation
import Synchronization

/// K workers, each on a thread of its own (`DecodingThread`) under a task group, each with its own input, decoder and scaler
/// (FFmpeg contexts are not thread-safe), taking parts of the plan from a shared queue;
/// each part runs the `forward` strategy. Results reach the caller in plan order.
///
/// `GOPCostModel` plans the work before decoding: parts are the runs of targets that share a
/// keyframe (one GOP each, so no GOP is decoded twice), costliest first by the frames each
/// must decode, so a worker that finishes early takes the next part instead of idling while
/// another works through a long share, and the last parts, which decide when the walk ends,
/// are the short ones (with `ExtractionOptions.fixedWorkerShares`, for instruction counting, the
/// same parts are dealt out before decoding, as the queue would on an idle machine:
/// `GOPCostModel.fixedShares`). With too few GOPs to share out that way, the plan is cut into K
/// contiguous parts instead. Without `workers`, K comes from the model too (the plan's runs
/// and the cores; more workers than cores when time slicing evens out the tail), and cores
/// that K workers would leave idle go to codec threads when the model predicts they pay.
public struct TaskGroupExtractor: ThumbnailExtractor {
    public let name = "taskgroup"
    public let summary = "K workers (default: from the plan's GOP runs and the cores), each with its own decoder, taking GOPs from a shared queue"

    public let settings: Set<ExtractorSetting> = [.workers]
    public let role = ExtractorRole.concurrent

    /// Cores shared with other videos made at the same time, or nil: the workers are the ones
    /// the schedule starts with.
    public let budget: CoreBudget?

    /// The task-group extractor; its worker count comes from `ExtractionOptions.workers`.
    public init() { budget = nil }

    /// A task-group extractor for one video of a batch: besides the workers it starts with, it
    /// keeps standby workers (up to the budget's cores) that take the GOP runs still queued
    /// once the budget has a core idle and no other video waits to start it.
    public init(sharing budget: CoreBudget) { self.budget = budget }

    /// This extractor with standby workers taking `budget`'s idle cores.
    public func sharing(_ budget: CoreBudget) -> any ThumbnailExtractor { TaskGroupExtractor(sharing: budget) }

    /// The schedule for `request` on `cores` cores: the given worker count, or the model's best.
    static func schedule(for request: ExtractionRequest, cores: Int) -> GOPCostModel.Schedule {
        let model = costModel(for: request)
        if let workers = request.options.workers {
            return model.schedule(workers: max(1, min(workers, model.targets.count)), cores: cores)
        }
        return model.bestSchedule(cores: cores)
    }

    /// The cost model of `request`'s distinct targets.
    static func costModel(for request: ExtractionRequest) -> GOPCostModel {
        let frameTimes = request.probe.frameTimes
        return GOPCostModel(targets: request.plan.distinctFrames.map { entry in
            GOPCostModel.Target(frame: entry.target.frameIndex,
                                keyframe: FrameTable.lastIndex(in: frameTimes, atOrBefore: entry.target.keyframePts) ?? 0)
        })
    }

    public func extract(_ request: ExtractionRequest, into delivery: ThumbnailDelivery) async throws -> DecodeCounters {
        let frames = request.plan.distinctFrames
        let schedule = Self.schedule(for: request, cores: ProcessInfo.processInfo.activeProcessorCount)
        // Worker i takes from queues[i]: one shared queue, or with fixed shares a queue of its own.
        let shared = PartQueue(schedule.parts)
        let queues = request.options.fixedWorkerShares
            ? Self.costModel(for: request).fixedShares(of: schedule.parts, workers: schedule.workers).map(PartQueue.init)
            : Array(repeating: shared, count: max(1, schedule.workers))
        var workerRequest = request
        if schedule.codecThreads > 1 {
            var options = request.options
            options.decoder.threads = schedule.codecThreads
            workerRequest = try request.with(options: options)
        }
        let decoding = workerRequest
        // Raised when the extraction's task (or one worker's, after another failed) is cancelled:
        // the workers run on threads of their own, where task cancellation cannot be seen.
        let stop = StopSignal()
        @Sendable func work(_ queue: PartQueue) throws -> DecodeCounters {
            let started = ResourceUsage.threadCPUSeconds
            var engine = try TargetDecoder(request: decoding)
            engine.stopSignal = stop
            while let part = queue.next() {
                try engine.run(frames[part], policy: .whenKeyframeAhead, delivery: delivery)
            }
            var counters = engine.workDone
            // With codec threads the decoder's own threads do part of the work; this counts the worker's thread only.
            counters.longestWorkerSeconds = ResourceUsage.threadCPUSeconds - started
            counters.workers = 1
            return counters
        }
        // Standby workers wait (suspended, holding no thread) for a core of the budget.
        // (None with fixed shares: the parts are dealt out already.)
        let standby = request.options.fixedWorkerShares ? 0
            : budget.map { max(0, min($0.cores, schedule.parts.count) - schedule.workers) } ?? 0
        let extraction = budget?.openExtraction()
        @Sendable func standbyWork(_ budget: CoreBudget, extraction: Int) async throws -> DecodeCounters {
            guard await budget.takeIdleCore(for: extraction) else { return DecodeCounters() }
            defer { budget.release() }
            return shared.isEmpty ? DecodeCounters() : try await DecodingThread.run(stoppedBy: stop) { try work(shared) }
        }
        return try await withThrowingTaskGroup(of: DecodeCounters.self) { group in
            // On every way out, waiting standby workers are let go (the group then awaits them).
            defer { if let budget, let extraction { budget.close(extraction) } }
            for worker in queues.indices.dropFirst() {
                group.addTask { try await DecodingThread.run(stoppedBy: stop) { try work(queues[worker]) } }
            }
            if let budget, let extraction {
                for _ in 0..<standby { group.addTask { try await standbyWork(budget, extraction: extraction) } }
            }
            // Every worker decodes on a thread of its own (`DecodingThread`), so all K run at
            // once even with more workers than cores, and the cooperative pool stays free; the
            // calling task starts the first itself rather than wait for a child task to start.
            var total = try await DecodingThread.run(stoppedBy: stop) { try work(queues[0]) }
            // Every part has been taken: standby workers still waiting have nothing to do.
            if let budget, let extraction { budget.close(extraction) }
            for try await counters in group { total = total + counters }
            return total
        }
    }

    /// The parts workers take, in the order they take them, for targets ascending by frame.
    /// Every target is in exactly one part; a part is a contiguous range of targets.
    static func parts(of targets: [(frame: Int64, keyframe: Int64)], workers: Int) -> [Range<Int>] {
        GOPCostModel(targets: targets.map { GOPCostModel.Target(frame: Int($0.frame), keyframe: Int($0.keyframe)) })
            .schedule(workers: workers, cores: workers).parts
    }

    /// Maximal runs of consecutive targets that share a keyframe.
    static func keyframeRuns(of keyframes: [Int64]) -> [Range<Int>] {
        GOPCostModel(targets: keyframes.map { GOPCostModel.Target(frame: Int($0), keyframe: Int($0)) }).runs
    }

    /// Splits targets (ascending, given by their keyframes) into `workers` contiguous parts of
    /// about equal size, each cut moved to the nearest keyframe change.
    static func contiguousParts(of keyframes: [Int64], workers: Int) -> [Range<Int>] {
        GOPCostModel(targets: keyframes.map { GOPCostModel.Target(frame: Int($0), keyframe: Int($0)) }).contiguousParts(workers: workers)
    }
}

/// Hands each part to exactly one worker, in order.
private final class PartQueue: Sendable {
    let parts: [Range<Int>]
    private let taken = Atomic<Int>(0)

    init(_ parts: [Range<Int>]) { self.parts = parts }

    func next() -> Range<Int>? {
        let index = taken.add(1, ordering: .relaxed).oldValue
        return index < parts.count ? parts[index] : nil
    }

    /// True once every part has been taken.
    var isEmpty: Bool { taken.load(ordering: .relaxed) >= parts.count }
}
