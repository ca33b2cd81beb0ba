import Testing
@testable import Filmstrip

@Suite("GOP cost model: parts, workers and codec threads")
struct GOPCostModelTests {
    /// Targets at the centres of `count` equal parts of a video of `frames` frames with a
    /// keyframe every `gop` frames (the seed's plan: 7320 frames, GOP 250, 500 targets).
    static func plan(frames: Int, gop: Int, count: Int) -> GOPCostModel {
        var targets: [GOPCostModel.Target] = []
        for slot in 0..<count {
            let frame = (2 * slot + 1) * frames / (2 * count)
            if targets.last?.frame != frame { targets.append(GOPCostModel.Target(frame: frame, keyframe: frame / gop * gop)) }
        }
        return GOPCostModel(targets: targets)
    }

    @Test func aPartCostsEveryFrameFromItsKeyframes() {
        let model = GOPCostModel(targets: [.init(frame: 5, keyframe: 0), .init(frame: 9, keyframe: 0), .init(frame: 12, keyframe: 10)])
        // 10 frames and 3 frames, two seeks, three scaled targets.
        #expect(abs(model.cost(of: 0..<3) - (13 + 2 * GOPCostModel.seekCost + 3 * GOPCostModel.renderCost)) < 1e-9)
        // Starting inside the first GOP still decodes it from its keyframe.
        #expect(abs(model.cost(of: 1..<2) - (10 + GOPCostModel.seekCost + GOPCostModel.renderCost)) < 1e-9)
        #expect(model.runs == [0..<2, 2..<3])
    }

    @Test func makespanSharesCoresOutEvenlyWhenOversubscribed() {
        let start = GOPCostModel.workerStartCost
        let equal = [Double](repeating: 100, count: 30)
        // 30 equal runs on 16 workers and 16 cores: two rounds.
        #expect(abs(GOPCostModel.makespan(of: equal, workers: 16, cores: 16) - (200 + start)) < 1e-6)
        // 30 workers on 16 cores: every run at 16/30 of a core, all done at the fluid bound.
        #expect(abs(GOPCostModel.makespan(of: equal, workers: 30, cores: 16) - (100 + start) * 30 / 16) < 1e-6)
        // One worker does everything in turn.
        #expect(abs(GOPCostModel.makespan(of: [3, 4, 5], workers: 1, cores: 4) - (12 + start)) < 1e-6)
    }

    @Test("the seed's plan: one worker per core on 2 cores, every GOP run at once on 16")
    func seedPlan() {
        let model = Self.plan(frames: 7320, gop: 250, count: 500)
        #expect(model.runs.count == 30)
        let work = model.runs.map(model.cost(of:)).reduce(0, +)
        let twoCores = model.bestSchedule(cores: 2)
        // Two workers leave the 30th, short run to one of them: 2.4 % over the work over the
        // cores, which a third worker (another decoder's memory) would save; not enough.
        #expect(twoCores.workers == 2 && twoCores.codecThreads == 1)
        #expect(twoCores.parts.count == 30)
        #expect(twoCores.predictedFrames < work / 2 * 1.03)
        #expect(model.schedule(workers: 3, cores: 2).predictedFrames > twoCores.predictedFrames * (1 - GOPCostModel.oversubscriptionMargin))
        // 30 runs on 16 cores take two rounds with 16 workers; 30 workers end at the fluid bound.
        let sixteenCores = model.bestSchedule(cores: 16)
        #expect(sixteenCores.workers == 30 && sixteenCores.codecThreads == 1)
        #expect(sixteenCores.predictedFrames < model.schedule(workers: 16, cores: 16).predictedFrames * 0.95)
    }

    @Test("15 equal GOP runs on 2 cores: a third worker ends 7 % sooner than two (8 rounds against 7.5)")
    func oddRunsOnTwoCores() {
        let model = Self.plan(frames: 1800, gop: 120, count: 500)
        #expect(model.runs.count == 15)
        let schedule = model.bestSchedule(cores: 2)
        #expect(schedule.workers == 3)
        #expect(schedule.predictedFrames < model.schedule(workers: 2, cores: 2).predictedFrames * 0.95)
    }

