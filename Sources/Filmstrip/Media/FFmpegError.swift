import CFFmpeg

/// A failed FFmpeg call: the AVERROR code, which call failed, and on which file.
/// The message is built from `av_strerror` only when it is printed.
public struct FFmpegError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The negative `AVERROR` code the call returned.
    public let code: Int32
    /// The FFmpeg function that failed, e.g. "avformat_open_input".
    public let call: String
    /// The file being read or written when the call failed, if any.
    public private(set) var file: String?
    /// True when the process itself ran out of memory (an allocation of a fixed-size object
    /// failed, or after `ENOMEM`, `EAGAIN` from threads that could not start, or `EPERM` from an
    /// encoder that could not set up its threads, not even `headroomBytes` more could be had), not a size in the file that claims too much. Decided when the error is made: by the time it is
    /// printed, the failed call's memory has been given back.
    public let processOutOfMemory: Bool

    /// An error for `code` returned by `call`, optionally naming the `file` it concerned.
    public init(code: Int32, call: String, file: String? = nil) {
        self.code = code
        self.call = call
        self.file = file
        // EAGAIN: avcodec_open2 could not start the decoder's threads (no room for their stacks).
        // EPERM: what a sprite sheet's JPEG encoder returned from avcodec_send_frame when it
        // could not allocate (LowMemoryTests); with headroom left it is reported as it is.
        processOutOfMemory = Self.memoryCodes.contains(code) && !Self.hasHeadroom()
    }

    /// The codes that may mean the process ran out of memory (ENOMEM, EAGAIN, EPERM), as AVERRORs.
    private static let memoryCodes = [ENOMEM, EAGAIN, EPERM].map(filmstrip_averror)

    /// Whether the code is one that may mean the process ran out of memory: for a call on
    /// filmstrip's own data (an encoder given a checked image), where nothing from a file can
    /// be at fault, it does.
    var mayMeanOutOfMemory: Bool { Self.memoryCodes.contains(code) }

    private init(outOfMemoryIn call: String, file: String?) {
        code = filmstrip_averror(ENOMEM)
        self.call = call
        self.file = file
        processOutOfMemory = true
    }

    /// This error with `file` named, its other fields kept.
    func about(_ file: String) -> FFmpegError {
        var named = self
        named.file = file
        return named
    }

    /// `call` could not allocate one of FFmpeg's fixed-size objects (a context, a frame, a
    /// packet): nothing in the file asked for it, so the process is out of memory.
    public static func outOfMemory(in call: String, file: String? = nil) -> FFmpegError {
        FFmpegError(outOfMemoryIn: call, file: file)
    }

    /// `call`, which returns NULL both for arguments it cannot work with and when it has no
    /// memory, returned NULL: out of memory when no headroom is left, else the arguments.
    static func madeNothing(_ call: String, file: String? = nil) -> FFmpegError {
        hasHeadroom() ? FFmpegError(code: filmstrip_averror(EINVAL), call: call, file: file) : .outOfMemory(in: call, file: file)
    }

    /// More memory than any one allocation of a sound video needs (a 4K frame's planes are
    /// 12 MB), far less than a damaged size field claims (a sample of 2 GB): when even this
    /// cannot be had after `ENOMEM`, the process is out of memory, whatever the file says.
    /// The executable's start-up check (`CStartupCheck`) asks for the same 64 MB of room.
    static let headroomBytes = 64 << 20

    /// Whether `headroomBytes` can be allocated now (through FFmpeg's allocator, and given back at once).
    static func hasHeadroom() -> Bool {
        guard let block = av_malloc(headroomBytes) else { return false }
        av_free(block)
        return true
    }

    /// `AVERROR_EOF`: the demuxer or decoder has nothing more to give.
    public static let endOfFile = filmstrip_averror_eof()
    /// `AVERROR(EAGAIN)`: the call needs the other side (send or receive) first; not a failure.
    public static let tryAgain = filmstrip_averror_eagain()
    /// `AVERROR_INVALIDDATA`: the data is damaged or not what the demuxer or decoder expected.
    public static let invalidData = filmstrip_averror_invaliddata()
    /// What FFmpeg returns when the interrupt callback stopped a call (`AVERROR_EXIT`).
    public static let exit = filmstrip_averror_exit()

    /// FFmpeg's own text for the code, for example "Invalid data found when processing input".
    public var reason: String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "FILE: CALL failed: REASON", with FFmpeg's own text for the code.
    public var description: String {
        let prefix = file.map { "\($0): " } ?? ""
        return "\(prefix)\(processOutOfMemory ? "out of memory: " : "")\(call) failed: \(reason)"
    }

    /// Throws when `result` is negative, which is how every FFmpeg call reports failure.
    @discardableResult
    static func check(_ result: Int32, _ call: String, file: String? = nil) throws(FFmpegError) -> Int32 {
        if result < 0 { throw FFmpegError(code: result, call: call, file: file) }
        return result
    }
}
