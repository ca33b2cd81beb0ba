import Foundation

/// Swift structured concurrency: K workers, each with its own input, decoder and scaler
/// (FFmpeg contexts are not thread-safe), over K contiguous parts of the plan; each part
/// runs the `forward` strategy. Parts are cut at keyframe changes so no GOP is decoded
/// twice. Results reach the caller in plan order.
public struct TaskGroupExtractor: ThumbnailExtractor {
    public let name = "taskgroup"
    public let summary = "K workers (default: one per core), each with its own decoder, over K parts of the plan"

    public init() {}

    public func extract(_ request: ExtractionRequest, into delivery: ThumbnailDelivery) async throws {
        let frames = request.plan.distinctFrames
        let workers = max(1, min(request.options.workers ?? ProcessInfo.processInfo.activeProcessorCount, frames.count))
        let parts = Self.parts(of: frames.map(\.target.keyframePts), workers: workers)
        try await withThrowingTaskGroup(of: DecodeCounters.self) { group in
            for range in parts.dropFirst() {
                group.addTask {
                    var engine = try TargetDecoder(request: request)
                    return try engine.run(frames[range], policy: .whenKeyframeAhead, delivery: delivery)
                }
            }
            // The calling task decodes the first part itself instead of waiting for the others:
            // a child task only starts once a thread of the cooperative pool is free, and with
            // as many workers as cores that was the calling task's own thread, a few
            // milliseconds late in a freshly started process.
            var engine = try TargetDecoder(request: request)
            delivery.add(try engine.run(frames[parts[0]], policy: .whenKeyframeAhead, delivery: delivery))
            for try await counters in group { delivery.add(counters) }
        }
    }

    /// Splits targets (ascending, given by their keyframes) into `workers` contiguous parts of
    /// about equal size, moving each cut to the nearest keyframe change: a cut inside a GOP
    /// would make two workers decode the start of the same GOP.
    static func parts(of keyframes: [Int64], workers: Int) -> [Range<Int>] {
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
