import Glibc

/// A thread of the process's own (not one of Swift's cooperative pool) that the caller joins:
/// once `join()` returns, everything the thread does has happened, its exit included.
///
/// Why not Foundation's `Thread`: it cannot be joined. A decode that hands its result back and
/// then exits goes on running after the caller has resumed: the thread's teardown (thread-specific
/// data, and on a first exit in the process ~300,000 instructions of Swift conformance lookups)
/// landed in whichever phase the caller had reached by then. Under callgrind, which runs one
/// thread at a time, that moved a fused pipeline's compose phase between 1,353 and 307,127
/// instructions in identical runs (an instruction A/A gate failing). Joined, it counts where it
/// belongs, in extraction.
package struct JoinableThread: Sendable {
    private let handle: pthread_t

    /// Starts `body` on a new thread with `stackSize` bytes of stack.
    /// - Throws: `SystemError` for `pthread_create` when the thread cannot be started (out of
    ///   memory for its stack, or the process's thread limit): never a retry that could wait forever.
    package init(stackSize: Int, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        handle = try Self.start(stackSize: stackSize, detached: false, body)
    }

    /// Starts `body` on a thread that nobody joins (a pool's worker that lives as long as the
    /// pool): its resources go back when it ends. Throws as `init(stackSize:_:)` does, where
    /// Foundation's `Thread.start()` ignores `pthread_create`'s failure and the work it was
    /// meant to do would wait forever.
    package static func startDetached(stackSize: Int, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        _ = try start(stackSize: stackSize, detached: true, body)
    }

    private static func start(stackSize: Int, detached: Bool, _ body: @escaping @Sendable () -> Void) throws(SystemError) -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(&handle, &attributes, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemError(call: "pthread_create", path: "decoding thread", code: result)
        }
        return handle
    }

    /// Waits for the thread to end. Call it exactly once. It blocks the calling thread, so call it
    /// when the thread is known to be finishing (it has handed back its result).
    package func join() {
        pthread_join(handle, nil)
    }
}

/// The closure a `JoinableThread` runs, boxed to cross `pthread_create`'s `void *`.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
