import Foundation
import Synchronization
import Testing
@testable import Filmstrip

@Suite("Core budget: a batch's idle cores go to running videos only when none waits to start")
struct CoreBudgetTests {
    @Test("an idle core is taken at once when no video waits; released, it is idle again")
    func idleCoreTakenAtOnce() async {
        let budget = CoreBudget(cores: 2)
        budget.startVideo(claiming: 1, videosStillWaiting: 0)
        let extraction = budget.openExtraction()
        #expect(await budget.takeIdleCore(for: extraction))
        #expect(budget.idleCores == 0)
        budget.release()
        #expect(budget.idleCores == 1)
        budget.close(extraction)
    }

    @Test("a standby worker waits while videos wait to start, and gets the core once none does")
    func videosFirst() async {
        let budget = CoreBudget(cores: 2)
        budget.startVideo(claiming: 1, videosStillWaiting: 1)
        budget.startVideo(claiming: 1, videosStillWaiting: 1)
        let extraction = budget.openExtraction()
        let answer = Mutex<Bool?>(nil)
        let waiter = Task {
            let granted = await budget.takeIdleCore(for: extraction)
            answer.withLock { $0 = granted }
        }
        // A video finishes while another still waits: its core is kept for that video.
        budget.finishVideo(releasing: 1, videosStillWaiting: 1)
        try? await Task.sleep(for: .milliseconds(50))
        #expect(answer.withLock { $0 } == nil)
        #expect(budget.idleCores == 1)
        // The waiting video starts (no more after it) and another finishes: now the standby worker gets a core.
        budget.startVideo(claiming: 1, videosStillWaiting: 0)
        budget.finishVideo(releasing: 1, videosStillWaiting: 0)
        await waiter.value
        #expect(answer.withLock { $0 } == true)
        #expect(budget.idleCores == 0)
        budget.release()
        budget.close(extraction)
    }

    @Test("closing an extraction lets its waiting workers go with no core, and later asks get none")
    func closeDismisses() async {
        let budget = CoreBudget(cores: 1)
        budget.startVideo(claiming: 1, videosStillWaiting: 0)
        let extraction = budget.openExtraction(), other = budget.openExtraction()
        let waiter = Task { await budget.takeIdleCore(for: extraction) }
        let otherWaiter = Task { await budget.takeIdleCore(for: other) }
        try? await Task.sleep(for: .milliseconds(20))
        budget.close(extraction)
        #expect(await waiter.value == false)
        #expect(await budget.takeIdleCore(for: extraction) == false)
        // The other extraction's worker still waits, and gets the core its video gives back.
        budget.finishVideo(releasing: 1, videosStillWaiting: 0)
        #expect(await otherWaiter.value == true)
        budget.release()
        budget.close(other)
        #expect(budget.idleCores == 1)
    }

    @Test("a video given the batch's idle cores uses more workers and makes the same strip")
    func extractorTakesIdleCores() async throws {
        let path = try TestSupport.video("h264-180p-3s")
        let probe = try VideoProbe(path: path)
        let plan = try SamplePlan(probe: probe, count: 12)
        let request = try ExtractionRequest(path: path, probe: probe, plan: plan,
                                            options: ExtractionOptions(skipNonReferenceFrames: true, workers: 1))
        let alone = try await Pipeline(extractor: TaskGroupExtractor(), destination: .canvas).run(request)
        // Four cores, the video holds one, no other video waits: three more workers may join.
        let budget = CoreBudget(cores: 4)
        budget.startVideo(claiming: 1, videosStillWaiting: 0)
        let shared = try await Pipeline(extractor: TaskGroupExtractor(sharing: budget), destination: .canvas).run(request)
        budget.finishVideo(releasing: 1, videosStillWaiting: 0)
        #expect(alone.counters.workers == 1)
        // How many join depends on how soon their tasks run (the first worker may take every
        // GOP run first on a busy machine); the pixels may not depend on it.
        #expect((1...3).contains(shared.counters.workers))
        #expect(shared.strip.pixels == alone.strip.pixels)
        #expect(budget.idleCores == 4)
    }
}
