import Filmstrip
import FilmstripFixtures
import Foundation
import Testing

/// Every registered extractor against real encoded reference videos.
@Suite("Extractor conformance")
struct ExtractionConformanceTests {
    static let videos = ["h264-180p-3s", "hevc-180p-2s", "vp9-180p-2s", "av1-180p-2s", "mpeg4-180p-2s",
                         "h264-180p-2s-opengop-offset", "h264-180p-2s-vfr", "vp9-179p-2s-odd"]
    static let extractorNames = Extractors.all.map(\.name)

    static func request(_ id: String, count: Int, accuracy: Accuracy = .exact, from: Rational? = nil, to: Rational? = nil,
                        size: ThumbnailSize = .default, options: ExtractionOptions = ExtractionOptions()) throws -> ExtractionRequest {
        let path = try TestSupport.video(id)
        let probe = try VideoProbe(path: path)
        let plan = try SamplePlan(probe: probe, count: count, from: from, to: to, accuracy: accuracy)
        return try ExtractionRequest(path: path, probe: probe, plan: plan, size: size, options: options)
    }

    static func run(_ name: String, _ request: ExtractionRequest) async throws -> [Thumbnail] {
        try await Extractors.named(name)!.thumbnails(for: request).thumbnails
    }

    @Test("exact mode shows the planned frame, byte-identical across extractors", arguments: videos)
    func exactFrames(id: String) async throws {
        let request = try Self.request(id, count: 7)
        var reference: [Thumbnail]?
        for name in Self.extractorNames {
            let thumbnails = try await Self.run(name, request)
            #expect(thumbnails.map(\.slot) == Array(0..<7), "\(name) delivers in plan order")
            for (thumbnail, target) in zip(thumbnails, request.plan.targets) {
                #expect(FrameIndexMarker.read(from: thumbnail.image!) == target.frameIndex, "\(name) slot \(target.slot)")
                #expect(thumbnail.frameIndex == target.frameIndex)
                #expect(!thumbnail.substituted)
                #expect(thumbnail.actualTime.pts == target.framePts)
            }
            if let reference {
                #expect(thumbnails.map { $0.image! } == reference.map { $0.image! }, "\(name) is byte-identical to sequential")
            } else {
                reference = thumbnails
            }
        }
    }

    @Test("the plan picks the frame displayed at each slot's centre")
    func planMatchesConstantRateArithmetic() throws {
        let spec = TestSupport.spec("h264-180p-3s")
        for count in [1, 7, 90, 200] {
            let plan = try Self.request(spec.id, count: count).plan
            for target in plan.targets {
                // Centre of interval i of N over the whole duration, in frames, floored.
                let expected = min(spec.frameCount - 1, (2 * target.slot + 1) * spec.frameCount / (2 * count))
                #expect(target.frameIndex == expected, "N=\(count) slot \(target.slot)")
            }
        }
    }

    @Test("keyframe mode shows the keyframe nearest each slot", arguments: extractorNames)
    func keyframeMode(name: String) async throws {
        let spec = TestSupport.spec("h264-180p-3s")
        let request = try Self.request(spec.id, count: 9, accuracy: .keyframe)
        let thumbnails = try await Self.run(name, request)
        for (thumbnail, target) in zip(thumbnails, request.plan.targets) {
            let shown = FrameIndexMarker.read(from: thumbnail.image!)
            #expect(shown == target.frameIndex)
            #expect(target.frameIndex % spec.keyframeInterval == 0)
            // The nearest of the keyframes 0, 30 and 60 to the slot's centre (ties to the earlier).
            let centre = Double(target.slot * 2 + 1) * Double(spec.frameCount) / Double(2 * 9)
            let nearest = [0, 30, 60].min { abs(Double($0) - centre) < abs(Double($1) - centre) }
            #expect(target.frameIndex == nearest)
        }
    }

