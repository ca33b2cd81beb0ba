import CSV
import Filmstrip
import Foundation
import Glibc

/// Appends rows to a results file so that an interrupted run keeps every row
/// it completed, and nothing else.
///
/// The file is opened with `O_APPEND`; the header is written only when the file
/// is empty, and an existing header must match the schema. Each row is encoded
/// in memory by CSV.swift and handed to the kernel in one `write(2)`. Every
/// operation holds an exclusive `flock` on the file, so two runs appending to the
/// same file (two `bench --out X`) never both write a header and never mix the
/// bytes of two rows. The file is kept to whole records:
/// - a write that fails (disk full) is undone by truncating the file back to its
///   size before that row;
/// - a file whose last record is incomplete (a crash or power loss mid-write of an
///   older harness) is cut back to its last complete record on opening, and
///   ``repairs`` says so.
/// With `durable`, each row is also `fsync`ed before ``append(_:)`` returns, so it
/// survives a power loss. The writer owns the file descriptor and closes it in `deinit`.
package struct ResultsFileWriter<Row: ResultRecord>: ~Copyable {
    package let path: String
    private let descriptor: Int32
    private let durable: Bool
    /// Test hook: a write past this many bytes of the file writes up to it and fails with `ENOSPC`.
    private let simulatedDiskSize: Int?
    /// What opening repaired, one sentence each (for a warning on stderr).
    package let repairs: [String]

    /// Opens (creating if needed) the file at `path` for appending.
    /// - Parameter durable: `fsync` after every row; off only for throwaway files,
    ///   since a row costs one disk flush (milliseconds), outside any timed region.
    package init(path: String, durable: Bool = true) throws(ResultsFileError) {
        try self.init(path: path, durable: durable, simulatedDiskSize: nil)
    }

    init(path: String, durable: Bool, simulatedDiskSize: Int?) throws(ResultsFileError) {
        let descriptor: Int32
        do {
            descriptor = try System.open(path, flags: O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, mode: 0o644)
        } catch {
            throw .io(path: path, operation: "open for appending", errno: error.code)
        }
        var repairs: [String] = []
        do throws(ResultsFileError) {
            try Self.locked(descriptor, path: path) { () throws(ResultsFileError) in
                let size = try Self.size(of: descriptor, path: path)
                if size == 0 {
                    try Self.writeAll(Self.encode(Row.Column.header), to: descriptor, path: path, durable: durable,
                                      sizeBefore: 0, simulatedDiskSize: simulatedDiskSize)
                    return
                }
                let complete = try Self.completeRecordsLength(descriptor: descriptor, size: size, path: path)
                if complete < size {
                    do throws(SystemError) {
                        try System.truncate(descriptor, to: complete, path: path)
                    } catch {
                        throw .io(path: path, operation: "truncate the incomplete last record", errno: error.code)
                    }
                    repairs.append("\(path): dropped an incomplete last record (\(size - complete) bytes) before appending")
                }
                try ResultsFileReader.checkHeader(Self.existingHeader(path: path), of: Row.self, path: path)
            }
        } catch {
            try? System.close(descriptor, path: path)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
        self.durable = durable
        self.simulatedDiskSize = simulatedDiskSize
        self.repairs = repairs
    }

    deinit {
        try? System.close(descriptor, path: path)
    }

    /// Appends `row` as one line; on failure the file is as it was before.
    package func append(_ row: Row) throws(ResultsFileError) {
        let cells = Row.Column.allCases.map { row.cell($0) }
        let data = try Self.encode(cells)
        try Self.locked(descriptor, path: path) { () throws(ResultsFileError) in
            let sizeBefore = try Self.size(of: descriptor, path: path)
            try Self.writeAll(data, to: descriptor, path: path, durable: durable, sizeBefore: sizeBefore,
                              simulatedDiskSize: simulatedDiskSize)
        }
    }

    /// Runs `body` holding an exclusive lock on the file (waiting for another writer's).
    private static func locked(_ descriptor: Int32, path: String, _ body: () throws(ResultsFileError) -> Void) throws(ResultsFileError) {
        do {
            try System.lockExclusive(descriptor, path: path)
        } catch {
            throw .io(path: path, operation: "lock", errno: error.code)
        }
        defer { System.unlock(descriptor) }
        try body()
    }

    private static func size(of descriptor: Int32, path: String) throws(ResultsFileError) -> Int {
        do {
            return try System.size(descriptor, path: path)
        } catch {
            throw .io(path: path, operation: "stat", errno: error.code)
        }
    }

    /// Bytes of the file up to the end of its last complete record: a line end outside
    /// quotes (cells may hold quoted line ends).
    static func completeRecordsLength(descriptor: Int32, size: Int, path: String) throws(ResultsFileError) -> Int {
        let bytes: [UInt8]
        do {
            bytes = try System.readPrefix(descriptor, count: size, path: path)
        } catch {
            throw .io(path: path, operation: "read", errno: error.code)
        }
        var quoted = false, end = 0
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: "\n") && !quoted { end = offset + 1 }
        }
        return end
    }

    /// One CSV record with its line end. CSV.swift does the quoting; it writes
    /// the separator before a row rather than after, so a fresh writer per row
    /// gives exactly one record and the newline is added here.
    private static func encode(_ cells: [String]) throws(ResultsFileError) -> Data {
        let stream = OutputStream.toMemory()
        do {
            let writer = try CSVWriter(stream: stream)
            try writer.write(row: cells)
            writer.stream.close()
        } catch {
            throw .malformed(path: "<memory>", reason: "CSV encoding failed: \(error)")
        }
        var data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String, durable: Bool,
                                 sizeBefore: Int, simulatedDiskSize: Int?) throws(ResultsFileError) {
        // The test hook's disk holds only so many bytes: the part that fits, then ENOSPC.
        let fitting = simulatedDiskSize.map { min(data.count, max(0, $0 - sizeBefore)) } ?? data.count
        do throws(SystemError) {
            // Data's `withUnsafeBytes` rethrows untyped errors: carry the typed one out by hand.
            var failure: SystemError?
            data.withUnsafeBytes { buffer in
                do throws(SystemError) {
                    try System.write(descriptor, UnsafeRawBufferPointer(rebasing: buffer[..<fitting]), path: path)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            if fitting < data.count { throw SystemError(call: "write", path: path, code: ENOSPC) }
        } catch {
            // Undo the part of the row that did reach the file: whole rows only.
            try? System.truncate(descriptor, to: sizeBefore, path: path)
            throw .io(path: path, operation: "write", errno: error.code)
        }
        if durable {
            do {
                try System.sync(descriptor, path: path)
            } catch {
                throw .io(path: path, operation: "fsync", errno: error.code)
            }
        }
    }

    /// The header record of the existing file at `path`.
    private static func existingHeader(path: String) throws(ResultsFileError) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .io(path: path, operation: "read", errno: errno)
        }
        defer { try? handle.close() }
        // Column names contain no quotes or newlines, so the header is the first line.
        let prefix = (try? handle.read(upToCount: 1 << 16)) ?? Data()
        let firstLine = prefix.split(separator: UInt8(ascii: "\n"), maxSplits: 1).first ?? Data()
        guard let text = String(data: firstLine, encoding: .utf8),
              let reader = try? CSVReader(string: text, hasHeaderRow: true) else {
            throw .malformed(path: path, reason: "unreadable header")
        }
        return reader.headerRow ?? []
    }
}
