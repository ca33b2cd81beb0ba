import CSV
import Foundation
import Glibc

/// Appends rows to a results file so that an interrupted run keeps every row
/// it completed.
///
/// The file is opened with `O_APPEND`; the header is written only when the file
/// is empty, and an existing header must match the schema. Each row is encoded
/// in memory by CSV.swift and handed to the kernel in one `write(2)`, so a
/// crash cannot leave half a row behind a complete one; with `durable`, the
/// row is also `fsync`ed before ``append(_:)`` returns, so it survives a power
/// loss too. The writer owns the file descriptor and closes it in `deinit`.
public struct ResultsFileWriter<Row: ResultRecord>: ~Copyable {
    public let path: String
    private let descriptor: Int32
    private let durable: Bool

    /// Opens (creating if needed) the file at `path` for appending.
    /// - Parameter durable: `fsync` after every row; off only for throwaway files,
    ///   since a row costs one disk flush (milliseconds), outside any timed region.
    public init(path: String, durable: Bool = true) throws(ResultsFileError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: path, operation: "open for appending", errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .io(path: path, operation: "stat", errno: code)
        }
        do {
            if status.st_size == 0 {
                try Self.writeAll(Self.encode(Row.Column.header), to: descriptor, path: path, durable: durable)
            } else {
                try ResultsFileReader.checkHeader(Self.existingHeader(path: path), of: Row.self, path: path)
            }
        } catch {
            close(descriptor)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
        self.durable = durable
    }

    deinit {
        close(descriptor)
    }

    /// Appends `row` as one line.
    public func append(_ row: Row) throws(ResultsFileError) {
        let cells = Row.Column.allCases.map { row.cell($0) }
        try Self.writeAll(Self.encode(cells), to: descriptor, path: path, durable: durable)
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

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String, durable: Bool) throws(ResultsFileError) {
        var written = 0
        // One call normally writes everything to a regular file; the loop only
        // covers interruption by a signal and the rare short write.
        while written < data.count {
            let result = data.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, operation: "write", errno: errno)
            }
            written += result
        }
        if durable, fsync(descriptor) != 0 {
            throw .io(path: path, operation: "fsync", errno: errno)
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