    @Test("one GOP run on 2 cores: one worker with two codec threads, not two workers each decoding its start")
    func oneRunOnTwoCores() {
        // h264-720p-60s from 4 s to 7.9 s, 50 thumbnails: one GOP of 118 frames.
        let model = GOPCostModel(targets: (0..<50).map { GOPCostModel.Target(frame: 120 + $0 * 118 / 50, keyframe: 120) })
        let schedule = model.bestSchedule(cores: 2)
        #expect(schedule.workers == 1 && schedule.codecThreads == 2)
    }

    @Test("few GOP runs on many cores: idle cores go to codec threads; keyframes alone do not")
    func fewRuns() {
        let oneGOP = Self.plan(frames: 250, gop: 250, count: 10)
        let schedule = oneGOP.bestSchedule(cores: 16)
        #expect(schedule.workers == 1 && schedule.codecThreads == 16)
        let threeGOPs = Self.plan(frames: 750, gop: 250, count: 30)
        #expect(threeGOPs.bestSchedule(cores: 16).workers == 3)
        #expect(threeGOPs.bestSchedule(cores: 16).codecThreads == 5)
        // Keyframe mode: every target is its own keyframe, one frame each: threads only add delay.
        let keyframes = GOPCostModel(targets: [0, 250, 500].map { GOPCostModel.Target(frame: $0, keyframe: $0) })
        #expect(keyframes.bestSchedule(cores: 16).codecThreads == 1)
    }

    /// Instruction runs deal the parts out before decoding (`ExtractionOptions.fixedWorkerShares`):
    /// as the queue would on an idle machine, each part to the least loaded worker, so the
    /// shares are as even as the runs allow and every part is decoded once.
    @Test("fixed shares: every part once, each to the least loaded worker")
    func fixedShares() {
        // 15 GOP runs of about equal cost (33 or 34 targets each) over 2 workers: 8 and 7, as a queue hands them out.
        let equal = Self.plan(frames: 1800, gop: 120, count: 500)
        let shares = equal.fixedShares(of: equal.runsCostliestFirst, workers: 2)
        #expect(shares.map(\.count).sorted() == [7, 8])
        #expect(shares[0].first == equal.runsCostliestFirst[0] && shares[1].first == equal.runsCostliestFirst[1])
        // Runs of 10, 6, 5 and 4 frames: 10 | 6, then the 5 and the 4 each go where the load is least (6+5, then 10+4).
        let uneven = GOPCostModel(targets: [(9, 0), (15, 10), (20, 16), (24, 21)].map { GOPCostModel.Target(frame: $0.0, keyframe: $0.1) })
        let dealt = uneven.fixedShares(of: uneven.runsCostliestFirst, workers: 2)
        #expect(dealt == [[0..<1, 3..<4], [1..<2, 2..<3]], "\(dealt)")
        for workers in [1, 2, 3, 7] {
            let model = Self.plan(frames: 7320, gop: 250, count: 500)
            let parts = model.schedule(workers: workers, cores: 2).parts
            let dealtOut = model.fixedShares(of: parts, workers: workers)
            #expect(dealtOut.count == workers)
            #expect(dealtOut.flatMap { $0 }.sorted { $0.lowerBound < $1.lowerBound } == parts.sorted { $0.lowerBound < $1.lowerBound })
            let loads = dealtOut.map { $0.map(model.cost(of:)).reduce(0, +) }
            // No share exceeds the others by more than its last part: the queue's own bound.
            #expect(loads.max()! - loads.min()! <= parts.map(model.cost(of:)).max()! + 1e-9)
        }
    }

    @Test("every schedule covers every target exactly once", arguments: [1, 2, 3, 7, 16])
    func coverage(cores: Int) {
        for (frames, gop, count) in [(7320, 250, 500), (150, 60, 10), (600, 30, 37), (90, 90, 1)] {
            let schedule = Self.plan(frames: frames, gop: gop, count: count).bestSchedule(cores: cores)
            let covered = schedule.parts.flatMap { Array($0) }.sorted()
            #expect(covered == Array(0..<covered.count) && covered.count == Self.plan(frames: frames, gop: gop, count: count).targets.count)
            #expect(schedule.workers >= 1 && schedule.workers <= max(1, schedule.parts.count))
        }
    }
}
