/// Decodes each frame asked for, in time order, and shows nothing before it.
public struct ExactOnlyStrategy: InteractiveStrategy {
    public let name = "exact"
    public let summary = "each frame asked for, in time order; nothing shown before it"

    /// The exact-only strategy.
    public init() {}

    public func order(_ frames: [PendingFrame]) -> [PendingFrame] { frames }
}
