import Foundation

/// A run's hold on its output folder, for the whole run. A `sprite` run writes its sheets and
/// then the indexes that name them; two runs with other settings writing into one folder at
/// once each finished with an index that named the other's sheets. So a run takes this lock
/// before any work, and a second run into the folder stops at once with `OutputFolderBusy`
/// (waiting would only make the later run overwrite the earlier one's outputs, unasked).
///
/// Shards of one library (`--shard I/N`) write disjoint videos and are meant to run side by
/// side into one folder: each holds the folder's lock shared, which keeps whole runs out, and
/// its own shard's lock exclusive, which keeps the same shard out.
///
/// A lock is `flock` on a hidden file in the folder (`.filmstrip.lock`, `.filmstrip-shard-I-of-N.lock`:
/// library scans skip hidden files, and the up-to-date check never looks at them), removed by
/// the last holder so a finished run leaves nothing behind. A run killed by a signal leaves
/// the file but not the lock: the kernel drops a dead process's `flock`, and the next run
/// takes the file over.
package final class OutputFolderLock: Sendable {
    /// The folder lock's file name.
    package static let fileName = ".filmstrip.lock"

    private let held: [(descriptor: Int32, path: String)]

    /// Locks `folder` (which must exist) for a whole run, or for shard `shard` of `shardCount`;
    /// throws `OutputFolderBusy` when another run holds what this one needs, and `SystemError`
    /// when a lock file cannot be made (a folder this user cannot write).
    package init(folder: String, shard: (index: Int, count: Int)? = nil) throws {
        let folderLock = URL(fileURLWithPath: folder).appendingPathComponent(Self.fileName).path
        let first = try Self.lock(folderLock, exclusive: shard == nil, folder: folder)
        guard let shard else {
            held = [first]
            return
        }
        do {
            let shardLock = URL(fileURLWithPath: folder).appendingPathComponent(".filmstrip-shard-\(shard.index)-of-\(shard.count).lock").path
            held = [first, try Self.lock(shardLock, exclusive: true, folder: folder)]
        } catch {
            Self.release(first)
            throw error
        }
    }

    deinit {
        for lock in held.reversed() { Self.release(lock) }
    }

    /// A descriptor of the file at `path` holding its lock, shared or `exclusive`. A run that
    /// finished between this one's `open` and `flock` removed the file it opened: the lock is
    /// then on a file no other run can find, so the name is opened again.
    private static func lock(_ path: String, exclusive: Bool, folder: String) throws -> (descriptor: Int32, path: String) {
        while true {
            let descriptor = try System.open(path, flags: O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o666)
            let locked: Bool
            do {
                locked = try System.tryLock(descriptor, exclusive: exclusive, path: path)
            } catch {
                try? System.close(descriptor, path: path)
                throw error
            }
            guard locked else {
                try? System.close(descriptor, path: path)
                throw OutputFolderBusy(folder: folder, lockFile: URL(fileURLWithPath: path).lastPathComponent)
            }
            if let identity = System.identity(of: descriptor), identity == System.identity(path) { return (descriptor, path) }
            try? System.close(descriptor, path: path)
        }
    }

    /// Unlocks `lock`, removing its file when no other run holds it: the file goes while still
    /// locked, so a run that opened it before sees it gone once it has the lock (`lock`).
    private static func release(_ lock: (descriptor: Int32, path: String)) {
        if (try? System.tryLock(lock.descriptor, exclusive: true, path: lock.path)) == true { System.unlink(lock.path) }
        try? System.close(lock.descriptor, path: lock.path)
    }
}

/// Another filmstrip run holds the output folder's lock (`OutputFolderLock`): this run stopped
/// before any work.
public struct OutputFolderBusy: Error, Hashable, Sendable, CustomStringConvertible {
    /// The output folder.
    public let folder: String
    /// The name of the lock file in it that the other run holds.
    public let lockFile: String

    /// "FOLDER: another filmstrip run is writing there …", the one line the tool prints.
    public var description: String {
        "\(folder): another filmstrip run is writing there (it holds \(lockFile)); "
            + "wait for it to finish, or give another output folder"
    }
}
