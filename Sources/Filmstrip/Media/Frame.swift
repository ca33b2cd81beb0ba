import CFFmpeg

/// Owns one `AVFrame`, reused across decodes (the decoder replaces its buffers).
public struct Frame: ~Copyable {
    let pointer: UnsafeMutablePointer<AVFrame>

    /// An empty frame whose buffers the decoder fills.
    /// - Throws: `FFmpegError` (out of memory) when not even the frame's header can be allocated.
    public init() throws(FFmpegError) {
        guard let frame = av_frame_alloc() else { throw .outOfMemory(in: "av_frame_alloc") }
        pointer = frame
    }

    /// A frame with its own writable planes, for encoding.
    init(width: Int, height: Int, pixelFormat: AVPixelFormat) throws(FFmpegError) {
        guard let frame = av_frame_alloc() else { throw .outOfMemory(in: "av_frame_alloc") }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = pixelFormat.rawValue
        let result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else {
            var toFree: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&toFree)
            throw FFmpegError(code: result, call: "av_frame_get_buffer")
        }
        pointer = frame
    }

    /// An empty frame for decoding `path`; out of memory is an error about that file.
    static func decoding(_ path: String) throws(MediaError) -> Frame {
        do { return try Frame() } catch { throw .ffmpeg(error, file: path) }
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Width of the decoded picture in pixels (coded size, before aspect ratio and rotation).
    public var width: Int { Int(pointer.pointee.width) }
    /// Height of the decoded picture in pixels (coded size, before aspect ratio and rotation).
    public var height: Int { Int(pointer.pointee.height) }
    /// The decoder's best guess at the presentation time, in the stream's time base.
    public var presentationTime: Int64? {
        let value = pointer.pointee.best_effort_timestamp
        if value != filmstrip_nopts_value() { return value }
        return pointer.pointee.pts == filmstrip_nopts_value() ? nil : pointer.pointee.pts
    }
    /// Whether the decoder flagged the frame as damaged (`AV_FRAME_FLAG_CORRUPT`); such frames are not shown.
    public var isCorrupt: Bool { pointer.pointee.flags & filmstrip_frame_flag_corrupt() != 0 }
    /// libavutil's name of the frame's pixel format, for example "yuv420p", or "unknown".
    public var pixelFormatName: String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: pointer.pointee.format)).map { String(cString: $0) } ?? "unknown"
    }

    /// Sets the presentation time of a frame that is about to be encoded.
    public mutating func setPresentationTime(_ pts: Int64) { pointer.pointee.pts = pts }

    /// An 8-bit 4:2:0 planar frame with its own buffers (the reference videos' painted format).
    package static func planar420(width: Int, height: Int) throws(FFmpegError) -> Frame {
        try Frame(width: width, height: height, pixelFormat: AV_PIX_FMT_YUV420P)
    }

    /// Sets the time `presentationTime` reports, where the caller knows it better than the decoder's guess.
    mutating func replacePresentationTime(with pts: Int64) {
        pointer.pointee.pts = pts
        pointer.pointee.best_effort_timestamp = pts
    }

    /// Calls `body` with plane `index` as bytes plus its stride; the pointer is valid only inside `body`.
    public func withPlane<Result>(_ index: Int, rows: Int,
                                  _ body: (UnsafeMutableRawPointer, Int) throws -> Result) rethrows -> Result {
        guard let data = filmstrip_frame_plane(pointer, Int32(index)) else {
            preconditionFailure("frame has no plane \(index)")
        }
        return try body(UnsafeMutableRawPointer(data), Int(filmstrip_frame_linesize(pointer, Int32(index))))
    }

    /// Makes the planes writable (copying them if an encoder still references them).
    public mutating func makeWritable() throws(FFmpegError) {
        try FFmpegError.check(av_frame_make_writable(pointer), "av_frame_make_writable")
    }

    func unreference() { av_frame_unref(pointer) }

    /// Makes this frame share `other`'s buffers (reference counted, no pixel copy).
    public mutating func reference(_ other: borrowing Frame) throws(FFmpegError) {
        av_frame_unref(pointer)
        try FFmpegError.check(av_frame_ref(pointer, other.pointer), "av_frame_ref")
    }

    /// True when the frame holds a picture.
    public var hasPicture: Bool { pointer.pointee.buf.0 != nil }
}
