import Foundation

/// A file written under a temporary name beside its target (`TemporaryFiles`) and renamed
/// over the target by `commit()`. Dropped without a successful commit (an error on the
/// way), it removes the temporary file, so no partial output is ever left behind.
struct AtomicFile: ByteSink, ~Copyable {
    /// The target.
    let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    private var isOpen = true
    private var isRenamed = false

    /// Checks that `path` can be created (`StripWriter.checkWritable`), removes temporary
    /// files of dead processes beside it, then creates a new temporary file.
    init(path: String) throws(OutputError) {
        try StripWriter.checkWritable(path)
        TemporaryFiles.removeStale(besides: path)
        do {
            (temporaryPath, descriptor) = try TemporaryFiles.create(besides: path)
        } catch {
            throw Self.failure(path, error)
        }
        self.path = path
    }

    deinit {
        if isOpen { try? System.close(descriptor, path: temporaryPath) }
        if !isRenamed { TemporaryFiles.discard(temporaryPath) }
    }

    /// Appends all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        do {
            try System.write(descriptor, bytes, path: temporaryPath)
        } catch {
            throw Self.failure(path, error)
        }
    }

    /// Closes the temporary file; the bytes are then complete, not yet in place.
    mutating func close() throws(OutputError) {
        guard isOpen else { return }
        isOpen = false
        do {
            try System.close(descriptor, path: temporaryPath)
        } catch {
            throw Self.failure(path, error)
        }
    }

    /// Closes the temporary file and renames it over the target.
    consuming func commit() throws(OutputError) {
        try close()
        do {
            try TemporaryFiles.publish(temporaryPath, as: path)
        } catch {
            throw OutputError(file: path, reason: "cannot move the finished file into place (\(error.reason))")
        }
        isRenamed = true
    }

    /// Commits `first`, then `second`, both already written in full: either both targets are
    /// replaced, or, when the second rename fails, the first target is removed again, so a
    /// strip is never left without the manifest that was asked for with it.
    static func commit(_ first: consuming AtomicFile, _ second: consuming AtomicFile) throws(OutputError) {
        try first.close()
        try second.close()
        let firstPath = first.path
        try first.commit()
        do {
            try second.commit()
        } catch {
            System.unlink(firstPath)
            throw error
        }
    }

    /// The error a failed open, write or close gives.
    private static func failure(_ path: String, _ error: SystemError) -> OutputError {
        OutputError(file: path, reason: "cannot write (\(error.call): \(error.reason))")
    }
}

/// Where a writer's bytes go: a file written atomically, or a descriptor the caller opened
/// (standard output for `strip -o -`). `path` names it in errors.
protocol ByteSink: ~Copyable {
    var path: String { get }
    /// Appends all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError)
}

extension ByteSink where Self: ~Copyable {
    func write(_ bytes: [UInt8]) throws(OutputError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(OutputError) in try write(UnsafeRawBufferPointer(buffer)) }
    }

    func write(_ data: Data) throws(OutputError) {
        // Data's `withUnsafeBytes` rethrows untyped errors: carry the typed one out by hand.
        var failure: OutputError?
        data.withUnsafeBytes { bytes in
            do throws(OutputError) { try write(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// A descriptor opened by the caller, written as it is: nothing to rename, and a failure's
/// error keeps the system's code (`OutputError.systemCode`) for a caller that reports it its own way.
struct DescriptorSink: ByteSink {
    let descriptor: Int32
    let path: String

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        do {
            try System.write(descriptor, bytes, path: path)
        } catch {
            throw OutputError(file: path, reason: "cannot write (\(error.call): \(error.reason))", systemCode: error.code)
        }
    }
}
