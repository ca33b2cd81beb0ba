import Filmstrip
import FilmstripProcess
import Foundation

/// The baseline executable of `bench --baseline-rev REV`: REV built in release once, in a
/// git worktree under `.build-baselines/COMMIT` of the repository (git-ignored with the
/// other `.build-*` folders), and reused while REV names the same commit.
public enum BaselineBuild {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The executable built from `revision`, and its commit; builds it when missing.
    /// `note` receives progress lines; the build's own output goes to stderr.
    public static func executable(revision: String, repository: URL, note: (String) -> Void) throws -> (url: URL, commit: String) {
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
        note("bench: building baseline \(revision) = \(commit.prefix(12)) in release at \(folder.path) (once)…")
        let build: ChildProcess.Result
        do {
            // Its progress goes to this process's standard error, like the other notes.
            build = try ChildProcess.run("/usr/bin/env", ["swift", "build", "-c", "release", "--product", "filmstrip", "--package-path", folder.path],
                                         standardOutput: .inherit(2), standardError: .inherit(2))
        } catch {
            throw Failure(description: "cannot start swift build: \(error)")
        }
        guard build.succeeded, FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(description: "building \(revision) (\(commit.prefix(12))) failed with status \(build.exitStatus)")
        }
        return (executable, commit)
    }
}
