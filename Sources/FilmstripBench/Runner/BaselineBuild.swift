import Filmstrip
import FilmstripProcess
import Foundation

/// The baseline executable of `bench --baseline-rev REV`: REV built in release once, in a
/// git worktree under `.build-baselines/COMMIT` of the repository (git-ignored with the
/// other `.build-*` folders), and reused while REV names the same commit.
package enum BaselineBuild {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// The signal that stopped the build; its worktree was removed. Nil when the build failed by itself.
        package var signal: Int32? = nil
    }

    /// The executable built from `revision`, and its commit; builds it when missing.
    /// `note` receives progress lines; the build's own output goes to `.build-baselines/COMMIT-build.log`
    /// (a CI log or a terminal shows the gate, not a compiler's progress), named when it fails. A signal that
    /// `interruption` receives ends the build's whole process group (the compiler jobs with it)
    /// and removes the half-built worktree, so that nothing goes on writing into
    /// `.build-baselines/` and git keeps no stale worktree behind.
    package static func executable(revision: String, repository: URL, interruption: Interruption? = nil,
                                  note: (String) -> Void) throws -> (url: URL, commit: String) {
        guard let commit = GitRevision.git(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], in: repository)?
            .trimmingCharacters(in: .whitespacesAndNewlines), !commit.isEmpty else {
            throw Failure(description: "\(revision): not a commit of the repository at \(repository.path)")
        }
        guard let top = GitRevision.git(["rev-parse", "--show-toplevel"], in: repository)?
            .trimmingCharacters(in: .whitespacesAndNewlines) else {
            throw Failure(description: "\(repository.path): not in a git checkout")
        }
        let folder = URL(fileURLWithPath: top).appendingPathComponent(".build-baselines/\(commit)")
        let executable = folder.appendingPathComponent(".build/release/filmstrip")
        if FileManager.default.isExecutableFile(atPath: executable.path) {
            note("bench: baseline \(revision) = \(commit.prefix(12)), built before: \(executable.path)")
            return (executable, commit)
        }
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            try? FileManager.default.removeItem(at: folder)
            guard GitRevision.git(["worktree", "add", "--detach", "--force", folder.path, commit], in: repository) != nil else {
                throw Failure(description: "cannot make a worktree of \(commit) at \(folder.path)")
            }
        }
        try stopIfInterrupted(interruption, removing: folder, of: repository)
        let log = folder.path + "-build.log"
        note("bench: building baseline \(revision) = \(commit.prefix(12)) in release at \(folder.path) (once; its log: \(log))…")
        let build: ChildProcess.Result
        var buildProcess: pid_t?
        do {
            // Its own process group, so that an interruption ends the compiler jobs too, not only the driver.
            build = try ChildProcess.run("/usr/bin/env", ["swift", "build", "-c", "release", "--product", "filmstrip", "--package-path", folder.path],
                                         standardOutput: .file(log), standardError: .sameAsOutput, ownProcessGroup: true,
                                         onStart: { pid in
                                             buildProcess = pid
                                             interruption?.childStarted(pid)
                                         })
        } catch {
            throw Failure(description: "cannot start swift build: \(error)")
        }
        if let buildProcess { interruption?.childEnded(buildProcess) }
        try stopIfInterrupted(interruption, removing: folder, of: repository)
        guard build.succeeded, FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(description: "building \(revision) (\(commit.prefix(12))) failed with status \(build.exitStatus); its log: \(log)")
        }
        return (executable, commit)
    }

    /// Throws the interruption's signal, after removing the worktree at `folder` (its files and
    /// git's record of it), when `interruption` has received one.
    static func stopIfInterrupted(_ interruption: Interruption?, removing folder: URL, of repository: URL) throws {
        guard let signal = interruption?.signal else { return }
        _ = GitRevision.git(["worktree", "remove", "--force", "--force", folder.path], in: repository)
        try? FileManager.default.removeItem(at: folder)
        _ = GitRevision.git(["worktree", "prune"], in: repository)
        throw Failure(description: "interrupted by signal \(signal) while building the baseline; its worktree \(folder.path) was removed",
                      signal: signal)
    }
}
