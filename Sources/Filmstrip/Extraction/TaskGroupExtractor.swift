import Foundation
import Synchronization

/// Swift structured concurrency: K workers, each with its own input, decoder and scaler
/// (FFmpeg contexts are not thread-safe), taking parts of the plan from a shared queue;
/// each part runs the `forward` strategy. Results reach the caller in plan order.
///
/// Parts are the runs of targets that share a keyframe (one GOP each, so no GOP is decoded
/// twice), costliest first: a worker that finishes early takes the next part instead of
/// idling while another works through a long share, and the last parts, which decide
/// when the walk ends, are the short ones. With too few GOPs to share out that way, the
/// plan is cut into K contiguous parts instead.
public struct TaskGroupExtractor: ThumbnailExtractor {
    public let name = "taskgroup"
    public let summary = "K workers (default: one per core), each with its own decoder, taking GOPs from a shared queue"

    public init() {}

    public func extract(_ request: ExtractionRequest, into delivery: ThumbnailDelivery) async throws {
        let frames = request.plan.distinctFrames
        let workers = max(1, min(request.options.workers ?? ProcessInfo.processInfo.activeProcessorCount, frames.count))
        let queue = PartQueue(Self.parts(of: frames.map { (frame: $0.target.framePts, keyframe: $0.target.keyframePts) },
                                         workers: workers))
        @Sendable func work() throws -> DecodeCounters {
            var engine = try TargetDecoder(request: request)
            while let part = queue.next() {
                try engine.run(frames[part], policy: .whenKeyframeAhead, delivery: delivery)
            }
            return engine.workDone
        }
        try await withThrowingTaskGroup(of: DecodeCounters.self) { group in
            for _ in 1..<max(1, min(workers, queue.parts.count)) {
                group.addTask { try work() }
            }
            // The calling task is a worker too instead of waiting for the others: a child task
            // only starts once a thread of the cooperative pool is free, and with as many
            // workers as cores that was the calling task's own thread, a few milliseconds late
            // in a freshly started process.
            delivery.add(try work())
            for try await counters in group { delivery.add(counters) }
        }
    }

    /// The parts workers take, in the order they take them, for targets ascending by frame.
    /// Every target is in exactly one part; a part is a contiguous range of targets.
    static func parts(of targets: [(frame: Int64, keyframe: Int64)], workers: Int) -> [Range<Int>] {
        let runs = keyframeRuns(of: targets.map(\.keyframe))
        // Two parts per worker at least, or the queue cannot even out unequal GOPs.
        guard workers > 1, runs.count >= 2 * workers else {
            return contiguousParts(of: targets.map(\.keyframe), workers: workers)
        }
        // Decoding a run costs about the span from its keyframe to its last target.
        func cost(_ run: Range<Int>) -> Int64 { targets[run.upperBound - 1].frame - targets[run.lowerBound].keyframe }
        return runs.enumerated().sorted { (cost($0.element), -$0.offset) > (cost($1.element), -$1.offset) }.map(\.element)
    }

    /// Maximal runs of consecutive targets that share a keyframe.
    static func keyframeRuns(of keyframes: [Int64]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        for index in keyframes.indices.dropFirst() where keyframes[index] != keyframes[index - 1] {
            runs.append(start..<index)
            start = index
        }
        if !keyframes.isEmpty { runs.append(start..<keyframes.count) }
        return runs
    }

    /// Splits targets (ascending, given by their keyframes) into `workers` contiguous parts of
    /// about equal size, moving each cut to the nearest keyframe change: a cut inside a GOP
    /// makes two workers decode the start of the same GOP, which only pays when there are
    /// fewer GOPs than workers.
    static func contiguousParts(of keyframes: [Int64], workers: Int) -> [Range<Int>] {
        var cuts = [0]
        for part in 1..<max(1, workers) {
            let nominal = keyframes.count * part / workers
            let low = max(cuts.last! + 1, keyframes.count * (part - 1) / workers + 1)
            let high = keyframes.count * (part + 1) / workers
            let boundaries = (low..<max(low, high)).filter { $0 > 0 && $0 < keyframes.count && keyframes[$0] != keyframes[$0 - 1] }
            let cut = boundaries.min { abs($0 - nominal) < abs($1 - nominal) } ?? nominal
            cuts.append(max(cuts.last!, cut))
        }
        cuts.append(keyframes.count)
        return zip(cuts, cuts.dropFirst()).map { $0..<$1 }.filter { !$0.isEmpty }
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
}
