import Filmstrip
import Foundation

/// One measured step of a scripted slider session: what the user saw and when.
public struct InteractiveStepResult: Sendable {
    /// `open`, `zoom-in`, `drag`, `zoom-back` or `cold-single`.
    public var step: String
    /// Requests the step made (a drag makes one per position).
    public var requests: Int
    /// From the step's first request to its first image, coarse or final (seconds).
    public var firstThumbnailSeconds: Double
    /// From the step's first request to its first exact image (seconds).
    public var firstExactSeconds: Double
    /// From the step's first request until every slot of its last request had an image (seconds).
    public var fullRowSeconds: Double
    /// From the step's first request to the last request's last final image (seconds).
    public var allThumbnailsSeconds: Double
    /// Per request that was not superseded: from the request to its last final image (seconds), sorted.
    public var latencies: [Double]
    /// Frames decoded for requests that were cancelled or superseded.
    public var wastedFrames: Int
    /// Frames decoded in the step.
    public var framesDecoded: Int
    /// Images served from the cache in the step.
    public var cacheHits: Int

    /// The `fraction` quantile of the latencies (nearest rank), or nil without any.
    public func latency(quantile fraction: Double) -> Double? {
        guard !latencies.isEmpty else { return nil }
        let rank = Int((fraction * Double(latencies.count)).rounded(.up)) - 1
        return latencies[min(latencies.count - 1, max(0, rank))]
    }
}

/// Scripted slider sessions replayed against a `ThumbnailGenerator`, for `bench-interactive`:
/// open the clip and show N across it, zoom into a quarter of it, drag a handle in 20 steps
/// (each request superseding the last, one every `dragInterval`), zoom back out; then the drag's
/// last position asked of a fresh generator, the cold reference for the drag's latency.
public enum InteractiveSessions {
    /// Runs the session on `path` with `strategy`; every step on one generator, except `cold-single`.
    public static func run(path: String, strategy: any InteractiveStrategy, count: Int = 20, box: ThumbnailBox = .height(64),
                           decoders: Int? = nil, cacheBytes: Int = 64 << 20,
                           dragInterval: Duration = .milliseconds(16)) async throws -> [InteractiveStepResult] {
        let options = ThumbnailGeneratorOptions(strategy: strategy, decoders: decoders, cacheBytes: cacheBytes)
        let generator = try ThumbnailGenerator(path: path, options: options)
        defer { generator.close() }
        let duration = generator.probe.duration.seconds
        let zoomFrom = duration / Rational(4), zoomTo = duration / Rational(2)
        let whole = generator.evenlySpacedTimes(count: count)
        let zoomed = generator.evenlySpacedTimes(count: count, from: zoomFrom, to: zoomTo)
        // The handle moves across the zoomed range, between the zoomed strip's times (which the
        // cache holds); each position asks for the frame under it.
        let drag = (0..<20).map { zoomFrom + (zoomTo - zoomFrom) * Rational(Int64(4 * $0 + 1), 80) }
        var steps: [InteractiveStepResult] = []
        steps.append(try await measure("open", generator, requests: [whole], box: box, interval: .zero))
        steps.append(try await measure("zoom-in", generator, requests: [zoomed], box: box, interval: .zero))
        steps.append(try await measure("drag", generator, requests: drag.map { [$0] }, box: box, interval: dragInterval))
        steps.append(try await measure("zoom-back", generator, requests: [whole], box: box, interval: .zero))
        let cold = try ThumbnailGenerator(path: path, options: options)
        defer { cold.close() }
        steps.append(try await measure("cold-single", cold, requests: [[drag[drag.count - 1]]], box: box, interval: .zero))
        return steps
    }

