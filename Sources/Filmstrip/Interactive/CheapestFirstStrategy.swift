/// Takes the frames that need the fewest decoded from their keyframe first, so many slots fill
/// in early and the long decodes come last.
public struct CheapestFirstStrategy: InteractiveStrategy {
    public let name = "cheapest-first"
    public let summary = "frames closest to their keyframe first, the longest decodes last"

    /// The cheapest-first strategy.
    public init() {}

    public func order(_ frames: [PendingFrame]) -> [PendingFrame] {
        frames.sorted { ($0.framesFromKeyframe, $0.position) < ($1.framesFromKeyframe, $1.position) }
    }
}
