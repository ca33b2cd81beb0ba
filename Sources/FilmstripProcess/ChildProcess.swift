import Filmstrip
import Foundation
import Glibc
import Synchronization

/// The one child-process launcher of the package: the bench's `bench-run` children, the peers
/// they time (the ffmpeg CLI), gnuplot, git and the baseline build all start here.
///
/// `posix_spawn` starts the program with default signal dispositions and an empty signal mask
/// (a parent that ignores SIGINT for its own handler must not pass that on), standard input
/// from /dev/null, and optionally in a new process group it leads. The caller blocks in
/// `waitid` (no polling: the wait adds nothing to the child's wall time) and `wait4` reaps the
/// child with its own CPU time and peak RSS (Foundation's `Process` reaps children itself and
/// keeps that usage to itself; `RUSAGE_CHILDREN` only knows the largest child ever). Captured
/// output is drained by a thread per pipe, so a chatty child never stalls on a full pipe.
package enum ChildProcess {
    /// Where a child's standard output or standard error goes.
    package enum Output: Sendable {
        /// /dev/null.
        case discard
        /// A pipe read to the end on a thread; the text comes back in `Result`.
        case capture
        /// The file at this path, created or truncated (mode 0600).
        case file(String)
        /// This process's descriptor, shared (e.g. 2 to show a build's progress).
        case inherit(Int32)
        /// Standard error only: wherever standard output goes.
        case sameAsOutput
    }

    /// How a child ended and what it cost, as the kernel accounted for it.
    package struct Result: Sendable {
        /// The exit status, or -1 when a signal ended the child.
        package var exitStatus: Int32
        /// The signal that ended the child, or nil when it exited.
        package var signal: Int32?
        package var wallSeconds: Double
        package var userSeconds: Double
        package var systemSeconds: Double
        /// `ru_maxrss` from `wait4`, in bytes: the larger of the child's own high-water mark and
        /// the spawning process's (Linux folds the spawner's memory into it at exec, measured:
        /// `/bin/true` spawned from a 500 MB process reports 513 MB). A child that must report its
        /// own reads `VmHWM` of its `/proc/self/status` (the `bench-run` child does).
        package var peakRSSBytes: Int
        /// Killed by this launcher at the time limit.
        package var timedOut: Bool
        /// Captured standard output (`.capture`), else empty.
        package var output: String
        /// Captured standard error (`.capture`), else empty.
        package var errors: String

        /// Exited with status 0 within its time limit.
        package var succeeded: Bool { exitStatus == 0 && signal == nil && !timedOut }
    }

    /// Runs `executable` with `arguments` and waits for it.
    /// - Parameters:
    ///   - ownProcessGroup: the child leads a new process group; the time limit then ends the
    ///     whole group (the child and whatever it launched).
    ///   - timeLimit: seconds after which the child (or its group) is killed with SIGKILL; nil waits forever.
    ///   - onStart: sees the child's pid before the wait (for forwarding an interruption).
    package static func run(_ executable: String, _ arguments: [String],
                            standardOutput: Output = .discard, standardError: Output = .discard,
                            ownProcessGroup: Bool = false, timeLimit: Double? = nil,
                            onStart: (pid_t) -> Void = { _ in }) throws(SystemError) -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        initAttributes(&attributes, ownProcessGroup: ownProcessGroup)
        defer { posix_spawnattr_destroy(&attributes) }

        var outputReader: PipeReader?, errorReader: PipeReader?
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, destination) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch destination {
            case .discard: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .inherit(let parent): posix_spawn_file_actions_adddup2(&actions, parent, descriptor)
            case .sameAsOutput: posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
            case .capture:
                let reader: PipeReader
                do {
                    reader = try PipeReader()
                } catch {
                    // Standard error's pipe failed (out of descriptors): standard output's must not leak.
                    outputReader?.closeWriteEnd()
                    outputReader?.closeReadEnd()
                    throw error
                }
                posix_spawn_file_actions_adddup2(&actions, reader.writeEnd, descriptor)
                if descriptor == 1 { outputReader = reader } else { errorReader = reader }
            }
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        LiveChildren.shared.willSpawn()
        let start = ContinuousClock.now
        let spawned = argv.withUnsafeBufferPointer { buffer in
            posix_spawn(&pid, executable, &actions, &attributes, buffer.baseAddress!, environ)
        }
        LiveChildren.shared.spawned(spawned == 0 ? pid : nil, leadsGroup: ownProcessGroup)
        defer { if spawned == 0 { LiveChildren.shared.remove(pid) } }
        // The child holds its own copies of the write ends now; closing ours lets the readers see end of file.
        outputReader?.closeWriteEnd()
        errorReader?.closeWriteEnd()
        guard spawned == 0 else {
            outputReader?.closeReadEnd()
            errorReader?.closeReadEnd()
            throw SystemError(call: "posix_spawn", path: executable, code: spawned)
        }
        outputReader?.start()
        errorReader?.start()
        onStart(pid)

        let (end, timedOut) = waitForExit(pid, timeLimit: timeLimit, ownProcessGroup: ownProcessGroup)
        let wall = end - start
        // `wait4` reaps the child with its usage.
        let (status, usage) = System.reap(pid)
        let terminatedBySignal = status & 0x7F != 0
        return Result(exitStatus: terminatedBySignal ? -1 : (status >> 8) & 0xFF,
                      signal: terminatedBySignal ? status & 0x7F : nil,
                      wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
                      userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
                      systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
                      peakRSSBytes: usage.ru_maxrss * 1024, timedOut: timedOut,
                      output: outputReader?.finish() ?? "", errors: errorReader?.finish() ?? "")
    }

    /// The child's attributes: every signal's default action and no signal blocked (this process's
    /// handlers and mask are not the child's), and a new process group when `ownProcessGroup`.
    private static func initAttributes(_ attributes: inout posix_spawnattr_t, ownProcessGroup: Bool) {
        posix_spawnattr_init(&attributes)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if ownProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var everySignal = sigset_t(), noSignal = sigset_t()
        sigfillset(&everySignal)
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
    }

    /// Waits until `pid` has exited, killing it (and its group when it leads one) at `timeLimit`:
    /// when it ended, and whether the limit ended it. A timer kills a hung child. `waitid` with
    /// `WNOWAIT` leaves the child unreaped, so its pid (and group id) cannot be reused while the
    /// timer might still fire; the caller reaps it.
    private static func waitForExit(_ pid: pid_t, timeLimit: Double?, ownProcessGroup: Bool) -> (end: ContinuousClock.Instant, timedOut: Bool) {
        let watch = Mutex((exited: false, timedOut: false))
        let timer = DispatchWorkItem {
            watch.withLock { state in
                guard !state.exited else { return }
                state.timedOut = true
                if ownProcessGroup { kill(-pid, SIGKILL) }
                kill(pid, SIGKILL)
            }
        }
        if let timeLimit { DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: timer) }
        System.waitForExit(pid)
        // A child killed because this process is ending must not look like a failure the
        // caller reports and exits on before the signal's handler ends the process.
        LiveChildren.shared.parkIfEnding()
        let end = ContinuousClock.now
        let timedOut = watch.withLock { state in
            state.exited = true
            return state.timedOut
        }
        timer.cancel()
        return (end, timedOut)
    }

    /// The first executable called `name` on PATH, or nil.
    package static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// The children running now, so that they die with this process: a command killed by SIGTERM,
