import Filmstrip
import Foundation
import Glibc
import Synchronization

/// What one run of an external program cost, measured the way the kernel accounts for it.
public struct ExternalRun: Sendable, Hashable {
    public var exitStatus: Int32
    /// Killed by this signal, or nil when it exited.
    public var signal: Int32?
    public var wallSeconds: Double
    public var userSeconds: Double
    public var systemSeconds: Double
    /// The child's own high-water mark (`ru_maxrss` from `wait4`), in bytes.
    public var peakRSSBytes: Int
    public var timedOut: Bool

    public var succeeded: Bool { exitStatus == 0 && signal == nil && !timedOut }
}

/// Starts programs with `posix_spawn` and reaps them with `wait4`, so each run reports its
/// own CPU time and peak RSS (Foundation's `Process` reaps children itself and keeps the
/// resource usage to itself; `RUSAGE_CHILDREN` only knows the largest child ever).
/// The program stays in the caller's process group: a `bench-run` child leads its own group
/// (`ChildRunner`), so ending the run's group ends its peers with it.
public enum ExternalProcess {
    /// Runs `executable` with `arguments`, output discarded (or standard output written to the
    /// file `standardOutput`), waiting at most `timeLimit` seconds.
    /// `onStart` sees the child's pid (for forwarding an interruption).
    public static func run(_ executable: String, _ arguments: [String], timeLimit: Double, standardOutput: String? = nil,
                           onStart: (pid_t) -> Void = { _ in }) throws -> ExternalRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = argv.withUnsafeBufferPointer { buffer in
            posix_spawn(&pid, executable, &actions, nil, buffer.baseAddress!, environ)
        }
        guard spawned == 0 else {
            throw CocoaError(.executableNotLoadable, userInfo: [NSFilePathErrorKey: executable,
                                                               NSLocalizedDescriptionKey: String(cString: strerror(spawned))])
        }
        onStart(pid)
        // Block until the child exits (no polling: the wait adds nothing to its wall time); a
        // timer kills a hung one at the time limit. `WNOWAIT` leaves it unreaped, so its pid
        // cannot be reused while the timer might still fire; `wait4` then reaps it with its usage.
        let watch = Mutex((exited: false, timedOut: false))
        let timer = DispatchWorkItem {
            watch.withLock { state in
                guard !state.exited else { return }
                state.timedOut = true
                kill(pid, SIGKILL)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: timer)
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let wall = ContinuousClock.now - start
        let timedOut = watch.withLock { state in
            state.exited = true
            return state.timedOut
        }
        timer.cancel()
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let terminatedBySignal = status & 0x7F != 0
        return ExternalRun(exitStatus: terminatedBySignal ? -1 : (status >> 8) & 0xFF,
                           signal: terminatedBySignal ? status & 0x7F : nil,
                           wallSeconds: wall.seconds,
                           userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
                           systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
                           peakRSSBytes: usage.ru_maxrss * 1024, timedOut: timedOut)
    }

    /// The first executable called `name` on PATH, or nil.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
