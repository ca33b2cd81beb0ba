/// Shows every slot's nearest keyframe first (a keyframe decodes alone, so the whole row fills
/// in at about the cost of a keyframe strip), then the exact frames replace them in time order.
public struct CoarseThenExactStrategy: InteractiveStrategy {
    public let name = "coarse-first"
    public let summary = "nearest keyframes for every slot first, then the exact frames replacing them"
    public let showsKeyframesFirst = true

    /// The coarse-then-exact strategy.
    public init() {}

    public func order(_ frames: [PendingFrame]) -> [PendingFrame] { frames }
}
