import Filmstrip
import FilmstripFixtures
import Foundation
import Synchronization
import Testing

/// The library's strip job and batch runner: what `strip`, `makeStrip` and the bench child share.
@Suite("Strip job and video batch")
struct StripJobTests {
    @Test("a job makes the strip Pipeline.run makes, from one layout")
    func jobMatchesThePipeline() async throws {
        let path = try TestSupport.video("h264-180p-3s")
        var job = StripJob(video: path)
        job.spacing = .count(7)
        job.size = .height(48)
        job.pipeline = try #require(Pipeline(named: "sequential+naive"))
        job.stripOptions = StripOptions(columns: 3, gap: 2)
        let prepared = try job.prepare()
        #expect(prepared.plan.count == 7)
        #expect(prepared.layout == (try Pipeline.layout(for: prepared.request, options: job.stripOptions)))
        let result = try await prepared.run()
        let direct = try await job.pipeline.run(prepared.request, options: job.stripOptions)
        #expect(result.strip == direct.strip)
        #expect(prepared.manifest(of: result).thumbnails.count == 7)
    }

    @Test("an interval gives one thumbnail per interval of the range; too many are refused naming the limit, not a flag")
    func intervalSpacing() throws {
        let path = try TestSupport.video("h264-180p-3s")
        var job = StripJob(video: path)
        job.spacing = .interval(seconds: 0.5)
        let prepared = try job.prepare()
        #expect(prepared.plan.count == Int((prepared.probe.durationSeconds / 0.5).rounded(.up)))
        job.spacing = .interval(seconds: 1e-9)
        #expect { try job.prepare() } throws: { error in
            guard let error = error as? StripJobError else { return false }
            return error.description.contains("more than \(ResourceLimits.maximumThumbnailCount)") && !error.description.contains("--")
        }
    }

    @Test("the memory limit is a value of the job: over it, nothing is decoded and the message names no flag")
    func memoryLimitPerJob() throws {
        var job = StripJob(video: try TestSupport.video("h264-180p-3s"))
        job.memoryLimitBytes = 1_000_000
        #expect { try job.prepare() } throws: { error in
            guard let error = error as? MemoryLimitExceeded else { return false }
            return error.limitBytes == 1_000_000 && !error.description.contains("--")
        }
        job.memoryLimitBytes = nil
        _ = try job.prepare()
    }

    @Test("a batch runs every video, a few at a time, and stops starting or cancels when told")
    func batchRunsAndStops() async throws {
        let batch = VideoBatch(videos: 6, videosAtATime: 2, workers: nil, cores: 4)
        #expect(batch.videosAtATime == 2 && batch.workersPerVideo == 2)
        final class Concurrency: Sendable {
            let counts = Mutex((now: 0, most: 0))
        }
        let running = Concurrency()
        var handled: [Int] = []
        await batch.run(count: 6, work: { index -> Int in
            running.counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            try? await Task.sleep(for: .milliseconds(5))
            running.counts.withLock { $0.now -= 1 }
            return index * 10
        }, handle: { index, outcome in
            #expect(outcome == index * 10)
            handled.append(index)
            return .goOn
        })
        #expect(handled.sorted() == Array(0..<6))
        #expect(running.counts.withLock { $0.most } <= 2)
        #expect(batch.budget.idleCores == 4, "every video gave its cores back")

        var afterStop: [Int] = []
        await batch.run(count: 6, work: { $0 }, handle: { index, _ in
            afterStop.append(index)
            return .stopStarting
        })
        // The two started at once finish; no third starts.
        #expect(afterStop.count == 2)
    }
}
