/// A frame a request still needs decoded, as a strategy sees it when ordering the work.
public struct PendingFrame: Sendable, Hashable {
    /// Its position among the request's distinct frames, ascending by time.
    public var position: Int
    /// The request's slots that show it, ascending.
    public var slots: [Int]
    /// The frame, counted in display order from 0.
    public var frameIndex: Int
    /// Frames a decoder must decode from the frame's keyframe to reach it (1 for a keyframe):
    /// what it costs from a cold start.
    public var framesFromKeyframe: Int
}

/// How a `ThumbnailGenerator` answers a request: which images come first and in what order the
/// decoders take the frames. Conformers are one file each, listed in `InteractiveStrategies.all`.
/// Every strategy ends each slot on the same final pixels.
public protocol InteractiveStrategy: Sendable {
    /// Registry key, as `--strategy` and CSV rows spell it.
    var name: String { get }
    /// One line for `--help`.
    var summary: String { get }
    /// Show every slot's nearest keyframe first (marked not final), then replace it with the frame asked for.
    var showsKeyframesFirst: Bool { get }
    /// The order in which the pool's decoders take `frames` (given ascending by time); every frame exactly once.
    func order(_ frames: [PendingFrame]) -> [PendingFrame]
}

extension InteractiveStrategy {
    public var showsKeyframesFirst: Bool { false }
}

/// The registry: the generator's options, the CLI, the tests and the bench enumerate this one list.
public enum InteractiveStrategies {
    /// Every interactive strategy, the default (`exact`) first.
    public static let all: [any InteractiveStrategy] = [
        ExactOnlyStrategy(), CoarseThenExactStrategy(), CheapestFirstStrategy(), SpreadFirstStrategy(),
    ]

    /// The default: each frame asked for, in time order.
    public static var standard: any InteractiveStrategy { all[0] }

    /// The strategy registered as `name`, or nil.
    public static func named(_ name: String) -> (any InteractiveStrategy)? { all.first { $0.name == name } }
}
