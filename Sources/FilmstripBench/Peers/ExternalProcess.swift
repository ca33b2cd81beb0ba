import Filmstrip
import FilmstripProcess
import Foundation
import Glibc
import Synchronization

/// What one run of an external program cost, measured the way the kernel accounts for it.
package struct ExternalRun: Sendable, Hashable {
    package var exitStatus: Int32
    /// Killed by this signal, or nil when it exited.
    package var signal: Int32?
    package var wallSeconds: Double
    package var userSeconds: Double
    package var systemSeconds: Double
    /// `ru_maxrss` from `wait4`, in bytes: at least the spawning `bench-run` child's own high-water
    /// mark (see ``ChildProcess``), which has only probed the video by then.
    package var peakRSSBytes: Int
    package var timedOut: Bool

    package var succeeded: Bool { exitStatus == 0 && signal == nil && !timedOut }
}

/// Runs peers (outside programs timed beside filmstrip) through the package's one launcher,
/// `ChildProcess`, which reaps each with `wait4` so every run reports its own CPU time and peak RSS.
/// The program stays in the caller's process group: a `bench-run` child leads its own group
/// (`ChildRunner`), so ending the run's group ends its peers with it.
package enum ExternalProcess {
    /// Runs `executable` with `arguments`, output discarded (or standard output written to the
    /// file `standardOutput`), waiting at most `timeLimit` seconds.
    /// `onStart` sees the child's pid (for forwarding an interruption).
    package static func run(_ executable: String, _ arguments: [String], timeLimit: Double, standardOutput: String? = nil,
                           onStart: (pid_t) -> Void = { _ in }) throws -> ExternalRun {
        let run = try ChildProcess.run(executable, arguments, standardOutput: standardOutput.map { .file($0) } ?? .discard,
                                       timeLimit: timeLimit, onStart: onStart)
        return ExternalRun(exitStatus: run.exitStatus, signal: run.signal, wallSeconds: run.wallSeconds,
                           userSeconds: run.userSeconds, systemSeconds: run.systemSeconds,
                           peakRSSBytes: run.peakRSSBytes, timedOut: run.timedOut)
    }

    /// The first executable called `name` on PATH, or nil.
    package static func find(_ name: String) -> String? { ChildProcess.find(name) }
}
