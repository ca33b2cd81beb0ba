import CFFmpeg

/// A failed FFmpeg call: the AVERROR code, which call failed, and on which file.
/// The message is built from `av_strerror` only when it is printed.
public struct FFmpegError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: Int32
    public let call: String
    public let file: String?

    public init(code: Int32, call: String, file: String? = nil) {
        self.code = code
        self.call = call
        self.file = file
    }

    public static let endOfFile = filmstrip_averror_eof()
    public static let tryAgain = filmstrip_averror_eagain()
    public static let invalidData = filmstrip_averror_invaliddata()
    /// What FFmpeg returns when the interrupt callback stopped a call (`AVERROR_EXIT`).
    public static let exit = filmstrip_averror_exit()

    /// FFmpeg's own text for the code, for example "Invalid data found when processing input".
    public var reason: String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

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
