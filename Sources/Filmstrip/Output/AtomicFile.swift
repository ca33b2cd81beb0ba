import Foundation

/// A file written under a temporary name beside its target (`.NAME.PID.tmp`) and renamed
/// over the target by `commit()`. Dropped without a successful `commit()` (an error on the
/// way), it removes the temporary file, so no partial output is ever left behind.
struct AtomicFile: ~Copyable {
    /// The target.
    let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    private var isOpen = true
    private var isRenamed = false

    /// Checks that `path` can be created (`StripWriter.checkWritable`), then opens the temporary file.
    init(path: String) throws(OutputError) {
        try StripWriter.checkWritable(path)
        let target = URL(fileURLWithPath: path)
        let temporaryPath = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(getpid()).tmp").path
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.failure(path) }
        self.path = path
        self.temporaryPath = temporaryPath
        self.descriptor = descriptor
    }

    deinit {
        if isOpen { close(descriptor) }
        if !isRenamed { unlink(temporaryPath) }
    }

    /// Appends all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path)
            }
            offset += written
        }
    }

    func write(_ bytes: [UInt8]) throws(OutputError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(OutputError) in try write(UnsafeRawBufferPointer(buffer)) }
    }

    /// Closes the temporary file and renames it over the target.
    consuming func commit() throws(OutputError) {
        isOpen = false
        guard close(descriptor) == 0 else { throw Self.failure(path) }
        guard rename(temporaryPath, path) == 0 else { throw OutputError(file: path, reason: String(cString: strerror(errno))) }
        isRenamed = true
    }

    /// The error `errno` describes, for a failed open, write or close.
    private static func failure(_ path: String) -> OutputError {
        OutputError(file: path, reason: "cannot write (\(String(cString: strerror(errno))))")
    }
}
