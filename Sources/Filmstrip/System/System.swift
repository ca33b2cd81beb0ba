import CMalloc
import Foundation
import Glibc
import Synchronization

/// A failed system call: which call, on which path, and `errno`.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The system call that failed, e.g. "open".
    public let call: String
    /// The path the call was made on.
    public let path: String
    /// The `errno` value the call left.
    public let code: Int32

    /// An error for `call` on `path` that failed with `errno` `code`.
    public init(call: String, path: String, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
    }

    /// `strerror`'s text, for example "Permission denied".
    public var reason: String { String(cString: strerror(code)) }
    /// "PATH: CALL failed: REASON", the one line the tool prints on standard error; a thread
    /// that cannot be made for want of memory for its stack (EAGAIN) says so first.
    public var description: String {
        call == "pthread_create" && (code == EAGAIN || code == ENOMEM)
            ? "\(path): out of memory (no room for a thread's stack; \(call) failed: \(reason))" : "\(path): \(call) failed: \(reason)"
    }
}

/// The process could not allocate `bytes` for `purpose`: it ran into an address-space limit
/// (`ulimit -v`) or the machine has no memory left. Nothing in the input asked for too much
/// (sizes from a file are checked against the limits before anything is allocated), so the
/// message says so instead of blaming the file.
public struct OutOfMemory: Error, Hashable, Sendable, CustomStringConvertible {
    /// The size of the allocation that failed.
    public let bytes: Int
    /// What the memory was for, e.g. "the strip's pixels".
    public let purpose: String

    /// An allocation of `bytes` for `purpose` that failed.
    public init(bytes: Int, purpose: String) {
        self.bytes = bytes
        self.purpose = purpose
    }

    /// One line saying how much memory was wanted and for what, and that the file is not at fault.
    public var description: String {
        let megabytes = String(format: "%.1f", Double(bytes) / 1_048_576)
        return "out of memory (the process could not allocate \(megabytes) MB for \(purpose); not a fault of the file)"
    }
}