    /// Makes `requests` one after another `interval` apart, each superseding the last, and
    /// times what arrives for each.
    static func measure(_ step: String, _ generator: ThumbnailGenerator, requests: [[Rational]], box: ThumbnailBox,
                        interval: Duration) async throws -> InteractiveStepResult {
        let clock = ContinuousClock()
        let before = generator.counters
        let started = clock.now
        func seconds(_ instant: ContinuousClock.Instant) -> Double {
            let elapsed = started.duration(to: instant)
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        var firstImage: Double?, firstExact: Double?, fullRow = 0.0, last = 0.0
        var latencies: [Double] = []
        try await withThrowingTaskGroup(of: (latency: Double?, firstImage: Double?, firstExact: Double?, fullRow: Double?, end: Double).self) { group in
            for (index, times) in requests.enumerated() {
                if index > 0 && interval > .zero { try await Task.sleep(for: interval) }
                let issued = clock.now
                let results = try generator.thumbnails(for: ThumbnailRequest(times: times, box: box), superseding: index > 0)
                group.addTask {
                    var first: Double?, exact: Double?, slots = Set<Int>(), row: Double?, end = 0.0
                    for try await thumbnail in results {
                        let now = seconds(clock.now)
                        first = first ?? now
                        if thumbnail.isExact && exact == nil { exact = now }
                        slots.insert(thumbnail.slot)
                        if slots.count == times.count && row == nil { row = now }
                        if thumbnail.isFinal { end = now }
                    }
                    let finished = !results.isCancelled
                    let latency = finished ? end - seconds(issued) : nil
                    return (latency, first, exact, row, end)
                }
            }
            for try await outcome in group {
                if let latency = outcome.latency { latencies.append(latency) }
                if let image = outcome.firstImage { firstImage = min(firstImage ?? image, image) }
                if let exact = outcome.firstExact { firstExact = min(firstExact ?? exact, exact) }
                if outcome.latency != nil, let row = outcome.fullRow { fullRow = max(fullRow, row) }
                if outcome.latency != nil { last = max(last, outcome.end) }
            }
        }
        let after = generator.counters
        return InteractiveStepResult(step: step, requests: requests.count, firstThumbnailSeconds: firstImage ?? 0,
                                     firstExactSeconds: firstExact ?? 0, fullRowSeconds: fullRow, allThumbnailsSeconds: last,
                                     latencies: latencies.sorted(), wastedFrames: after.wastedFrames - before.wastedFrames,
                                     framesDecoded: after.framesDecoded - before.framesDecoded,
                                     cacheHits: after.cacheHits - before.cacheHits)
    }

    /// What `soak` found: resident memory and threads before and after.
    public struct SoakResult: Sendable {
        /// Resident bytes after the first (warming) request, and after the last.
        public var residentBytesBefore: Int, residentBytesAfter: Int
        /// The process's threads then.
        public var threadsBefore: Int, threadsAfter: Int
        /// Decoders open and busy after the last request, and the pool's size.
        public var openDecoders: Int, busyDecoders: Int, poolSize: Int
    }

    /// Makes `count` requests each superseding the last (without reading them), then one read
    /// to the end; reports memory and threads before and after.
    public static func soak(path: String, count: Int) async throws -> SoakResult {
        let generator = try ThumbnailGenerator(path: path, options: ThumbnailGeneratorOptions(cacheBytes: 0))
        defer { generator.close() }
        let duration = generator.probe.duration.seconds
        func time(_ index: Int) -> [Rational] { [duration * Rational(Int64(index % 97), 97)] }
        for try await _ in try generator.thumbnails(for: ThumbnailRequest(times: generator.evenlySpacedTimes(count: 20))) {}
        let before = (resident: residentBytes(), threads: threadCount())
        var last: ThumbnailResults?
        for index in 0..<count {
            last = try generator.thumbnails(for: ThumbnailRequest(times: time(index)), superseding: true)
            if index % 50 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        if let last { for try await _ in last {} }
        while generator.counters.busyDecoders > 0 { try await Task.sleep(for: .milliseconds(5)) }
        let counters = generator.counters
        return SoakResult(residentBytesBefore: before.resident, residentBytesAfter: residentBytes(), threadsBefore: before.threads,
                          threadsAfter: threadCount(), openDecoders: counters.openDecoders, busyDecoders: counters.busyDecoders,
                          poolSize: generator.decoderCount)
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    static func threadCount() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }) else { return 0 }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
}
