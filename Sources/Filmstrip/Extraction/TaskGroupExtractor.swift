/// Swift structured concurrency: K workers, each with its own input, decoder and scaler
/// (FFmpeg contexts are not thread-safe), over K contiguous parts of the plan; each part
/// runs the `forward` strategy. Results reach the caller in plan order.
public struct TaskGroupExtractor: ThumbnailExtractor {
    public let name = "taskgroup"
    public let summary = "K workers (default: one per core), each with its own decoder, over K parts of the plan"

    public init() {}

    public func extract(_ request: ExtractionRequest, into delivery: ThumbnailDelivery) async throws {
        let frames = request.plan.distinctFrames
        let workers = max(1, min(request.options.workers ?? ProcessInfoCores.active, frames.count))
        try await withThrowingTaskGroup(of: DecodeCounters.self) { group in
            for part in 0..<workers {
                let range = frames.count * part / workers..<frames.count * (part + 1) / workers
                group.addTask {
                    var engine = try TargetDecoder(request: request)
                    return try engine.run(frames[range], policy: .whenKeyframeAhead, delivery: delivery)
                }
            }
            for try await counters in group { delivery.add(counters) }
        }
    }
}

import Foundation

enum ProcessInfoCores {
    static var active: Int { ProcessInfo.processInfo.activeProcessorCount }
}
