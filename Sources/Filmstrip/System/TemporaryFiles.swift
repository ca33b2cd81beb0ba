import Foundation
import Synchronization

/// The temporary files filmstrip writes outputs into, in one convention:
/// `.NAME.filmstrip-PID-RANDOM.tmp` beside the target NAME.
///
/// They are created with `O_CREAT | O_EXCL | O_NOFOLLOW` under a random name, so a file or
/// symbolic link planted at a predictable name is never opened or followed. Every live one
/// is registered here: on SIGINT, SIGTERM or SIGHUP the command line calls
/// `removeAllForExit()`, and a later run removes those of processes that no longer exist
/// (`removeStale(besides:)`), for example after SIGKILL.
public enum TemporaryFiles {
    private struct State {
        var live: Set<String> = []
        /// Set once the process is exiting on a signal: no temporary file is renamed after that.
        var exiting = false
    }

    private static let state = Mutex(State())

    static let marker = ".filmstrip-"
    static let suffix = ".tmp"

    /// A new temporary file beside `target`, open for writing; its path and descriptor.
    static func create(besides target: String) throws(SystemError) -> (path: String, descriptor: Int32) {
        let (folder, name) = split(target)
        for _ in 0..<16 {
            let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let path = "\(folder)/.\(name)\(marker)\(getpid())-\(random)\(suffix)"
            do {
                let descriptor = try state.withLock { state throws(SystemError) -> Int32 in
                    if state.exiting { throw SystemError(call: "open", path: path, code: EINTR) }
                    let descriptor = try System.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o666)
                    state.live.insert(path)
                    return descriptor
                }
                return (path, descriptor)
            } catch where error.code == EEXIST {
                continue
            }
        }
        throw SystemError(call: "open", path: "\(folder)/.\(name)\(marker)…", code: EEXIST)
    }

    /// A new empty temporary file beside `target`, closed, for another program (gnuplot) to
    /// write into: made exclusively here, so that program opens a regular file this process
    /// owns, never a planted link.
    public static func createEmpty(besides target: String) throws(SystemError) -> String {
        let (path, descriptor) = try create(besides: target)
        do {
            try System.close(descriptor, path: path)
        } catch {
            discard(path)
            throw error
        }
        return path
    }

    /// Renames the temporary file at `temporary` over `target`, unless the process is exiting on a signal.
    public static func publish(_ temporary: String, as target: String) throws(SystemError) {
        try state.withLock { state throws(SystemError) in
            if state.exiting { throw SystemError(call: "rename", path: target, code: EINTR) }
            try System.rename(temporary, to: target)
            state.live.remove(temporary)
        }
    }

    /// Removes the temporary file at `path` (an abandoned output).
    public static func discard(_ path: String) {
        state.withLock { state in
            System.unlink(path)
            state.live.remove(path)
        }
    }

    /// Removes every live temporary file and blocks any later rename; for a signal handler
    /// about to exit. Returns how many were removed.
    @discardableResult
    public static func removeAllForExit() -> Int {
        state.withLock { state in
            state.exiting = true
            state.live.forEach { System.unlink($0) }
            defer { state.live.removeAll() }
            return state.live.count
        }
    }

    /// Removes temporary files beside `target` (for that target) left by filmstrip processes
    /// that no longer run, for example after SIGKILL. Files of running processes are kept.
    public static func removeStale(besides target: String) {
        let (folder, name) = split(target)
        let prefix = ".\(name)\(marker)"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in names where entry.hasPrefix(prefix) && entry.hasSuffix(suffix) {
            let fields = entry.dropFirst(prefix.count).dropLast(suffix.count).split(separator: "-")
            guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH { System.unlink("\(folder)/\(entry)") }
        }
    }

    private static func split(_ target: String) -> (folder: String, name: String) {
        let url = URL(fileURLWithPath: target)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }
}
