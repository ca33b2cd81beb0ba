import Filmstrip
import FilmstripProcess
import Foundation
import Glibc
import Synchronization

/// Runs peers (outside programs timed beside filmstrip) through the package's one launcher,
/// `ChildProcess`, which reaps each with `wait4` so every run reports its own CPU time and peak RSS.
/// The program stays in the caller's process group: a `bench-run` child leads its own group
/// (`ChildRunner`), so ending the run's group ends its peers with it.
package enum ExternalProcess {
    /// Runs `executable` with `arguments`, output discarded (or standard output written to the
    /// file `standardOutput`), waiting at most `timeLimit` seconds.
    /// `onStart` sees the child's pid (for forwarding an interruption).
    package static func run(_ executable: String, _ arguments: [String], timeLimit: Double, standardOutput: String? = nil,
                           onStart: (pid_t) -> Void = { _ in }) throws -> ChildProcess.Result {
        try ChildProcess.run(executable, arguments, standardOutput: standardOutput.map { .file($0) } ?? .discard,
                             timeLimit: timeLimit, onStart: onStart)
    }

    /// The first executable called `name` on PATH, or nil.
    package static func find(_ name: String) -> String? { ChildProcess.find(name) }
}
