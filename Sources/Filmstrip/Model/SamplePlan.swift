/// Why a plan cannot be made; each case reads as a one-line reason.
public enum PlanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The thumbnail count asked for is zero or negative.
    case countNotPositive(Int)
    /// The thumbnail count asked for exceeds `ResourceLimits.maximumThumbnailCount`.
    case countTooLarge(Int)
    /// The thumbnail height or width asked for is zero or negative (pixels).
    case sizeNotPositive(ThumbnailSize)
    /// The range's start (seconds) is not before its end.
    case emptyRange(from: Double, to: Double)
    /// The range (seconds from the video's start) begins before 0 or ends after the video's `duration`.
    case rangeOutsideVideo(from: Double, to: Double, duration: Double)
    /// A tolerance accuracy has a negative `before` or `after`.
    case negativeTolerance

    /// A one-line reason with the offending values, for the tool's error message.
    public var description: String {
        switch self {
        case .countNotPositive(let count): "thumbnail count must be at least 1, got \(count)"
        case .countTooLarge(let count): "thumbnail count must be at most \(ResourceLimits.maximumThumbnailCount), got \(count)"
        case .sizeNotPositive(let size): "thumbnail size must be positive, got \(size)"
        case .emptyRange(let from, let to): "range start \(from) s must be before its end \(to) s"
        case .rangeOutsideVideo(let from, let to, let duration):
            "range \(from)–\(to) s lies outside the video (0–\(duration) s)"
        case .negativeTolerance: "tolerance must not be negative"
        }
    }
}

/// N thumbnails spread evenly over a range of a video, each resolved to the frame it will show.
///
/// Slot `i` of `count` takes the **centre** of the i-th of `count` equal intervals of the
/// range: `from + (i + ½) · (to − from) / count`, floored to the stream's time base. Times
/// are relative to the video's first frame (0 = start time), so streams with a non-zero
/// start time plan the same way. With more slots than frames in the range, neighbouring
/// slots resolve to the same frame and show it twice (the strip keeps its length).
public struct SamplePlan: Sendable, Hashable {
    /// One slot and the frame chosen for it.
    public struct Target: Sendable, Hashable {
        /// Position in the plan, 0-based, which is also the thumbnail's position in the strip.
        public var slot: Int
        /// The slot's time: the centre of its interval of the range, in the stream time base.
        public var requestedTime: Timestamp
        /// Presentation time of the frame to show.
        public var framePts: Int64
        /// Display-order index of that frame in the whole video.
        public var frameIndex: Int
        /// Presentation time of the keyframe to start decoding from.
        public var keyframePts: Int64
    }

    /// Which frames the targets were resolved to: exact, nearest keyframe, or within a tolerance.
    public let accuracy: Accuracy
    /// The range in seconds from the video's start.
    public let from: Rational
    /// End of the range in seconds from the video's start (exclusive).
    public let to: Rational
    /// One target per slot, in slot order.
    public let targets: [Target]
    /// The video stream's time base, in which every target's times are counted.
    public let timeBase: Rational

    /// Number of slots (thumbnails) in the plan.
    public var count: Int { targets.count }

    /// Spreads `count` slots evenly over the range of `probe`'s video and resolves each to a frame with `accuracy`,
    /// using only the probe (no decoding).
    ///
    /// - Parameters:
    ///   - probe: the video's probe; its frame times and keyframes resolve the targets.
    ///   - count: thumbnails, 1...`ResourceLimits.maximumThumbnailCount`.
    ///   - from: start of the range in seconds from the video's start; nil means the start.
    ///   - to: end of the range in seconds from the video's start; nil means the end.
    ///   - accuracy: which frame may stand for each slot's time.
    /// - Throws: `PlanError` for a count, range or tolerance that cannot be planned.
    public init(probe: VideoProbe, count: Int, from: Rational? = nil, to: Rational? = nil,
                accuracy: Accuracy = .exact) throws(PlanError) {
        guard count > 0 else { throw .countNotPositive(count) }
        // Checked here too, not only on the command line: the plan allocates per slot.
        guard count <= ResourceLimits.maximumThumbnailCount else { throw .countTooLarge(count) }
        if case .tolerance(let before, let after) = accuracy, before < .zero || after < .zero { throw .negativeTolerance }
        let duration = probe.duration.seconds
        let start = from ?? .zero, end = to ?? duration
        // Outside first: a time before the end of a shorter video (`--to -30s`) ends before the
        // start, and "outside the video" says why.
        guard start >= .zero, end <= duration, start <= duration, end >= .zero else {
            throw .rangeOutsideVideo(from: start.doubleValue, to: end.doubleValue, duration: duration.doubleValue)
        }
        guard start < end else { throw .emptyRange(from: start.doubleValue, to: end.doubleValue) }
        self.accuracy = accuracy
        self.from = start
        self.to = end
        self.timeBase = probe.timeBase
        let frames = FrameTable(probe: probe)
        let step = (end - start) / Rational(Int64(count))
        targets = (0..<count).map { slot in
            let offset = start + step * (Rational(Int64(slot)) + Rational(1, 2))
            let requested = Timestamp(flooring: probe.startTime.seconds + offset, timeBase: probe.timeBase)
            let frame = frames.choose(for: requested.pts, accuracy: accuracy)
            return Target(slot: slot, requestedTime: requested, framePts: frames.times[frame], frameIndex: frame,
                          keyframePts: frames.keyframe(atOrBefore: frames.times[frame]))
        }
    }

