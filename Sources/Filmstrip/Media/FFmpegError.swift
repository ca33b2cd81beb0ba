import CFFmpeg

/// A failed FFmpeg call: the AVERROR code, which call failed, and on which file.
/// The message is built from `av_strerror` only when it is printed.
public struct FFmpegError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The negative `AVERROR` code the call returned.
    public let code: Int32
    /// The FFmpeg function that failed, e.g. "avformat_open_input".
    public let call: String
    /// The file being read or written when the call failed, if any.
    public let file: String?

    /// An error for `code` returned by `call`, optionally naming the `file` it concerned.
    public init(code: Int32, call: String, file: String? = nil) {
        self.code = code
        self.call = call
        self.file = file
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
        return "\(prefix)\(call) failed: \(reason)"
    }

    /// Throws when `result` is negative, which is how every FFmpeg call reports failure.
    @discardableResult
    static func check(_ result: Int32, _ call: String, file: String? = nil) throws(FFmpegError) -> Int32 {
        if result < 0 { throw FFmpegError(code: result, call: call, file: file) }
        return result
    }
}
