import Testing
@testable import Filmstrip

@Suite("taskgroup work split")
struct TaskGroupPartsTests {
    @Test func cutsMoveToKeyframeChanges() {
        // Ten targets in three GOPs (keyframes 0, 100, 200): the nominal cut at 5 sits inside
        // the second GOP; the nearest change is at 4 (keyframe 0 → 100).
        let keyframes: [Int64] = [0, 0, 0, 0, 100, 100, 100, 200, 200, 200]
        #expect(TaskGroupExtractor.parts(of: keyframes, workers: 2) == [0..<4, 4..<10])
        #expect(TaskGroupExtractor.parts(of: keyframes, workers: 3) == [0..<4, 4..<7, 7..<10])
    }

    @Test func oneGOPKeepsTheNominalCutAndEveryTargetIsCovered() {
        let keyframes = [Int64](repeating: 0, count: 9)
        #expect(TaskGroupExtractor.parts(of: keyframes, workers: 2) == [0..<4, 4..<9])
        for workers in 1...12 {
            let parts = TaskGroupExtractor.parts(of: [0, 0, 10, 10, 10, 20, 30, 30], workers: workers)
            #expect(parts.flatMap { Array($0) } == Array(0..<8), "workers \(workers)")
        }
        #expect(TaskGroupExtractor.parts(of: [7], workers: 4) == [0..<1])
    }
}
