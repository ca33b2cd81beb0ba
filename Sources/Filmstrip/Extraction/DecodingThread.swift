import Foundation

/// Runs a synchronous decode on a thread of its own and hands its result back to async code.
///
/// A decode blocks its thread for the whole walk. Run in a task, it would hold one of Swift's
/// cooperative threads (one per core) all that time: no more decodes than cores could run at
/// once, whatever the worker count, and every other task of the process (an app's UI updates,
/// cancellation handlers) would wait behind them. On threads of their own, the kernel shares the
/// cores among however many workers there are, which is what `GOPCostModel` assumes.
enum DecodingThread {
    /// Runs `body` on a new thread; cancelling the calling task raises `stop`, which the
    /// body's decoder checks before every packet.
    static func run<Value: Sendable>(stoppedBy stop: StopSignal, _ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread { continuation.resume(with: Result { try body() }) }
                // FFmpeg's decoders use more stack than a secondary thread's default.
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            stop.raise()
        }
    }
}
