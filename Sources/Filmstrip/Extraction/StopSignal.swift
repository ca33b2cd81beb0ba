import Synchronization

/// A flag that asks decoding to stop, raised from any thread and read by a decoding thread
/// before every packet (one relaxed load). Raised once, it stays raised.
final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    init() {}

    /// Whether anyone has asked the work to stop.
    var isRaised: Bool { raised.load(ordering: .relaxed) }

    /// Asks the work to stop; returns true for the call that raised it first.
    @discardableResult
    func raise() -> Bool { !raised.exchange(true, ordering: .relaxed) }
}
