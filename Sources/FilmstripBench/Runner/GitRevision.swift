import Filmstrip
import FilmstripProcess
import Foundation

/// The commit of the checkout the harness runs in, for the `git_commit` and `git_dirty` columns.
package enum GitRevision {
    /// `(commit, dirty)` of the repository containing the current directory, or `("unknown", false)`.
    package static func current() -> (commit: String, dirty: Bool) {
        guard let commit = git(["rev-parse", "HEAD"])?.trimmingCharacters(in: .whitespacesAndNewlines), !commit.isEmpty else {
            return ("unknown", false)
        }
        // Untracked files (results being written, fixtures) do not change the code that was built.
        let status = git(["status", "--porcelain", "--untracked-files=no"]) ?? ""
        return (commit, !status.isEmpty)
    }

    /// Output of `git ARGUMENTS` run in `directory` (default: the current one), or nil when it fails.
    static func git(_ arguments: [String], in directory: URL? = nil) -> String? {
        let arguments = ["git"] + (directory.map { ["-C", $0.path] } ?? []) + arguments
        guard let run = try? ChildProcess.run("/usr/bin/env", arguments, standardOutput: .capture), run.succeeded else { return nil }
        return run.output
    }
}
