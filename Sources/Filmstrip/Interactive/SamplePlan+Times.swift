extension SamplePlan {
    /// A plan with one slot per time of `times` (seconds from the video's start, in any order,
    /// repeats allowed), each resolved to a frame with `accuracy` using only the probe.
    ///
    /// Slot `i` is `times[i]`, floored to the stream's time base as the evenly spaced plan
    /// floors its slot centres, so a time that plan chose resolves to the same frame here.
    /// - Throws: `PlanError` for no times, too many, a time outside 0...duration or a negative tolerance.
    public init(probe: VideoProbe, times: [Rational], accuracy: Accuracy = .exact) throws(PlanError) {
        guard !times.isEmpty else { throw .countNotPositive(0) }
        guard times.count <= ResourceLimits.maximumThumbnailCount else { throw .countTooLarge(times.count) }
        if case .tolerance(let before, let after) = accuracy, before < .zero || after < .zero { throw .negativeTolerance }
        let duration = probe.duration.seconds
        for time in times where time < .zero || time > duration {
            throw .rangeOutsideVideo(from: time.doubleValue, to: time.doubleValue, duration: duration.doubleValue)
        }
        self.accuracy = accuracy
        from = times.min()!
        to = times.max()!
        timeBase = probe.timeBase
        let frames = FrameTable(probe: probe)
        targets = times.enumerated().map { slot, time in
            let requested = Timestamp(flooring: probe.startTime.seconds + time, timeBase: probe.timeBase)
            let frame = frames.choose(for: requested.pts, accuracy: accuracy)
            return Target(slot: slot, requestedTime: requested, framePts: frames.times[frame], frameIndex: frame,
                          keyframePts: frames.keyframe(atOrBefore: frames.times[frame]))
        }
    }

    /// The times, in seconds from the video's start, of `count` slots spread evenly over
    /// `from..<to` as the evenly spaced plan spreads them: the centre of each of `count` equal intervals.
    public static func evenlySpacedTimes(count: Int, from: Rational, to: Rational) -> [Rational] {
        guard count > 0 else { return [] }
        let step = (to - from) / Rational(Int64(count))
        return (0..<count).map { from + step * (Rational(Int64($0)) + Rational(1, 2)) }
    }
}
