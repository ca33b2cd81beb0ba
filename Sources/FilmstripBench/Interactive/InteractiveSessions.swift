import Filmstrip
import FilmstripResults
import Foundation

/// Scripted slider sessions replayed against a `ThumbnailGenerator`, the body of an
/// ``BenchConfiguration/interactive(_:)`` run in the `bench-run` child:
/// open the clip and show N across it, zoom into a quarter of it, drag a handle in 20 steps
/// (each request superseding the last, one every `dragInterval`), zoom back out; then the drag's
/// last position asked of a fresh generator, the cold reference for the drag's latency.
package enum InteractiveSessions {
    /// Runs the session on `path` with `strategy`; every step on one generator, except `cold-single`.
    /// Returns a cost per step, in the order of ``Phase/sessionSteps``.
    package static func run(path: String, strategy: any InteractiveStrategy, count: Int = 20, box: ThumbnailBox = .height(64),
                           decoders: Int? = nil, cacheBytes: Int = BenchConfiguration.InteractiveRun.defaultCacheBytes,
                           dragInterval: Duration = .milliseconds(16)) async throws -> [BenchMeasurement.PhaseCost] {
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
        var steps: [BenchMeasurement.PhaseCost] = []
        steps.append(try await measure(.open, generator, requests: [whole], box: box, interval: .zero))
        steps.append(try await measure(.zoomIn, generator, requests: [zoomed], box: box, interval: .zero))
        steps.append(try await measure(.drag, generator, requests: drag.map { [$0] }, box: box, interval: dragInterval))
        steps.append(try await measure(.zoomBack, generator, requests: [whole], box: box, interval: .zero))
        let cold = try ThumbnailGenerator(path: path, options: options)
        defer { cold.close() }
        steps.append(try await measure(.coldSingle, cold, requests: [[drag[drag.count - 1]]], box: box, interval: .zero))
        return steps
    }

    /// Makes `requests` one after another `interval` apart, each superseding the last, and
    /// times what arrives for each; the step's clock, CPU time and counters from the first
    /// request until every request has ended.
    static func measure(_ step: Phase, _ generator: ThumbnailGenerator, requests: [[Rational]], box: ThumbnailBox,
                        interval: Duration) async throws -> BenchMeasurement.PhaseCost {
        let clock = ContinuousClock()
        let before = generator.counters
        let snapshot = ResourceSnapshot.now()
        let started = clock.now
        func seconds(_ instant: ContinuousClock.Instant) -> Double {
            let elapsed = started.duration(to: instant)
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        var firstImage: Double?, fullRow: Double?, last = 0.0
        var latencies: [Double] = []
        try await withThrowingTaskGroup(of: (latency: Double?, firstImage: Double?, fullRow: Double?, end: Double).self) { group in
            for (index, times) in requests.enumerated() {
                if index > 0 && interval > .zero { try await Task.sleep(for: interval) }
                let issued = clock.now
                let results = try generator.thumbnails(for: ThumbnailRequest(times: times, box: box), superseding: index > 0)
                group.addTask {
                    var first: Double?, row: Double?, slots = Set<Int>(), end = 0.0
                    for try await thumbnail in results {
                        let now = seconds(clock.now)
                        first = first ?? now
                        slots.insert(thumbnail.slot)
                        if row == nil && slots.count == times.count { row = now }
                        if thumbnail.isFinal { end = now }
                    }
                    let latency = results.isCancelled ? nil : end - seconds(issued)
                    return (latency, first, row, end)
                }
            }
            for try await outcome in group {
                if let latency = outcome.latency { latencies.append(latency) }
                if let image = outcome.firstImage { firstImage = min(firstImage ?? image, image) }
                if outcome.latency != nil { last = max(last, outcome.end) }
                if outcome.latency != nil, let row = outcome.fullRow { fullRow = max(fullRow ?? row, row) }
            }
        }
        var cost = ResourceSnapshot.now().cost(since: snapshot, phase: step, counters: nil)
        // A decoder counts its frames after it delivered them: the step's counts are read once the pool is idle.
        while generator.counters.busyDecoders > 0 { try await Task.sleep(for: .milliseconds(1)) }
        let after = generator.counters
        cost.framesDecoded = after.framesDecoded - before.framesDecoded
        cost.packetsRead = after.packetsRead - before.packetsRead
        let sorted = latencies.sorted()
        cost.interactive = InteractiveMeasures(
            firstThumbnailSeconds: firstImage, fullRowSeconds: fullRow, allThumbnailsSeconds: last,
            latencyP50Seconds: sorted.isEmpty ? nil : Quantile.type7(sorted: sorted, p: 0.5),
            latencyP95Seconds: sorted.isEmpty ? nil : Quantile.type7(sorted: sorted, p: 0.95),
            wastedFrames: after.wastedFrames - before.wastedFrames, cacheHits: after.cacheHits - before.cacheHits)
        return cost
    }

    /// Makes `count` requests each superseding the last (without reading them), then one read
    /// to the end; reports the memory, threads and busy decoders left behind, as one `soak` cost.
    package static func soak(path: String, count: Int, strategy: any InteractiveStrategy = InteractiveStrategies.standard,
                            decoders: Int? = nil, cacheBytes: Int = 0) async throws -> BenchMeasurement.PhaseCost {
        let options = ThumbnailGeneratorOptions(strategy: strategy, decoders: decoders, cacheBytes: cacheBytes)
        let generator = try ThumbnailGenerator(path: path, options: options)
        defer { generator.close() }
        let duration = generator.probe.duration.seconds
        func time(_ index: Int) -> [Rational] { [duration * Rational(Int64(index % 97), 97)] }
        for try await _ in try generator.thumbnails(for: ThumbnailRequest(times: generator.evenlySpacedTimes(count: 20))) {}
        let before = (resident: residentBytes(), threads: threadCount(), counters: generator.counters)
        let snapshot = ResourceSnapshot.now()
        var last: ThumbnailResults?
        for index in 0..<count {
            last = try generator.thumbnails(for: ThumbnailRequest(times: time(index)), superseding: true)
            if index % 50 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        if let last { for try await _ in last {} }
        while generator.counters.busyDecoders > 0 { try await Task.sleep(for: .milliseconds(5)) }
        let counters = generator.counters
        var cost = ResourceSnapshot.now().cost(since: snapshot, phase: .soak, counters: nil)
        cost.framesDecoded = counters.framesDecoded - before.counters.framesDecoded
        cost.packetsRead = counters.packetsRead - before.counters.packetsRead
        cost.interactive = InteractiveMeasures(wastedFrames: counters.wastedFrames - before.counters.wastedFrames,
                                               cacheHits: counters.cacheHits - before.counters.cacheHits,
                                               residentGrowthBytes: residentBytes() - before.resident,
                                               threadsLeft: threadCount() - before.threads, busyDecoders: counters.busyDecoders)
        return cost
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