    @Test("tolerance mode stays inside its window", arguments: extractorNames)
    func toleranceMode(name: String) async throws {
        let window = Rational(1, 5)
        let request = try Self.request("h264-180p-3s", count: 11, accuracy: .tolerance(before: window, after: window))
        let thumbnails = try await Self.run(name, request)
        for thumbnail in thumbnails {
            let shown = try #require(FrameIndexMarker.read(from: thumbnail.image!))
            #expect(shown == thumbnail.frameIndex)
            let exact = (2 * thumbnail.slot + 1) * 90 / 22
            // The window is ±0.2 s = ±6 frames; the exact frame is always allowed.
            #expect(abs(shown - exact) <= 6)
        }
    }

    @Test("a range, one thumbnail, and more thumbnails than frames", arguments: extractorNames)
    func rangesAndCounts(name: String) async throws {
        let ranged = try Self.request("h264-180p-3s", count: 4, from: Rational(1), to: Rational(2))
        let rangedIndices = try await Self.run(name, ranged).map { FrameIndexMarker.read(from: $0.image!) }
        #expect(rangedIndices == [33, 41, 48, 56])

        let single = try Self.request("h264-180p-3s", count: 1)
        #expect(try await Self.run(name, single).map { FrameIndexMarker.read(from: $0.image!) } == [45])

        let crowded = try Self.request("hevc-180p-2s", count: 150)
        let crowdedIndices = try await Self.run(name, crowded).map { FrameIndexMarker.read(from: $0.image!) }
        #expect(crowdedIndices == crowded.plan.targets.map(\.frameIndex))
        #expect(Set(crowdedIndices.compactMap { $0 }).count == 60, "every frame appears, neighbours repeat")
    }

    @Test("rotated videos give upright portrait thumbnails", arguments: ["h264-180p-2s-rot90", "h264-180p-2s-rot270"])
    func rotation(id: String) async throws {
        let request = try Self.request(id, count: 5)
        for name in Self.extractorNames {
            let thumbnails = try await Self.run(name, request)
            for (thumbnail, target) in zip(thumbnails, request.plan.targets) {
                #expect(thumbnail.image!.width == 36 && thumbnail.image!.height == 64)
                #expect(FrameIndexMarker.read(from: thumbnail.image!) == target.frameIndex, "\(name): upright marker")
            }
        }
    }

    @Test func nonSquarePixelsWidenTheThumbnail() async throws {
        let request = try Self.request("h264-180p-2s-sar43", count: 3)
        let thumbnails = try await Self.run("forward", request)
        #expect(thumbnails.allSatisfy { $0.image!.width == 114 && $0.image!.height == 64 })
        #expect(thumbnails.map { FrameIndexMarker.read(from: $0.image!) } == request.plan.targets.map(\.frameIndex))
        let byWidth = try Self.request("h264-180p-2s-sar43", count: 2, size: .width(160))
        #expect(try await Self.run("sequential", byWidth).allSatisfy { $0.image!.width == 160 && $0.image!.height == 90 })
    }

    @Test("taskgroup workers taking GOPs from the queue, costliest first, give the planned frames in plan order",
          arguments: [(Accuracy.exact, 2), (.exact, 3), (.keyframe, 2)])
    func queuedGOPs(accuracy: Accuracy, workers: Int) async throws {
        // 11 GOPs: enough runs for the queue rather than the contiguous split.
        let plain = try Self.request("h264-360p-20s", count: 37, accuracy: accuracy)
        let queued = try Self.request("h264-360p-20s", count: 37, accuracy: accuracy,
                                      options: ExtractionOptions(skipNonReferenceFrames: true, workers: workers))
        #expect(Set(queued.plan.targets.map(\.keyframePts)).count >= 2 * workers)
        let reference = try await Self.run("forward", plain)
        let thumbnails = try await Self.run("taskgroup", queued)
        #expect(thumbnails.map(\.slot) == Array(0..<37))
        #expect(thumbnails.map { $0.image! } == reference.map { $0.image! })
        for (thumbnail, target) in zip(thumbnails, queued.plan.targets) {
            #expect(FrameIndexMarker.read(from: thumbnail.image!) == target.frameIndex, "slot \(target.slot)")
        }
    }

