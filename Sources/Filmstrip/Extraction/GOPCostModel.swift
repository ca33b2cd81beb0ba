/// Predicts the decoding work of the parts of a plan and the wall time of a schedule of them,
/// so `TaskGroupExtractor` can choose its parts, its worker count and its codec threads
/// before it decodes anything.
///
/// The unit of work is one decoded frame of the video. A part (a contiguous range of the
/// plan's distinct targets) costs, for every GOP run inside it, the frames from the run's
/// keyframe to its last target (every one of them must be decoded, in order), plus a seek per
/// run and the scaling of each target. The frame counts come from the probe's frame table,
/// which every plan already has, so the model costs nothing to evaluate.
struct GOPCostModel: Sendable {
    /// Display-order frame indices of one distinct target and of the keyframe it is decoded from.
    struct Target: Sendable, Hashable {
        var frame: Int
        var keyframe: Int
    }

    /// How a plan is shared out: parts in the order workers take them, and who takes them.
    struct Schedule: Sendable, Equatable {
        var parts: [Range<Int>]
        var workers: Int
        /// Codec threads per worker's decoder.
        var codecThreads: Int
        /// Predicted wall time in decoded frames (of one core).
        var predictedFrames: Double
    }

    /// Scaling one decoded frame into a thumbnail, in decoded frames (swscale's area filter from
    /// 1080p to 64 px high takes about a fifth of an H.264 frame's decode).
    static let renderCost = 0.2
    /// Seeking and flushing the decoder before a GOP run.
    static let seekCost = 1.0
    /// Opening a worker's own input and decoder.
    static let workerStartCost = 2.0
    /// Among worker counts whose predictions are this close, the fewest win (less memory,
    /// fewer switches, and the model is not that exact).
    static let tieMargin = 0.02
    /// More workers than cores only pays when the OS's time slicing evens out the tail: each
    /// extra worker holds another decoder (about 25 MB at 1080p), so it must save this much.
    /// The workers decode on threads of their own (`DecodingThread`), not on Swift's
    /// cooperative pool (one thread per core), so all K do run at once, sharing the cores.
    static let oversubscriptionMargin = 0.05
    /// Codec threads are only worth their start-up and memory when they cut the predicted
    /// time by at least this much.
    static let codecThreadsMargin = 0.10
    /// Cutting a GOP run between workers decodes its start twice (CPU another process on the
    /// machine could have used), so the cut must save at least this much; measured on 2 cores,
    /// one GOP of 118 720p frames cut in two for a predicted 5 % took 1.3x as long as one worker.
    static let splitMargin = 0.10
    /// At most this many workers per core: each worker holds a decoder, so memory grows with workers.
    static let workersPerCoreLimit = 2

    let targets: [Target]

    /// The maximal runs of consecutive targets that share a keyframe (one GOP each).
    let runs: [Range<Int>]

    /// The GOP runs, costliest first (earlier first among equals): the longest runs start
    /// first, so the ones that decide when the walk ends are the short ones.
    private(set) var runsCostliestFirst: [Range<Int>]

    init(targets: [Target]) {
        self.targets = targets
        var runs: [Range<Int>] = []
        var start = 0
        for index in targets.indices.dropFirst() where targets[index].keyframe != targets[index - 1].keyframe {
            runs.append(start..<index)
            start = index
        }
        if !targets.isEmpty { runs.append(start..<targets.count) }
        self.runs = runs
        runsCostliestFirst = []
        let costs = runs.map(cost(of:))
        runsCostliestFirst = runs.indices.sorted { (costs[$0], -$0) > (costs[$1], -$1) }.map { runs[$0] }
    }

    /// The work of decoding `part` with one single-threaded decoder.
    func cost(of part: Range<Int>) -> Double {
        guard !part.isEmpty else { return 0 }
        var frames = 0.0, seeks = 0.0
        var runStart = part.lowerBound
        for index in part where index == part.upperBound - 1 || targets[index + 1].keyframe != targets[index].keyframe {
            // A part that starts inside a GOP still decodes it from its keyframe.
            frames += Double(targets[index].frame - targets[runStart].keyframe + 1)
            seeks += 1
            runStart = index + 1
        }
        return frames + seeks * Self.seekCost + Double(part.count) * Self.renderCost
    }

    /// Speed-up of one decoder with `threads` codec (frame) threads over one thread:
    /// 1 + 0.3 (threads - 1), fitted to the 16-core measurements (`workers-threads-xeon-16c.txt`:
    /// 1 worker with 16 threads 5.45x one thread; 2x8, 4x4, 8x2 give 3.2x, 1.7-1.9x, 1.3x per worker).
    static func codecThreadSpeedup(_ threads: Int) -> Double { 1 + 0.3 * Double(max(1, threads) - 1) }

    /// Wall time of `costs`, taken in this order from a shared queue by `workers` workers on
    /// `cores` cores. While more workers are busy than there are cores, the OS shares the cores
    /// out evenly (each busy worker runs at cores / busy of one core); every worker pays
    /// `workerStartCost` before its first part.
    static func makespan(of costs: [Double], workers: Int, cores: Int) -> Double {
        let workers = max(1, min(workers, costs.count))
        var queue = costs[...]
        var remaining: [Double] = []
        for _ in 0..<workers { remaining.append(workerStartCost + queue.popFirst()!) }
        var now = 0.0
        while !remaining.isEmpty {
            let rate = min(1, Double(cores) / Double(remaining.count))
            let step = remaining.min()! / rate
            now += step
            var next: [Double] = []
            for work in remaining {
                let left = work - step * rate
                if left > 1e-9 {
                    next.append(left)
                } else if let cost = queue.popFirst() {
                    next.append(cost)
                }
            }
            remaining = next
        }
        return now
    }

