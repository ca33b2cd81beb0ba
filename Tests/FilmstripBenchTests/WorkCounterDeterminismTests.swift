import CLITestSupport
import Filmstrip
import Foundation
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

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
            #expect(key.pipeline.extractor == "taskgroup" ? tolerance > 0 : tolerance == 0, "\(key)")
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

    /// A two-build run of one configuration decoded by `workers` workers, `pairs` repetitions,
    /// its counters per build and repetition from `seeks` and `allocations`.
    private func scheduledRows(pipeline: String, workers: Int, pairs: Int,
                               seeks: (BuildRole, Int) -> Int, allocations: (BuildRole, Int) -> Int) -> [RawResultRow] {
        (0..<pairs).flatMap { repetition in
            BuildRole.allCases.map { build in
                var row = Fixtures.row(pipeline: pipeline, phase: .extract, repetition: repetition, wall: 0.2)
                row.build = build
                row.packetsRead = 300
                row.videoBytes = 150_000
                row.seeks = seeks(build, repetition)
                row.heapAllocations = allocations(build, repetition)
                row.bound = PhaseBound(startupCPUSeconds: nil, cpuOverCoresSeconds: 0.1, longestWorkerSeconds: 0.1, workers: workers)
                return row
            }
        }
    }

    /// Issue 37: the same binary on both sides, `--repetitions 2`, failed on task-group rows
    /// (`seeks 2 → 3`, `heap_allocations 5923 → 6031`): which worker takes which GOP decides them.
    /// Two pairs are no evidence: shown, not gated. One worker's counters stay exact: one
    /// allocation more fails; and scheduled counters that are higher pair after pair fail too.
    @Test func countersOfScheduledWorkNeedEvidence() throws {
        let gate = RegressionGate(metric: .wallSeconds)
        let noise = scheduledRows(pipeline: "taskgroup+rowcopy", workers: 2, pairs: 2,
                                  seeks: { build, _ in build == .baseline ? 2 : 3 },
                                  allocations: { build, _ in build == .baseline ? 5923 : 6031 })
        let aa = gate.comparePaired(noise)
        #expect(aa.outcome.exitCode != 2, "\(aa.text)")
        #expect(aa.workChanges.count == 2 && aa.workChanges.allSatisfy { $0.scheduled && !$0.gated }, "\(aa.workChanges)")
        #expect(WrappedText.joined(aa.text).contains { $0.contains("seeks 2 → 3 (not gated: work shared by several workers") }, "\(aa.text)")

        let single = scheduledRows(pipeline: "sequential+rowcopy", workers: 1, pairs: 2, seeks: { _, _ in 2 },
                                   allocations: { build, _ in build == .baseline ? 5000 : 5001 })
        let grew = gate.comparePaired(single)
        #expect(grew.outcome.exitCode == 2 && grew.workChanges.map(\.counter) == [.heapAllocations] && grew.workChanges[0].gated)

        // One seek more in every pair of 30, the allocations moving with the scheduling either way.
        let moreSeeks = scheduledRows(pipeline: "taskgroup+rowcopy", workers: 2, pairs: 30,
                                      seeks: { build, repetition in 2 + repetition % 2 + (build == .candidate ? 1 : 0) },
                                      allocations: { _, repetition in 5923 + (repetition * 37) % 110 })
        let caught = gate.comparePaired(moreSeeks)
        #expect(caught.outcome.exitCode == 2, "\(caught.text)")
        let change = try #require(caught.workChanges.first { $0.counter == .seeks })
        #expect(change.gated && change.grew && caught.workChanges.count == 1)
        #expect(caught.text.contains("evidence over the pairs that it grew"))
    }
}