/// The one place the package makes raw system calls (the library's outputs, the bench's
/// results files and child processes): each retries on EINTR and reports `errno` as a `SystemError`.
package enum System {
    package static func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
        while true {
            let descriptor = FileSystemName.withCString(path) { Foundation.open($0, flags, mode) }
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { throw SystemError(call: "open", path: path, code: errno) }
        }
    }

    /// Writes all of `bytes`.
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError(call: "write", path: path, code: errno)
            }
            offset += written
        }
    }

    /// Closes `descriptor`; an error here can be the first report of a failed write (NFS, quotas).
    package static func close(_ descriptor: Int32, path: String) throws(SystemError) {
        // Linux releases the descriptor even when close reports EINTR: never retry.
        if Foundation.close(descriptor) != 0 && errno != EINTR { throw SystemError(call: "close", path: path, code: errno) }
    }

    static func rename(_ from: String, to: String) throws(SystemError) {
        let result = FileSystemName.withCString(from) { from in FileSystemName.withCString(to) { Foundation.rename(from, $0) } }
        if result != 0 { throw SystemError(call: "rename", path: to, code: errno) }
    }

    /// Removes `path`, ignoring a file already gone.
    static func unlink(_ path: String) {
        _ = FileSystemName.withCString(path) { Foundation.unlink($0) }
    }

    /// Holds an exclusive `flock` on `descriptor`, waiting for another holder's.
    package static func lockExclusive(_ descriptor: Int32, path: String) throws(SystemError) {
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { throw SystemError(call: "flock", path: path, code: errno) }
        }
    }

    /// Takes a shared or `exclusive` `flock` on `descriptor` without waiting (or turns the one
    /// held into it): false when another holder's lock stands in the way.
    package static func tryLock(_ descriptor: Int32, exclusive: Bool, path: String) throws(SystemError) -> Bool {
        while flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return false }
            if errno != EINTR { throw SystemError(call: "flock", path: path, code: errno) }
        }
        return true
    }

    /// Releases this process's `flock` on `descriptor`.
    package static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
    }

    /// The size in bytes of the open file `descriptor`.
    package static func size(_ descriptor: Int32, path: String) throws(SystemError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemError(call: "fstat", path: path, code: errno) }
        return Int(status.st_size)
    }

    /// Up to `count` bytes of the open file `descriptor` from its start (fewer at end of file).
    package static func readPrefix(_ descriptor: Int32, count: Int, path: String) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(done)) }
            if read < 0 {
                if errno == EINTR { continue }
                throw SystemError(call: "pread", path: path, code: errno)
            }
            if read == 0 { break }
            done += read
        }
        return Array(bytes[..<done])
    }

    /// Reads up to `count` bytes at byte `offset` of the open file `descriptor` into `buffer`:
    /// the number read, 0 at the end of the file (one `pread`, retried on EINTR).
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64, path: String) throws(SystemError) -> Int {
        while true {
            let read = pread(descriptor, buffer, count, off_t(offset))
            if read >= 0 { return read }
            if errno != EINTR { throw SystemError(call: "pread", path: path, code: errno) }
        }
    }

    /// Cuts the open file `descriptor` to `length` bytes.
    package static func truncate(_ descriptor: Int32, to length: Int, path: String) throws(SystemError) {
        while ftruncate(descriptor, off_t(length)) != 0 {
            if errno != EINTR { throw SystemError(call: "ftruncate", path: path, code: errno) }
        }
    }

    /// Flushes the open file `descriptor` to the disk.
    package static func sync(_ descriptor: Int32, path: String) throws(SystemError) {
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw SystemError(call: "fsync", path: path, code: errno) }
        }
    }

    /// `byteCount` bytes aligned to `alignment` (a power of two, a multiple of the pointer size),
    /// uninitialised; give them back with `deallocate`. Swift's own allocation ends the process
    /// when the memory cannot be had; this throws, so a big buffer (a strip, a sprite sheet)
    /// fails the video it is for and a library run goes on.
    package static func allocate(byteCount: Int, alignment: Int, for purpose: String) throws(OutOfMemory) -> UnsafeMutableRawPointer {
        var pointer: UnsafeMutableRawPointer?
        guard posix_memalign(&pointer, alignment, max(byteCount, 1)) == 0, let pointer else {
            throw OutOfMemory(bytes: byteCount, purpose: purpose)
        }
        return pointer
    }

    /// Throws `OutOfMemory` unless `byteCount` bytes can be had now: allocates them and gives
    /// them straight back. For a big buffer that Swift allocates itself (an `Image`'s pixel
    /// array), whose failure would end the process: checked just before it, with no big
    /// allocation between, the array gets the room the check found. Only another thread
    /// allocating in that moment can still take it (docs/errors.md).
    package static func checkRoom(byteCount: Int, for purpose: String) throws(OutOfMemory) {
        deallocate(try allocate(byteCount: byteCount, alignment: 16, for: purpose))
    }

    /// Gives back memory from `allocate(byteCount:alignment:for:)`.
    package static func deallocate(_ pointer: UnsafeMutableRawPointer) {
        free(pointer)
    }

    /// A new pipe (read end, write end), both closed on exec: a child gets only the end it is
    /// handed with `dup2`, so a pipe meant for one child never keeps another's reader waiting.
    package static func pipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw SystemError(call: "pipe", path: "pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Every byte readable from `descriptor` until end of file (or a read error).
    package static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count > 0 {
                all.append(contentsOf: chunk[..<count])
            } else if count == 0 || errno != EINTR {
                return all
            }
        }
    }

    /// The 1-minute load average of `/proc/loadavg` (runnable and uninterruptible threads,
    /// averaged), nil where it cannot be read (not Linux, no procfs).
    package static func loadAverage() -> Double? {
        let path = "/proc/loadavg"
        guard let descriptor = try? open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0) else { return nil }
        defer { try? close(descriptor, path: path) }
        guard let bytes = try? readPrefix(descriptor, count: 128, path: path),
              let first = String(decoding: bytes, as: UTF8.self).split(separator: " ").first else { return nil }
        return Double(first)
    }

    /// Blocks until child `pid` has exited, leaving it unreaped (`WNOWAIT`), so its pid stays its own.
    package static func waitForExit(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    /// Reaps exited child `pid`: its wait status and its own resource usage.
    package static func reap(_ pid: pid_t) -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return (status, usage)
    }

    /// `stat` of `path` (following symbolic links, `lstat` with `followingLinks: false`); nil with `errno` set when it fails.
    package static func status(_ path: String, followingLinks: Bool = true) -> stat? {
        var status = stat()
        let result = FileSystemName.withCString(path) { followingLinks ? stat($0, &status) : lstat($0, &status) }
        return result == 0 ? status : nil
    }

    /// The names in folder `path` (without "." and ".."), as `FileSystemName` strings that
    /// carry their exact bytes: Foundation's listing drops names that are not UTF-8.
    package static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
        guard let directory = FileSystemName.withCString(path, { opendir($0) }) else {
            throw SystemError(call: "opendir", path: path, code: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw SystemError(call: "readdir", path: path, code: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FileSystemName.string(fromBytes: raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Creates folder `path` and any missing folders above it (`mkdir -p`), on the path's bytes;
    /// a folder already there is fine.
    package static func createDirectories(_ path: String) throws(SystemError) {
        if let status = status(path), status.st_mode & S_IFMT == S_IFDIR { return }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if parent != path && parent != "/" { try createDirectories(parent) }
        let result = FileSystemName.withCString(path) { mkdir($0, 0o777) }
        if result != 0 && (errno != EEXIST || !isDirectory(path)) {
            throw SystemError(call: "mkdir", path: path, code: errno == EEXIST ? ENOTDIR : errno)
        }
    }

    /// True when `path` names a folder (following links).
    package static func isDirectory(_ path: String) -> Bool {
        status(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
    }

    /// Device and inode of the open file `descriptor`; nil when `fstat` fails.
    static func identity(of descriptor: Int32) -> FileIdentity? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Device and inode of the file `path` names, following symbolic links; nil when it does not exist.
    static func identity(_ path: String) -> FileIdentity? {
        guard let status = status(path) else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}

/// glibc's `M_PERTURB` while any caller needs it: every block malloc hands out is filled with
/// one byte pattern (and every freed one with another), so code that reads heap memory it
/// never wrote reads the same bytes on every run. Process-wide, so counted: the setting is
/// cleared when the last caller leaves.
package enum HeapPerturbation {
    private static let users = Mutex(0)
    /// The byte glibc writes into freed blocks (new blocks get its complement).
    private static let pattern: Int32 = 0xA5

    package static func during<Result>(_ body: () throws -> Result) rethrows -> Result {
        users.withLock { count in
            if count == 0 { mallopt(M_PERTURB, pattern) }
            count += 1
        }
        defer {
            users.withLock { count in
                count -= 1
                if count == 0 { mallopt(M_PERTURB, 0) }  // 0 turns it off
            }
        }
        return try body()
    }
}

/// A file as the kernel knows it: two paths name the same file when these are equal.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}
