import CLITestSupport
import Filmstrip
import Foundation
import Testing
@testable import FilmstripBench

/// The work counters the gate compares exactly must be the same in every run of the same work:
/// an A/A run (one executable on both sides) once failed on `heap_allocations 5912 → 5913`, and
/// `taskgroup` read 151110 bytes of a VP9 video in one run and 166662 in the next.
@Suite(.serialized) struct WorkCounterDeterminismTests {
    /// One configuration per extractor on the VP9 video where the bytes moved, each run in four
    /// `bench-run` children per build of an A/A run: frames, packets, the video's bytes and seeks
    /// identical in all eight, allocations too for one worker (`taskgroup`'s two get the
    /// tolerance); and `compare` finds no work changed.
    @Test func countersAreTheSameInEveryRun() throws {
        let folder = try CLISupport.scratchDirectory()
        let name = folder.appendingPathComponent("aa").path
        let executable = CLIProcess.executable.path
        let result = try CLISupport.run(["bench", "--videos", "vp9-180p-2s", "--extractors", "sequential,forward,scan,taskgroup",
                                         "--composers", "rowcopy", "--counts", "10", "--repetitions", "4", "--warmup", "0",
                                         "--workers", "2", "--pipelines-only", "--no-until-decided", "--out", name,
                                         "--fixtures-dir", CLISupport.fixturesDirectory, "--baseline-binary", executable])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv").filter { $0.phase != .compose }
        let pipelines = Set(rows.map(\.pipeline))
        #expect(pipelines.count == 4, "\(pipelines)")
        for key in Set(rows.map(\.configurationKey)) {
            let runs = rows.filter { $0.configurationKey == key }
            #expect(runs.count == 8 && runs.allSatisfy { $0.status == .ok }, "\(key)")
            for counter in WorkCounter.allCases where counter != .heapAllocations {
                let values = Set(runs.map { counter.value(in: $0) })
                #expect(values.count == 1 && values.first! != nil, "\(key) \(counter.rawValue): \(values)")
            }
            // Parallel allocations are left to the tolerance: besides the race's few, a worker that
            // found every GOP taken never decoded (12 of 720 quick-suite runs: 120 to 176 allocations fewer).
            let allocations = runs.compactMap(\.heapAllocations)
            let tolerance = WorkCounter.heapAllocations.tolerance(baseline: runs, candidate: [])
            #expect(key.extractor == "taskgroup" ? tolerance > 0 : tolerance == 0, "\(key)")
            #expect(allocations.count == 8 && (tolerance > 0 || Set(allocations).count == 1), "\(key): \(allocations)")
        }
        let compare = try CLISupport.run(["compare", name + "-raw.csv", "--metric", "cpu_s"])
        #expect(!compare.standardOutput.contains("work changed"), "\(compare.standardOutput)")
    }

    /// Exact counters have no tolerance; allocations of one worker neither; of parallel work
    /// (several workers, or a phase that does not say) 1 % plus 8.
    @Test func toleranceIsZeroButForParallelAllocations() {
        func row(workers: Int?, allocations: Int) -> RawResultRow {
            var row = SampleResults.rows(machines: [SampleResults.fastMachine], phases: [workers == nil ? .compose : .extract])[0]
            row.heapAllocations = allocations
            row.bound = workers.map { PhaseBound(startupCPUSeconds: nil, cpuOverCoresSeconds: 0.01, longestWorkerSeconds: 0.01, workers: $0) }
            return row
        }
        let single = [row(workers: 1, allocations: 5000)], parallel = [row(workers: 2, allocations: 5000)]
        for counter in WorkCounter.allCases where counter != .heapAllocations {
            #expect(counter.tolerance(baseline: parallel, candidate: parallel) == 0)
        }
        #expect(WorkCounter.heapAllocations.tolerance(baseline: single, candidate: single) == 0)
        #expect(WorkCounter.heapAllocations.tolerance(baseline: parallel, candidate: single) == 58)
        #expect(WorkCounter.heapAllocations.tolerance(baseline: [row(workers: nil, allocations: 60)], candidate: []) == 8)
    }
}