    /// The targets cut into `workers` contiguous parts of about equal size, each cut moved to
    /// the nearest keyframe change: a cut inside a GOP makes two workers decode the start of
    /// the same GOP, which only pays when there are fewer GOPs than workers.
    func contiguousParts(workers: Int) -> [Range<Int>] {
        let count = targets.count
        var cuts = [0]
        for part in 1..<max(1, workers) {
            let nominal = count * part / workers
            let low = max(cuts.last! + 1, count * (part - 1) / workers + 1)
            let high = count * (part + 1) / workers
            let boundaries = (low..<max(low, high)).filter { $0 > 0 && $0 < count && targets[$0].keyframe != targets[$0 - 1].keyframe }
            let cut = boundaries.min { abs($0 - nominal) < abs($1 - nominal) } ?? nominal
            cuts.append(max(cuts.last!, cut))
        }
        cuts.append(count)
        return zip(cuts, cuts.dropFirst()).map { $0..<$1 }.filter { !$0.isEmpty }
    }

    /// The better of the two ways to share the plan among exactly `workers` workers: the GOP
    /// runs from a queue, costliest first, or `workers` contiguous parts.
    func schedule(workers: Int, cores: Int, codecThreads: Int = 1) -> Schedule {
        let speedup = Self.codecThreadSpeedup(codecThreads)
        // Frame threads delay the first frame by one frame per extra thread.
        func predicted(_ parts: [Range<Int>], cores: Int) -> Double {
            Self.makespan(of: parts.map { (cost(of: $0) + Double(codecThreads - 1)) / speedup }, workers: workers, cores: cores)
        }
        // A worker with codec threads has that many cores of its own.
        let effectiveCores = max(1, cores / max(1, codecThreads))
        let queued = runsCostliestFirst
        let split = contiguousParts(workers: workers)
        let queuedTime = predicted(queued, cores: effectiveCores)
        let splitTime = predicted(split, cores: effectiveCores)
        // The queue wins near-ties: it never decodes a GOP twice and absorbs runs that cost
        // more than predicted.
        return splitTime < queuedTime * (1 - Self.splitMargin)
            ? Schedule(parts: split, workers: min(workers, split.count), codecThreads: codecThreads, predictedFrames: splitTime)
            : Schedule(parts: queued, workers: min(workers, queued.count), codecThreads: codecThreads, predictedFrames: queuedTime)
    }

    /// `parts` (in the order a shared queue hands them out) dealt to `workers` workers before
    /// decoding: each part, in order, to the worker with the least predicted work so far (the
    /// first among equals), which is what the queue does when every worker runs at the predicted
    /// speed. Each worker's parts come in the order it decodes them; every part is in one share.
    func fixedShares(of parts: [Range<Int>], workers: Int) -> [[Range<Int>]] {
        var shares = Array(repeating: [Range<Int>](), count: max(1, workers))
        var load = Array(repeating: 0.0, count: shares.count)
        for part in parts {
            let worker = load.indices.min { (load[$0], $0) < (load[$1], $1) }!
            shares[worker].append(part)
            load[worker] += cost(of: part)
        }
        return shares
    }

    /// The schedule with the least predicted wall time on `cores` cores, trying every worker
    /// count up to `workersPerCoreLimit` per core, with codec threads on the cores a count leaves
    /// idle (ties within `tieMargin` go to fewer workers; more workers than cores must save
    /// `oversubscriptionMargin`).
    func bestSchedule(cores: Int) -> Schedule {
        let cores = max(1, cores)
        guard !targets.isEmpty else { return Schedule(parts: [], workers: 1, codecThreads: 1, predictedFrames: 0) }
        // Each worker count with single-threaded decoders, and, where that leaves cores idle,
        // with the idle cores as codec threads (which must save `codecThreadsMargin` over the
        // same count without them).
        func fewestOfTheFastest(_ counts: ClosedRange<Int>) -> Schedule {
            var candidates: [Schedule] = []
            for workers in counts {
                let plain = schedule(workers: workers, cores: cores)
                let threads = cores / max(1, plain.workers)
                let threaded = threads > 1 ? schedule(workers: plain.workers, cores: cores, codecThreads: threads) : plain
                candidates.append(threaded.predictedFrames < plain.predictedFrames * (1 - Self.codecThreadsMargin) ? threaded : plain)
            }
            let fastest = candidates.map(\.predictedFrames).min()!
            return candidates.first { $0.predictedFrames <= fastest * (1 + Self.tieMargin) }!
        }
        let most = max(1, min(targets.count, Self.workersPerCoreLimit * cores))
        let best = fewestOfTheFastest(1...min(cores, most))
        if most > cores {
            let oversubscribed = fewestOfTheFastest(cores + 1...most)
            if oversubscribed.predictedFrames < best.predictedFrames * (1 - Self.oversubscriptionMargin) { return oversubscribed }
        }
        return best
    }
}
