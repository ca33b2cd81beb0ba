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
        // Five GOPs of 100 ticks; the decode span of each run is its last target minus its keyframe.
        let targets: [(frame: Int64, keyframe: Int64)] = [
            (10, 0), (20, 0),          // span 20
            (190, 100),                // span 90
            (250, 200),                // span 50
            (310, 300), (390, 300),    // span 90 (later: after the equal run above)
            (405, 400),                // span 5
        ]
        let parts = TaskGroupExtractor.parts(of: targets, workers: 2)
        #expect(parts == [2..<3, 4..<6, 3..<4, 0..<2, 6..<7])
        #expect(parts.flatMap { Array($0) }.sorted() == Array(0..<7))
    }

    @Test func fewGOPsFallBackToContiguousParts() {
        let targets: [(frame: Int64, keyframe: Int64)] = (0..<9).map { (Int64($0), 0) }
        #expect(TaskGroupExtractor.parts(of: targets, workers: 2) == [0..<4, 4..<9])
        #expect(TaskGroupExtractor.parts(of: targets, workers: 1) == [0..<9])
    }
}
