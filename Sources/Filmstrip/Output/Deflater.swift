import CZlib

/// A failed zlib call: its return code and which call failed.
public struct ZlibError: Error, Hashable, Sendable, CustomStringConvertible {
    /// zlib's return code, e.g. `Z_MEM_ERROR`.
    public let code: Int32
    /// The zlib function that failed, e.g. "deflate".
    public let call: String

    /// zlib's own text for the code, for example "insufficient memory".
    public var reason: String { String(cString: zError(code)) }
    /// "`call` failed: `reason`", for the tool's one-line error message.
    public var description: String { "\(call) failed: \(reason)" }
}

/// Owns one zlib deflate stream and the buffer it compresses into.
///
/// The `z_stream` is on the heap because zlib's state points back at it: a stream that
/// moved would fail zlib's consistency check.
struct Deflater: ~Copyable {
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    /// Compressed bytes in `output` not yet handed over.
    private var filled = 0

    /// A zlib-format stream (as PNG wants) at `level`, 0 (stored) to 9 (smallest, slowest);
    /// compressed bytes are handed over `outputCapacity` bytes at a time.
    init(level: Int, outputCapacity: Int = 256 * 1024) throws(ZlibError) {
        precondition((0...9).contains(level) && outputCapacity > 0)
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = filmstrip_deflate_init2(stream, Int32(level), MAX_WBITS, 8, Z_DEFAULT_STRATEGY)
        guard result == Z_OK else {
            stream.deallocate()
            throw ZlibError(code: result, call: "deflateInit2")
        }
        self.stream = stream
        output = .allocate(byteCount: outputCapacity, alignment: 16)
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Compresses `input` (zlib copies what it needs: the bytes may change after the call).
    /// Whenever the output buffer is full, `sink` gets its bytes, valid only during that call.
    /// With `finish`, ends the stream and hands over everything left, the last part shorter.
    mutating func compress<Failure: Error>(_ input: UnsafeRawBufferPointer, finish: Bool = false,
                                           into sink: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
        while true {
            stream.pointee.next_out = (output.baseAddress! + filled).assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(output.count - filled)
            let result = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
            // Z_BUF_ERROR only says no progress was possible; anything else is a misuse of the stream.
            precondition(result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "deflate returned \(result)")
            filled = output.count - Int(stream.pointee.avail_out)
            let ended = result == Z_STREAM_END
            if filled == output.count || (ended && filled > 0) {
                try sink(UnsafeRawBufferPointer(rebasing: output[..<filled]))
                filled = 0
            }
            if finish ? ended : stream.pointee.avail_in == 0 { break }
        }
        stream.pointee.next_in = nil
    }
}

/// CRC-32 (ISO 3309, as PNG chunks carry it), computed by zlib.
struct CRC32 {
    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        value = UInt32(crc32_z(UInt(value), start.assumingMemoryBound(to: Bytef.self), bytes.count))
    }
}
