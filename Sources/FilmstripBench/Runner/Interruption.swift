import Filmstrip
import Foundation
import Glibc
import Synchronization

/// What the session is doing when SIGINT or SIGTERM arrives, and what to stop.
///
/// The signal handler (a dispatch source, so it runs as ordinary code, not in
/// async-signal context) calls ``interrupt(signal:)``; the session checks
/// ``signal`` between runs. Rows are written only by the session between runs,
/// so a signal never cuts one in half.
package final class Interruption: Sendable {
    private struct State {
        var signal: Int32?
        /// The `bench-run` children being waited for (several at once in an instruction run).
        var children: Set<pid_t> = []
        /// Set while a reference video is being generated in this process.
        var generatingInto: URL?
    }

    private let state = Mutex(State())

    package init() {}

    /// The signal received, if any.
    package var signal: Int32? { state.withLock { $0.signal } }

    /// Records `signal` and kills the running child. While a reference video is being
    /// generated (in this process, not stoppable midway) the process removes its own
    /// partial file and exits 128 + signal at once.
    package func interrupt(signal: Int32) {
        let (children, generatingInto) = state.withLock { state -> (Set<pid_t>, URL?) in
            state.signal = state.signal ?? signal
            return (state.children, state.generatingInto)
        }
        for child in children { ChildRunner.end(child) }
        if generatingInto != nil {
            // Its partial video is one of this process's registered temporary files.
            TemporaryFiles.removeAllForExit()
            // `_exit`, not `exit`: the encoder is still running on another thread, and
            // atexit handlers must not tear down state under it. Nothing is buffered:
            // result rows go straight to the file with write(2), and none exist yet.
            _exit(128 + signal)
        }
    }

    /// Registers the running child; kills it at once when a signal already came.
    func childStarted(_ pid: pid_t) {
        let alreadyInterrupted = state.withLock { state -> Bool in
            state.children.insert(pid)
            return state.signal != nil
        }
        if alreadyInterrupted { ChildRunner.end(pid) }
    }

    func childEnded(_ pid: pid_t) { _ = state.withLock { $0.children.remove(pid) } }

    /// Runs `body` (generating reference videos into `directory`) so that a signal exits cleanly.
    func generating<T>(into directory: URL, _ body: () throws -> T) rethrows -> T {
        state.withLock { $0.generatingInto = directory }
        defer { state.withLock { $0.generatingInto = nil } }
        return try body()
    }
}
