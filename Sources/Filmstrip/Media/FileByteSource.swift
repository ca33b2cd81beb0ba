import CFFmpeg
import Foundation

/// A file handed to libavformat through an I/O context of filmstrip's own (`AVIOContext` with
/// read and seek callbacks), so that reading can be told to skip packet data.
///
/// Why: a probe needs every packet's times, key flag and position, not its bytes. MP4's
/// demuxer takes those from the sample table it read with the header, then reads each
/// sample's bytes; on the 4-minute 1080p video that read (46 MB, 7320 packets) is most of a
/// probe's packet scan. Once `skipsPacketData` is set, a read only moves the position (up to
/// the real end of the file, so a truncated file still ends where it ends) and the packets
/// come back with their fields set and their bytes undefined. Only `InputFile` uses it, and only
/// after the header has been read from the real bytes.
final class FileByteSource {
    /// The I/O context handed to `avformat_open_input` (freed here, not by libavformat:
    /// the format context is opened with `AVFMT_FLAG_CUSTOM_IO`).
    private(set) var context: UnsafeMutablePointer<AVIOContext>!
    private let descriptor: Int32
    private let path: String
    /// The caller's deadline: reads through this context do not pass FFmpeg's interrupt callback.
    private let limits: InputLimits
    /// Size of the file when it was opened.
    let size: Int64
    private var position: Int64 = 0
    /// When true, reads return the number of bytes asked for (within the file) without reading them.
    var skipsPacketData = false
    /// Bytes that reads returned without reading them (counted for tests and `--stats`).
    private(set) var skippedBytes: Int64 = 0

    /// libavformat's default I/O buffer size.
    private static let bufferSize = 32_768

    /// Opens `path` for reading; the error names the file.
    init(path: String, limits: InputLimits) throws(MediaError) {
        let descriptor: Int32
        do {
            descriptor = try System.open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0)
        } catch {
            throw MediaError(file: path, reason: .unreadable(error.reason))
        }
        let size: Int
        do {
            size = try System.size(descriptor, path: path)
        } catch {
            try? System.close(descriptor, path: path)
            throw MediaError(file: path, reason: .unreadable(error.reason))
        }
        self.descriptor = descriptor
        self.path = path
        self.limits = limits
        self.size = Int64(size)
        guard let buffer = av_malloc(Self.bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
            // Every stored property is set, so deinit runs and closes the file.
            throw MediaError(file: path, reason: .ffmpeg(.outOfMemory(in: "av_malloc", file: path)))
        }
        guard let context = avio_alloc_context(buffer, Int32(Self.bufferSize), 0, Unmanaged.passUnretained(self).toOpaque(),
                                               fileByteSourceRead, nil, fileByteSourceSeek) else {
            av_free(buffer)
            throw MediaError(file: path, reason: .ffmpeg(.outOfMemory(in: "avio_alloc_context", file: path)))
        }
        self.context = context
    }

    deinit {
        if context != nil {
            // libavformat may have replaced the buffer it was given; free the one it holds now.
            av_freep(&context.pointee.buffer)
            avio_context_free(&context)
        }
        try? System.close(descriptor, path: path)
    }

    /// The types of the file's top-level ISO base media boxes (ISO/IEC 14496-12 §4.2: a 32-bit
    /// big-endian size, a four-character type, a 64-bit size when the first is 1, "to the end
    /// of the file" when it is 0), read from the file itself; nil when they do not tile the file
    /// (not an MP4, or damaged). A fragmented MP4 shows `moof` boxes here.
    func topLevelBoxTypes() -> [String]? {
        var types: [String] = []
        var offset: Int64 = 0
        var header = [UInt8](repeating: 0, count: 16)
        while offset < size {
            guard size - offset >= 8, types.count < 10_000 else { return nil }
            let count = Int(min(16, size - offset))
            let read = header.withUnsafeMutableBytes { bytes in
                try? System.read(descriptor, into: bytes.baseAddress!, count: count, at: offset, path: path)
            }
            guard let read, read >= 8 else { return nil }
            func bigEndian(_ range: Range<Int>) -> UInt64 { range.reduce(0) { $0 << 8 | UInt64(header[$1]) } }
            var boxSize = Int64(truncatingIfNeeded: bigEndian(0..<4))
            if boxSize == 1 {
                guard read >= 16 else { return nil }
                boxSize = Int64(truncatingIfNeeded: bigEndian(8..<16))
            } else if boxSize == 0 {
                boxSize = size - offset
            }
            guard boxSize >= 8, boxSize <= size - offset else { return nil }
            types.append(String(decoding: header[4..<8], as: UTF8.self))
            offset += boxSize
        }
        return types
    }

    /// The read callback's work: up to `count` bytes at the current position.
    fileprivate func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        // The file protocol's reads check the deadline through the interrupt callback; these do it here.
        if limits.deadlineHasPassed { return FFmpegError.exit }
        guard position < size else { return FFmpegError.endOfFile }
        let wanted = Int(min(Int64(count), size - position))
        if skipsPacketData {
            position += Int64(wanted)
            skippedBytes += Int64(wanted)
            return Int32(wanted)
        }
        do {
            let read = try System.read(descriptor, into: buffer, count: wanted, at: position, path: path)
            guard read > 0 else { return FFmpegError.endOfFile }
            position += Int64(read)
            return Int32(read)
        } catch {
            return filmstrip_averror(error.code)
        }
    }

    /// The seek callback's work, with `whence` as libavformat passes it.
    fileprivate func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return size }
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = size + offset
        default: return Int64(filmstrip_averror(EINVAL))
        }
        guard target >= 0 else { return Int64(filmstrip_averror(EINVAL)) }
        position = target
        return target
    }
}

/// C entry points for `avio_alloc_context`; `opaque` is the unretained `FileByteSource`, which
/// owns the I/O context and so outlives every call.
private func fileByteSourceRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> Int32 {
    guard let opaque, let buffer, count > 0 else { return filmstrip_averror(EINVAL) }
    return Unmanaged<FileByteSource>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: Int(count))
}

private func fileByteSourceSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return Int64(filmstrip_averror(EINVAL)) }
    return Unmanaged<FileByteSource>.fromOpaque(opaque).takeUnretainedValue().seek(to: offset, whence: whence)
}
