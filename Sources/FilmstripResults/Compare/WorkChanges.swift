import Foundation

extension RegressionGate {
    /// Counter changes between the builds, per configuration: any difference when each side
    /// is constant. A counter that varies within a build (threads racing for a task
    /// allocation) counts as changed only when the ranges are further apart than that spread.
    ///
    /// Work that several decoding workers shared (a row says `workers` > 1) is scheduled: which
    /// worker takes which GOP decides how often one seeks and what its decoder allocates (A/A on
    /// the quick suite: seeks 2 → 3, heap allocations 5923 → 6031 between two pairs). Its counters
    /// are judged like times, on evidence: in a paired run, the betting evidence
    /// (``BettingEvidence``) that the candidate's counts are higher, pair by pair, over all such
    /// counters at once by e-Benjamini–Hochberg at the gate's level; a change without that
    /// evidence is shown, not gated. Separate runs have no pairs, so there such a change is shown
    /// only. Counters of work done by one worker stay exact.
    func workChanges(baseline: [RawResultRow], candidate: [RawResultRow], paired: Bool = true) -> [WorkChange] {
        let before = Dictionary(grouping: baseline.filter { $0.status == .ok }, by: \.configurationKey)
        let after = Dictionary(grouping: candidate.filter { $0.status == .ok }, by: \.configurationKey)
        var changes: [WorkChange] = []
        // Scheduled counters: every one tested is a member of the e-BH family, changed or not.
        var scheduled: [(change: WorkChange, evidence: Double, visible: Bool)] = []
        // An interactive step's counts race with its clock (which requests a drag supersedes,
        // which pool decoder takes which frame): shown in its rows, never gated.
        for key in Set(before.keys).intersection(after.keys).sorted() where key.kind != .interactive {
            let rows = before[key]! + after[key]!
            // Under callgrind the threads run one at a time, and the allocations of parallel work
            // moved beyond their time-run tolerance (A/A: the taskgroup composer 63 → 74); the
            // instruction gate counts malloc's own instructions, so an instruction run's allocation
            // counts are shown in its rows but not gated.
            let instrumented = rows.contains { $0.instructions != nil }
            let isScheduled = rows.contains { ($0.bound?.workers ?? 0) > 1 }
            for counter in WorkCounter.allCases where !(instrumented && counter == .heapAllocations) {
                let old = before[key]!.compactMap(counter.value(in:)), new = after[key]!.compactMap(counter.value(in:))
                guard let oldLow = old.min(), let oldHigh = old.max(), let newLow = new.min(), let newHigh = new.max() else { continue }
                var change = WorkChange(key: key, counter: counter, baseline: oldLow...oldHigh, candidate: newLow...newHigh)
                let spread = max(oldHigh - oldLow, newHigh - newLow, counter.tolerance(baseline: before[key]!, candidate: after[key]!))
                let visible = newLow > oldHigh + spread || newHigh < oldLow - spread
                if isScheduled {
                    change.gated = false
                    change.scheduled = true
                    let evidence = paired ? Self.counterEvidence(counter, before: before[key]!, after: after[key]!) : 1
                    scheduled.append((change, evidence, visible))
                } else if visible {
                    changes.append(change)
                }
            }
        }
        let evidenced = BettingEvidence.rejected(eValues: scheduled.map(\.evidence), alpha: 1 - level)
        for (index, entry) in scheduled.enumerated() {
            var change = entry.change
            if evidenced.contains(index) {
                change.gated = true
                change.grew = true
            } else if !entry.visible {
                continue
            }
            changes.append(change)
        }
        let order = { (change: WorkChange) in WorkCounter.allCases.firstIndex(of: change.counter)! }
        return changes.sorted { $0.key != $1.key ? $0.key < $1.key : order($0) < order($1) }
    }

    /// The betting evidence that a scheduled counter is higher in the candidate, over the pairs of
    /// the same repetition in the order measured (log of (count + 1) ratios: a count may be 0).
    static func counterEvidence(_ counter: WorkCounter, before: [RawResultRow], after: [RawResultRow]) -> Double {
        let baseline = Dictionary(before.compactMap { row in counter.value(in: row).map { (row.repetition, $0) } }, uniquingKeysWith: { first, _ in first })
        let candidate = Dictionary(after.compactMap { row in counter.value(in: row).map { (row.repetition, $0) } }, uniquingKeysWith: { first, _ in first })
        let ratios = baseline.keys.filter { candidate[$0] != nil }.sorted().map { log(Double(candidate[$0]! + 1) / Double(baseline[$0]! + 1)) }
        return BettingEvidence.eValue(ratios, shift: 0, direction: 1, floor: log(1.01))
    }
}

/// A count of work that does not depend on the machine's speed.
package enum WorkCounter: String, Sendable, Hashable, CaseIterable {
    case framesDecoded = "frames_decoded"
    case packetsRead = "packets_read"
    case videoBytes = "video_bytes"
    case seeks
    case heapAllocations = "heap_allocations"

    /// How far the counter may move between runs of the same work: 0 (it is exact) but for
    /// heap allocations of parallel work. Frames, packets, the video's bytes and seeks are the
    /// library's own counts, and each GOP costs the same whichever worker decodes it. One
    /// worker's allocations are exact too; with several, which worker takes which GOP and
    /// which runtime thread runs which task is a race, and the count moves with it (each
    /// worker's decoder keeps pools sized by the GOPs it took, and a worker that found every
    /// GOP taken never decodes). Measured A/A spread of such configurations on the quick suite
    /// (20 two-build runs, 720 taskgroup extractions): up to 10 allocations, and 120 to 176
    /// fewer in the 12 runs where a worker decoded nothing, which the gate's within-build spread
    /// covers; on the full suite 0.72 % (taskgroup, av1-360p-5s ×100: 5590…5630). The tolerance
    /// is 1 % of the count plus 8. Rows that say they ran one worker are exact.
    package func tolerance(baseline: [RawResultRow], candidate: [RawResultRow]) -> Int {
        guard self == .heapAllocations else { return 0 }
        let rows = baseline + candidate
        // Decoding phases say how many workers ran; every other phase may be parallel (composers).
        if rows.allSatisfy({ ($0.bound?.workers).map { $0 <= 1 } ?? false }) { return 0 }
        let count = rows.compactMap(\.heapAllocations).max() ?? 0
        return count / 100 + 8
    }

    func value(in row: RawResultRow) -> Int? {
        switch self {
        case .framesDecoded: row.framesDecoded
        case .packetsRead: row.packetsRead
        case .videoBytes: row.videoBytes
        case .seeks: row.seeks
        case .heapAllocations: row.heapAllocations
        }
    }
}

/// A counter that changed for one configuration.
package struct WorkChange: Sendable, Hashable {
    package var key: ConfigurationKey
    package var counter: WorkCounter
    package var baseline: ClosedRange<Int>
    package var candidate: ClosedRange<Int>
    /// `true` when the candidate does more of it: all its counts above the baseline's, or, for
    /// scheduled work, evidence that they are higher.
    package var grew: Bool
    /// `false` for a change that cannot fail the gate: scheduled work without evidence.
    package var gated = true
    /// The work was shared by several workers, so its counts move with the scheduling.
    package var scheduled = false

    package init(key: ConfigurationKey, counter: WorkCounter, baseline: ClosedRange<Int>, candidate: ClosedRange<Int>) {
        self.key = key
        self.counter = counter
        self.baseline = baseline
        self.candidate = candidate
        grew = candidate.lowerBound > baseline.upperBound
    }
}