    /// The distinct frames to decode, ascending, each with the slots that show it.
    public var distinctFrames: [(target: Target, slots: [Int])] {
        var result: [(target: Target, slots: [Int])] = []
        for target in targets.sorted(by: { ($0.framePts, $0.slot) < ($1.framePts, $1.slot) }) {
            if let last = result.last, last.target.framePts == target.framePts {
                result[result.count - 1].slots.append(target.slot)
            } else {
                result.append((target, [target.slot]))
            }
        }
        return result
    }
}

/// Frame and keyframe times of one video, searched by binary search.
struct FrameTable {
    let times: [Int64]
    let keyframes: [Int64]
    /// The keyframes that are shown, which alone can stand for a time in keyframe accuracy: a
    /// keyframe an edit list cuts off (pre-roll) starts decoding but is never displayed.
    let shownKeyframes: [Int64]
    let timeBase: Rational

    init(probe: VideoProbe) {
        times = probe.frameTimes
        keyframes = probe.keyframes.isEmpty ? [probe.frameTimes[0]] : probe.keyframes
        let times = probe.frameTimes
        let shown = keyframes.filter { keyframe in Self.lastIndex(in: times, atOrBefore: keyframe).map { times[$0] == keyframe } ?? false }
        shownKeyframes = shown.isEmpty ? keyframes : shown
        timeBase = probe.timeBase
    }

    /// Index of the last element of `values` not greater than `pts`, or nil when all are greater.
    static func lastIndex(in values: [Int64], atOrBefore pts: Int64) -> Int? {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] <= pts { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The frame displayed at `pts`: the last frame starting at or before it (the first frame before the start).
    func exactFrame(at pts: Int64) -> Int { Self.lastIndex(in: times, atOrBefore: pts) ?? 0 }

    func keyframe(atOrBefore pts: Int64) -> Int64 {
        Self.lastIndex(in: keyframes, atOrBefore: pts).map { keyframes[$0] } ?? keyframes[0]
    }

    func choose(for pts: Int64, accuracy: Accuracy) -> Int {
        switch accuracy {
        case .exact:
            return exactFrame(at: pts)
        case .keyframe:
            return exactFrame(at: nearestKeyframe(to: pts, within: nil))
        case .tolerance(let before, let after):
            // Saturating: a tolerance longer than any video must not overflow the window's bounds.
            let lowResult = pts.subtractingReportingOverflow((before / timeBase).floor)
            let highResult = pts.addingReportingOverflow((after / timeBase).floor)
            let low = lowResult.overflow ? Int64.min : lowResult.partialValue
            let high = highResult.overflow ? Int64.max : highResult.partialValue
            // A keyframe in the window decodes alone; otherwise the earliest frame in the window
            // needs the fewest frames decoded after its GOP's keyframe.
            let keyframe = nearestKeyframe(to: pts, within: low...high)
            if keyframe >= low && keyframe <= high { return exactFrame(at: keyframe) }
            let exact = exactFrame(at: pts)
            let earliest = low == .min ? 0 : (Self.lastIndex(in: times, atOrBefore: low - 1).map { $0 + 1 } ?? 0)
            return earliest <= exact && times[earliest] >= low ? earliest : exact
        }
    }

    private func nearestKeyframe(to pts: Int64, within window: ClosedRange<Int64>?) -> Int64 {
        let keyframes = shownKeyframes
        let before = Self.lastIndex(in: keyframes, atOrBefore: pts)
        let candidates = [before, before.map { $0 + 1 } ?? 0].compactMap { $0 }.filter { $0 < keyframes.count }.map { keyframes[$0] }
        let inWindow = window.map { range in candidates.filter(range.contains) } ?? candidates
        // Ties go to the earlier keyframe, which is displayed at the requested time.
        // Distances in 128 bits: timestamps of a damaged file may lie far apart.
        func distance(_ time: Int64) -> Int128 { abs(Int128(time) - Int128(pts)) }
        return (inWindow.isEmpty ? candidates : inWindow).min { distance($0) < distance($1) || (distance($0) == distance($1) && $0 < $1) } ?? keyframes[0]
    }
}

extension SamplePlan {
    /// The plan's slots `range` as a plan of their own, renumbered from 0: `sprite` decodes
    /// one sheet's thumbnails at a time into a sheet-sized canvas, so a file claiming days of
    /// cues never needs the pixels of every tile at once.
    func slots(_ range: Range<Int>) -> SamplePlan {
        SamplePlan(accuracy: accuracy, from: from, to: to, timeBase: timeBase, targets: targets[range].map { target in
            var renumbered = target
            renumbered.slot -= range.lowerBound
            return renumbered
        })
    }

    private init(accuracy: Accuracy, from: Rational, to: Rational, timeBase: Rational, targets: [Target]) {
        self.accuracy = accuracy
        self.from = from
        self.to = to
        self.timeBase = timeBase
        self.targets = targets
    }
}
