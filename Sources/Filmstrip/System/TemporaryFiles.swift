import Foundation
import Synchronization

/// The temporary files filmstrip writes outputs and cached videos into, named by the one
/// convention `TemporaryName` beside the target NAME.
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

    /// A new temporary file beside `target`, open for writing; its path and descriptor.
    static func create(besides target: String, kind: TemporaryName.Kind = .output) throws(SystemError) -> (path: String, descriptor: Int32) {
        let (folder, name) = split(target)
        for _ in 0..<16 {
            let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let path = "\(folder)/\(TemporaryName.make(for: name, kind: kind, pid: getpid(), random: random))"
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
        throw SystemError(call: "open", path: "\(folder)/\(TemporaryName.make(for: name, kind: kind, pid: getpid(), random: "…"))", code: EEXIST)
    }

    /// A new empty temporary file beside `target`, closed, for another program (gnuplot) to
    /// write into: made exclusively here, so that program opens a regular file this process
    /// owns, never a planted link.
    public static func createEmpty(besides target: String) throws(SystemError) -> String {
        try createEmpty(besides: target, kind: .output)
    }

    /// A new empty temporary file of `kind` beside `target`, closed (see `createEmpty(besides:)`).
    package static func createEmpty(besides target: String, kind: TemporaryName.Kind) throws(SystemError) -> String {
        let (path, descriptor) = try create(besides: target, kind: kind)
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
        let stem = TemporaryName.stem(for: name)
        removeStale(in: folder, kind: .output) { $0 == stem }
    }

    /// Removes temporary files of `kind` in `folder` (for targets `isTarget` accepts) left by
    /// processes that no longer run. Files of running processes are kept.
    package static func removeStale(in folder: String, kind: TemporaryName.Kind, for isTarget: (String) -> Bool = { _ in true }) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in names {
            guard let parsed = TemporaryName.parse(entry, kind: kind), isTarget(parsed.target),
                  parsed.pid > 0, parsed.pid != getpid() else { continue }
            if kill(parsed.pid, 0) == -1 && errno == ESRCH { System.unlink("\(folder)/\(entry)") }
        }
    }

    private static func split(_ target: String) -> (folder: String, name: String) {
        let url = URL(fileURLWithPath: target)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }
}

/// The one temporary-name convention: a hidden file beside its target NAME that carries the
/// writer's pid (so a later run can tell an abandoned file from a live one) and a random part
/// (so the name cannot be predicted).
package enum TemporaryName {
    /// The two spellings in use, kept because committed tools and tests know them.
    package enum Kind: Sendable {
        /// Outputs (strips, results, plots, reports): `.NAME.filmstrip-PID-RANDOM.tmp`.
        case output
        /// Reference videos being encoded into the fixtures cache: `.NAME.PID.RANDOM.partial`.
        case partialVideo
    }

    /// The temporary name for target `name` written by process `pid`.
    package static func make(for name: String, kind: Kind, pid: pid_t, random: String) -> String {
        let stem = stem(for: name)
        return switch kind {
        case .output: ".\(stem).filmstrip-\(pid)-\(random).tmp"
        case .partialVideo: ".\(stem).\(pid).\(random).partial"
        }
    }

    /// The longest file name Linux file systems take (NAME_MAX), in bytes.
    static let maximumNameBytes = 255
    /// What either spelling adds around the target's name at most: ".", ".filmstrip-", a pid
    /// of up to 7 digits (pid_max is 2²²), "-", 16 hex digits and ".tmp".
    static let decorationBytes = 40

    /// The part of a temporary name that stands for target `name`: `name` itself, or, where
    /// the temporary name would pass NAME_MAX though the target's fits (a 215-byte name),
    /// its first bytes (whole UTF-8 characters), "~" and a 64-bit hash of the whole name, so
    /// the temporary fits and still belongs to that one target (`removeStale`).
    package static func stem(for name: String) -> String {
        let room = maximumNameBytes - decorationBytes
        guard name.utf8.count > room else { return name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let suffix = "~" + String(hash, radix: 16).leftPadded(to: 16)
        var prefix = Substring(name)
        while prefix.utf8.count > room - suffix.utf8.count { prefix.removeLast() }
        return prefix + suffix
    }

    /// The target's stem (`stem(for:)`) and writer pid of `entry` when it is a temporary name of `kind`, else nil.
    package static func parse(_ entry: String, kind: Kind) -> (target: String, pid: pid_t)? {
        guard entry.hasPrefix(".") else { return nil }
        switch kind {
        case .output:
            guard entry.hasSuffix(".tmp"), let marker = entry.range(of: ".filmstrip-", options: .backwards) else { return nil }
            let fields = entry[marker.upperBound...].dropLast(".tmp".count).split(separator: "-", omittingEmptySubsequences: false)
            guard fields.count == 2, let pid = pid_t(fields[0]) else { return nil }
            return (String(entry[entry.index(after: entry.startIndex)..<marker.lowerBound]), pid)
        case .partialVideo:
            guard entry.hasSuffix(".partial") else { return nil }
            let parts = entry.dropFirst().dropLast(".partial".count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 3, let pid = pid_t(parts[parts.count - 2]) else { return nil }
            return (parts.dropLast(2).joined(separator: "."), pid)
        }
    }
}
