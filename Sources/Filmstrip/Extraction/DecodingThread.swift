/// Runs a synchronous decode on a thread of its own and hands its result back to async code.
///
/// A decode blocks its thread for the whole walk. Run in a task, it would hold one of Swift's
/// cooperative threads (one per core) all that time: no more decodes than cores could run at
/// once, whatever the worker count, and every other task of the process (an app's UI updates,
/// cancellation handlers) would wait behind them. On threads of their own, the kernel shares the
/// cores among however many workers there are, which is what `GOPCostModel` assumes.
enum DecodingThread {
    /// Runs `body` on a new thread; cancelling the calling task raises `stop`, which the
    /// body's decoder checks before every packet. Returns once the thread has ended, so all of
    /// its work (its exit too) is done when the caller goes on.
    static func run<Value: Sendable>(stoppedBy stop: StopSignal, _ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        var thread: JoinableThread?
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, any Error>, Never>) in
                do {
                    // FFmpeg's decoders use more stack than a secondary thread's default.
                    thread = try JoinableThread(stackSize: 8 << 20) { continuation.resume(returning: Result { try body() }) }
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        } onCancel: {
            stop.raise()
        }
        // The thread has handed back its result and is exiting: this waits microseconds.
        thread?.join()
        return try result.get()
    }
}