/// SIGINT or SIGHUP must not leave gnuplot, git or a build running with no one to wait for it
/// (a `plot` killed by SIGTERM left gnuplot at 99 % CPU for two minutes).
///
/// Where a signal's action is still the default (the command did not install a handler of its
/// own), the first child started installs one that kills every live child (its process group
/// where it leads one) and then dies of the same signal. A command with its own handler keeps
/// it: `strip`, `sprite` and `plot` call ``endAll()`` before they remove their temporary files
/// and exit; `bench` ends its configuration's process group and stops between configurations.
package final class LiveChildren: Sendable {
    package static let shared = LiveChildren()

    private struct State {
        var children: [pid_t: Bool] = [:]
        /// Threads between ``willSpawn()`` and ``spawned(_:leadsGroup:)``: their child may be
        /// running already, but is not in `children` yet.
        var spawning = 0
        var sources: [any DispatchSourceSignal] = []
        var installed = false
        var ending = false
    }

    private let state = Mutex(State())

    /// Called just before `posix_spawn`. Once the process is ending no child may start: the
    /// thread parks instead (the signal's handler is about to end the process).
    func willSpawn() {
        let ending = state.withLock { state -> Bool in
            if !state.installed {
                state.installed = true
                state.sources = Self.installDefaultHandlers()
            }
            if !state.ending { state.spawning += 1 }
            return state.ending
        }
        if ending { parkForever() }
    }

    /// Called just after `posix_spawn`, with the child's pid when it started.
    func spawned(_ pid: pid_t?, leadsGroup: Bool) {
        state.withLock { state in
            state.spawning -= 1
            if let pid { state.children[pid] = leadsGroup }
        }
    }

    func remove(_ pid: pid_t) { _ = state.withLock { $0.children.removeValue(forKey: pid) } }

    /// Kills every live child (SIGKILL: this process is ending and will read nothing more from
    /// them). A child whose spawn is under way is waited for (up to 5 s) and killed too: a
    /// `posix_spawn` returns once the child has started, and a handler that exited before the
    /// spawning thread recorded the pid left that child running (a `plot` killed by SIGTERM
    /// just as gnuplot started, seen once in CI on a loaded 2-core runner).
    package func endAll() {
        state.withLock { $0.ending = true }
        var waits = 0
        while waits < 1_000, state.withLock({ $0.spawning }) > 0 {
            usleep(5_000)
            waits += 1
        }
        let children = state.withLock { $0.children }
        for (pid, leadsGroup) in children { Self.kill(pid, leadsGroup: leadsGroup) }
    }

    /// Blocks the calling thread for good once ``endAll()`` has run: the process is ending,
    /// and the thread that ends it is the signal handler's.
    func parkIfEnding() {
        guard state.withLock({ $0.ending }) else { return }
        parkForever()
    }

    private func parkForever() -> Never {
        while true { pause() }
    }

    private static func kill(_ pid: pid_t, leadsGroup: Bool) {
        if leadsGroup { Glibc.kill(-pid, SIGKILL) }
        Glibc.kill(pid, SIGKILL)
    }

    /// For each of SIGTERM, SIGINT and SIGHUP whose action is the default: a handler that ends
    /// the children, then restores the default and raises the signal again, so the process ends
    /// as it would have (status 128 + signal to its shell).
    private static func installDefaultHandlers() -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT, SIGHUP].compactMap { number in
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return nil }
            // Ignored first, or the default action would end the process before the dispatch
            // source, which runs the handler as ordinary code, sees the signal. Children do not
            // inherit it: `posix_spawn` resets every signal to its default.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                shared.endAll()
                signal(number, SIG_DFL)
                raise(number)
            }
            source.resume()
            return source
        }
    }
}

/// One pipe from a child, read to end of file on a background thread.
private final class PipeReader: Sendable {
    let readEnd: Int32
    let writeEnd: Int32
    private let bytes = Mutex([UInt8]())
    private let done = DispatchSemaphore(value: 0)

    init() throws(SystemError) {
        (readEnd, writeEnd) = try System.pipe()
    }

    func closeWriteEnd() { try? System.close(writeEnd, path: "pipe") }
    func closeReadEnd() { try? System.close(readEnd, path: "pipe") }

    func start() {
        DispatchQueue.global().async { [self] in
            let all = System.readToEnd(readEnd)
            bytes.withLock { $0 = all }
            closeReadEnd()
            done.signal()
        }
    }

    /// Waits for end of file (the child has exited; its descendants may still hold the pipe) and returns the text.
    func finish() -> String {
        done.wait()
        return String(decoding: bytes.withLock { $0 }, as: UTF8.self)
    }
}
