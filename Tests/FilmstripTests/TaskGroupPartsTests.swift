import Testing
@testable import Filmstrip

@Suite("taskgroup work split")
struct TaskGroupPartsTests {
    @Test func contiguousCutsMoveToKeyframeChanges() {
        // Ten targets in three GOPs (keyframes 0, 100, 200): the nominal cut at 5 sits inside
        // the second GOP; the nearest change is at 4 (keyframe 0 → 100).
        let keyframes: [Int64] = [0, 0, 0, 0, 100, 100, 100, 200, 200, 200]
        #expect(TaskGroupExtractor.contiguousParts(of: keyframes, workers: 2) == [0..<4, 4..<10])
        #expect(TaskGroupExtractor.contiguousParts(of: keyframes, workers: 3) == [0..<4, 4..<7, 7..<10])
    }

    @Test func oneGOPKeepsTheNominalCutAndEveryTargetIsCovered() {
        let keyframes = [Int64](repeating: 0, count: 9)
        #expect(TaskGroupExtractor.contiguousParts(of: keyframes, workers: 2) == [0..<4, 4..<9])
        for workers in 1...12 {
            let parts = TaskGroupExtractor.contiguousParts(of: [0, 0, 10, 10, 10, 20, 30, 30], workers: workers)
            #expect(parts.flatMap { Array($0) } == Array(0..<8), "workers \(workers)")
        }
        #expect(TaskGroupExtractor.contiguousParts(of: [7], workers: 4) == [0..<1])
    }

    @Test func keyframeRunsAreMaximal() {
        #expect(TaskGroupExtractor.keyframeRuns(of: [0, 0, 10, 20, 20, 20]) == [0..<2, 2..<3, 3..<6])
        #expect(TaskGroupExtractor.keyframeRuns(of: [5]) == [0..<1])
        #expect(TaskGroupExtractor.keyframeRuns(of: []) == [])
    }

    @Test func manyGOPsAreQueuedCostliestFirst() {
        // Five GOPs of 100 frames; a run costs the frames from its keyframe to its last target,
        // a seek, and a fifth of a frame per target (GOPCostModel).
        let targets: [(frame: Int64, keyframe: Int64)] = [
            (10, 0), (20, 0),          // 21 frames: 22.4
            (190, 100),                // 91 frames: 92.2
            (250, 200),                // 51 frames: 52.2
            (310, 300), (390, 300),    // 91 frames, two targets: 92.4
            (405, 400),                // 6 frames: 7.2
        ]
        let parts = TaskGroupExtractor.parts(of: targets, workers: 2)
        #expect(parts == [4..<6, 2..<3, 3..<4, 0..<2, 6..<7])
        #expect(parts.flatMap { Array($0) }.sorted() == Array(0..<7))
    }

    @Test func oneGOPIsNotCutForLittle() {
        // A cut inside a GOP makes the second worker decode it from its keyframe anyway: with a
        // target on every frame the first worker takes the scaling of its four off the other,
        // 6 % by the model, less than a GOP's start decoded twice must save.
        let targets: [(frame: Int64, keyframe: Int64)] = (0..<9).map { (Int64($0), 0) }
        #expect(TaskGroupExtractor.parts(of: targets, workers: 2) == [0..<9])
        #expect(TaskGroupExtractor.parts(of: [(10, 0), (200, 0)], workers: 2) == [0..<2])
        // Three targets of one long GOP and a far later one: no cut either.
        #expect(TaskGroupExtractor.parts(of: [(0, 0), (1, 0), (2, 0), (900, 0)], workers: 2) == [0..<4])
    }
}
