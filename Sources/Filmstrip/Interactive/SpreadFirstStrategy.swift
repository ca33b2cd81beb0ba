/// Takes frames so the covered range fills in evenly: the first, the last, then midpoints of
/// the widest gaps, so a slider shows the whole range sparsely before the details.
public struct SpreadFirstStrategy: InteractiveStrategy {
    public let name = "spread-first"
    public let summary = "ends, then midpoints of the widest gaps, so the whole range fills in evenly"

    /// The spread-first strategy.
    public init() {}

    public func order(_ frames: [PendingFrame]) -> [PendingFrame] {
        guard frames.count > 2 else { return frames }
        var ordered = [frames[0], frames[frames.count - 1]]
        // Breadth first over halvings: every gap at one depth is split before any at the next.
        var gaps = [(low: 0, high: frames.count - 1)]
        while !gaps.isEmpty {
            var next: [(low: Int, high: Int)] = []
            for gap in gaps where gap.high - gap.low > 1 {
                let middle = (gap.low + gap.high) / 2
                ordered.append(frames[middle])
                next.append((gap.low, middle))
                next.append((middle, gap.high))
            }
            gaps = next
        }
        return ordered
    }
}