    @Test("decoder options keep exact results identical", arguments: [
        ExtractionOptions(decoder: DecoderOptions(threads: 0)),
        ExtractionOptions(skipNonReferenceFrames: true),
        ExtractionOptions(workers: 3),
        // Instruction runs' fixed shares: who decodes what changes, never the pixels.
        { var options = ExtractionOptions(workers: 3); options.fixedWorkerShares = true; return options }(),
    ])
    func decoderOptions(options: ExtractionOptions) async throws {
        let plain = try await Self.run("sequential", try Self.request("h264-180p-3s", count: 13))
        for name in Self.extractorNames {
            let varied = try await Self.run(name, try Self.request("h264-180p-3s", count: 13, options: options))
            #expect(varied.map { $0.image! } == plain.map { $0.image! }, "\(name) with \(options.summary)")
        }
    }
}

@Suite("Plan and extraction errors")
struct ExtractionErrorTests {
    @Test func impossiblePlans() throws {
        let probe = try VideoProbe(path: try TestSupport.video("h264-180p-3s"))
        #expect(throws: PlanError.countNotPositive(0)) { try SamplePlan(probe: probe, count: 0) }
        #expect(throws: PlanError.countNotPositive(-3)) { try SamplePlan(probe: probe, count: -3) }
        #expect(throws: PlanError.emptyRange(from: 2, to: 1)) { try SamplePlan(probe: probe, count: 3, from: Rational(2), to: Rational(1)) }
        #expect(throws: PlanError.emptyRange(from: 1, to: 1)) { try SamplePlan(probe: probe, count: 3, from: Rational(1), to: Rational(1)) }
        #expect(throws: PlanError.self) { try SamplePlan(probe: probe, count: 3, from: Rational(1), to: Rational(10)) }
        #expect(throws: PlanError.self) { try SamplePlan(probe: probe, count: 3, from: Rational(-1)) }
        let plan = try SamplePlan(probe: probe, count: 3)
        #expect(throws: PlanError.sizeNotPositive(.height(0))) {
            try ExtractionRequest(path: probe.path, probe: probe, plan: plan, size: .height(0))
        }
    }

    @Test("damaged packets in the middle do not abort the strip", arguments: Extractors.all.map(\.name))
    func damagedStream(name: String) async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video("h264-180p-3s")))
        // Overwrite a run of bytes a third of the way in: some frames of the middle GOP break.
        let start = bytes.count / 3
        for offset in start..<start + 1500 { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 97) }
        let path = folder.appendingPathComponent("damaged.mp4").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let probe = try VideoProbe(path: path)
        let request = try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: 15))
        let thumbnails = try await Extractors.named(name)!.thumbnails(for: request).thumbnails
        #expect(thumbnails.count == 15)
        // Frames before and after the damage are still the planned ones.
        #expect(FrameIndexMarker.read(from: thumbnails[0].image!) == request.plan.targets[0].frameIndex)
        #expect(FrameIndexMarker.read(from: thumbnails[14].image!) == request.plan.targets[14].frameIndex)
    }

    @Test("a stream where nothing decodes is a clear error", arguments: Extractors.all.map(\.name))
    func nothingDecodes(name: String) async throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video("h264-180p-3s")))
        // The index sits before the media data (faststart), so the file still opens and probes;
        // every byte of the coded frames is scrambled.
        let mdat = try #require(bytes.range(of: Data("mdat".utf8)))
        for offset in mdat.upperBound..<bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 131 &+ 7) }
        let path = folder.appendingPathComponent("scrambled.mp4").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let probe = try VideoProbe(path: path)
        let request = try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: 5))
        let error = await #expect(throws: MediaError.self) { try await Extractors.named(name)!.thumbnails(for: request) }
        #expect(error?.file == path)
        #expect(error?.reason == .nothingDecodes)
    }

    @Test("cancellation stops promptly", arguments: Extractors.all.map(\.name))
    func cancellation(name: String) async throws {
        let request = try ExtractionConformanceTests.request("h264-180p-3s", count: 90)
        let delivered = Mutex(0)
        // Cancelled from inside the first progress report: deterministic, whatever the machine's
        // speed. By reference, not as the current task: `taskgroup` reports from its decoding
        // threads, which run outside any task. The extraction starts once the reference is kept.
        let cancelTask = Mutex<(@Sendable () -> Void)?>(nil)
        let (gate, opening) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            for await _ in gate { break }
            return try await Extractors.named(name)!.thumbnails(for: request) { done, _ in
                delivered.withLock { $0 = done }
                if done == 1 { cancelTask.withLock { $0 }?() }
            }
        }
        cancelTask.withLock { $0 = { task.cancel() } }
        opening.yield()
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(delivered.withLock { $0 } < 90)
    }

    @Test("thumbnails delivered concurrently and out of order reach the consumer in plan order")
    func concurrentDeliveryKeepsPlanOrder() async throws {
        let total = 400
        let received = Mutex<[Int]>([])
        let delivery = ThumbnailDelivery(total: total) { thumbnail in received.withLock { $0.append(thumbnail.slot) } }
        let time = Timestamp(pts: 0, timeBase: Rational(1, 30))
        await withTaskGroup(of: Void.self) { group in
            // Four workers deliver interleaved slots in reverse order within their share.
            for worker in 0..<4 {
                group.addTask {
                    for slot in stride(from: total - 4 + worker, through: 0, by: -4) {
                        delivery.deliver(Thumbnail(slot: slot, requestedTime: time, actualTime: time, frameIndex: 0,
                                                   substituted: false, image: nil))
                    }
                }
            }
        }
        #expect(received.withLock { $0 } == Array(0..<total))
        #expect(delivery.isComplete)
    }

    @Test("the consumer runs without the delivery's lock: a slow one stalls no worker, a re-entrant one does not deadlock")
    func consumerRunsOutsideTheLock() {
        let time = Timestamp(pts: 0, timeBase: Rational(1, 30))
        @Sendable func thumbnail(_ slot: Int) -> Thumbnail {
            Thumbnail(slot: slot, requestedTime: time, actualTime: time, frameIndex: slot, substituted: false, image: nil)
        }
        // Slow: the consumer of slot 0 waits until another worker has delivered slot 1, which it
        // can only do if delivering does not wait for the consumer.
        let slowReceived = Mutex<[Int]>([])
        let otherWorkerDone = DispatchSemaphore(value: 0)
        let waited = Mutex<DispatchTimeoutResult?>(nil)
        let slow = ThumbnailDelivery(total: 2) { delivered in
            if delivered.slot == 0 { waited.withLock { $0 = otherWorkerDone.wait(timeout: .now() + 10) } }
            slowReceived.withLock { $0.append(delivered.slot) }
        }
        let workers = DispatchGroup()
        DispatchQueue.global().async(group: workers) { slow.deliver(thumbnail(0)) }
        DispatchQueue.global().async(group: workers) {
            slow.deliver(thumbnail(1))
            otherWorkerDone.signal()
        }
        workers.wait()
        #expect(waited.withLock { $0 } == .success)
        #expect(slowReceived.withLock { $0 } == [0, 1])
        // Re-entrant: the consumer delivers the next slot from inside its own call.
        let reentrantReceived = Mutex<[Int]>([])
        let holder = Mutex<ThumbnailDelivery?>(nil)
        let reentrant = ThumbnailDelivery(total: 5) { delivered in
            reentrantReceived.withLock { $0.append(delivered.slot) }
            if delivered.slot < 4 { holder.withLock { $0 }?.deliver(thumbnail(delivered.slot + 1)) }
        }
        holder.withLock { $0 = reentrant }
        reentrant.deliver(thumbnail(0))
        #expect(reentrantReceived.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(reentrant.isComplete)
    }

    @Test("results stream in plan order as an AsyncSequence")
    func asyncSequence() async throws {
        let request = try ExtractionConformanceTests.request("vp9-180p-2s", count: 6)
        var slots: [Int] = []
        for try await thumbnail in TaskGroupExtractor().stream(for: request) { slots.append(thumbnail.slot) }
        #expect(slots == Array(0..<6))
    }
}

import Synchronization
