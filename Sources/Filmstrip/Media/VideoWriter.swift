import CFFmpeg

/// How to encode a video: which libavcodec encoder, picture geometry, timing and GOP shape.
public struct EncoderSettings: Hashable, Sendable {
    /// libavcodec encoder name, for example "libx264", "libx265", "libvpx-vp9", "libsvtav1", "mpeg4".
    public var encoderName: String
    public var width: Int
    public var height: Int
    /// Time base of frame timestamps, usually 1/fps.
    public var timeBase: Rational
    public var frameRate: Rational
    /// Distance between keyframes, in frames.
    public var keyframeInterval: Int
    public var maxBFrames: Int
    public var sampleAspectRatio: Rational
    /// Target bits per second for encoders without a constant-quality default (mpeg4); nil keeps the encoder's.
    public var bitRate: Int?
    /// Encoder private options, for example ["preset": "veryfast"].
    public var options: [String: String]

    public init(encoderName: String, width: Int, height: Int, timeBase: Rational, frameRate: Rational,
                keyframeInterval: Int, maxBFrames: Int, sampleAspectRatio: Rational = Rational(1),
                bitRate: Int? = nil, options: [String: String] = [:]) {
        self.encoderName = encoderName
        self.width = width
        self.height = height
        self.timeBase = timeBase
        self.frameRate = frameRate
        self.keyframeInterval = keyframeInterval
        self.maxBFrames = maxBFrames
        self.sampleAspectRatio = sampleAspectRatio
        self.bitRate = bitRate
        self.options = options
    }
}

/// Owns an encoder plus a muxer writing one video stream to a file.
///
/// Call `finish()` to flush the encoder and write the container trailer; dropping the
/// writer without it frees everything but leaves an incomplete file (callers write to
/// a temporary name and delete it on failure).
public struct VideoWriter: ~Copyable {
    private let format: UnsafeMutablePointer<AVFormatContext>
    private let encoder: UnsafeMutablePointer<AVCodecContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private var packet = Packet()
    private var frame: Frame
    public let path: String

    /// - Parameters:
    ///   - containerName: muxer short name ("mp4", "matroska", "webm"); nil guesses from the extension.
    ///   - rotationDegrees: clockwise rotation a player applies on display (stored as a display matrix).
    public init(path: String, containerName: String?, settings: EncoderSettings,
                rotationDegrees: Int = 0) throws(FFmpegError) {
        FFmpegLogging.configure()
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&allocated, nil, containerName, path),
                              "avformat_alloc_output_context2", file: path)
        let format = allocated!
        var encoderContext: UnsafeMutablePointer<AVCodecContext>?
        var options: OpaquePointer?
        // Until every field of `self` is set, failures free what was made here.
        func fail(_ error: FFmpegError) -> FFmpegError {
            av_dict_free(&options)
            avcodec_free_context(&encoderContext)
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
            return error
        }
        guard let codec = avcodec_find_encoder_by_name(settings.encoderName) else {
            throw fail(FFmpegError(code: filmstrip_averror_encoder_not_found(), call: "avcodec_find_encoder_by_name(\(settings.encoderName))", file: path))
        }
        guard let stream = avformat_new_stream(format, nil) else {
            throw fail(FFmpegError(code: filmstrip_averror(ENOMEM), call: "avformat_new_stream", file: path))
        }
        encoderContext = avcodec_alloc_context3(codec)
        guard let encoder = encoderContext else { fatalError("avcodec_alloc_context3: out of memory") }
        encoder.pointee.width = Int32(settings.width)
        encoder.pointee.height = Int32(settings.height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.time_base = AVRational(num: Int32(settings.timeBase.numerator), den: Int32(settings.timeBase.denominator))
        encoder.pointee.framerate = AVRational(num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
        encoder.pointee.gop_size = Int32(settings.keyframeInterval)
        encoder.pointee.max_b_frames = Int32(settings.maxBFrames)
        // A fixed GOP keeps the keyframe index a property of the spec, not of the content.
        encoder.pointee.keyint_min = Int32(settings.keyframeInterval)
        if let bitRate = settings.bitRate { encoder.pointee.bit_rate = Int64(bitRate) }
        let aspect = AVRational(num: Int32(settings.sampleAspectRatio.numerator), den: Int32(settings.sampleAspectRatio.denominator))
        encoder.pointee.sample_aspect_ratio = aspect
        stream.pointee.sample_aspect_ratio = aspect
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        for (key, value) in settings.options.sorted(by: { $0.key < $1.key }) {
            av_dict_set(&options, key, value, 0)
        }
        var result = avcodec_open2(encoder, codec, &options)
        av_dict_free(&options)
        if result < 0 { throw fail(FFmpegError(code: result, call: "avcodec_open2(\(settings.encoderName))", file: path)) }
        result = avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        if result < 0 { throw fail(FFmpegError(code: result, call: "avcodec_parameters_from_context", file: path)) }
        stream.pointee.time_base = encoder.pointee.time_base
        stream.pointee.avg_frame_rate = encoder.pointee.framerate
        if rotationDegrees % 360 != 0 {
            result = filmstrip_stream_set_rotation(stream, Double(rotationDegrees))
            if result < 0 { throw fail(FFmpegError(code: result, call: "av_stream_new_side_data", file: path)) }
        }
        if format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            result = avio_open(&format.pointee.pb, path, AVIO_FLAG_WRITE)
            if result < 0 { throw fail(FFmpegError(code: result, call: "avio_open", file: path)) }
        }
        // The index goes first so a file cut short still opens, as web-ready MP4s do.
        av_dict_set(&options, "movflags", "+faststart", 0)
        result = avformat_write_header(format, &options)
        av_dict_free(&options)
        if result < 0 { throw fail(FFmpegError(code: result, call: "avformat_write_header", file: path)) }
        let frame: Frame
        do { frame = try Frame(width: settings.width, height: settings.height, pixelFormat: AV_PIX_FMT_YUV420P) } catch {
            throw fail(error)
        }
        self.format = format
        self.encoder = encoder
        self.stream = stream
        self.frame = frame
        self.path = path
    }

    deinit {
        var encoderContext: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&encoderContext)
        if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
        avformat_free_context(format)
    }

    /// Lets `paint` fill the next frame's Y, U and V planes (4:2:0), then encodes it at `pts` (encoder time base).
    public mutating func encodeFrame(pts: Int64, paint: (borrowing Frame) -> Void) throws(FFmpegError) {
        try frame.makeWritable()
        paint(frame)
        frame.setPresentationTime(pts)
        try FFmpegError.check(avcodec_send_frame(encoder, frame.pointer), "avcodec_send_frame", file: path)
        try drainPackets()
    }

    /// Flushes the encoder and writes the trailer. The file is complete only after this returns.
    public mutating func finish() throws(FFmpegError) {
        try FFmpegError.check(avcodec_send_frame(encoder, nil), "avcodec_send_frame", file: path)
        try drainPackets()
        try FFmpegError.check(av_write_trailer(format), "av_write_trailer", file: path)
        if format.pointee.pb != nil { try FFmpegError.check(avio_closep(&format.pointee.pb), "avio_close", file: path) }
    }

    /// One frame at the nominal rate, in encoder time base ticks.
    private var nominalFrameDuration: Int64 {
        let rate = encoder.pointee.framerate, base = encoder.pointee.time_base
        return max(1, Int64(base.den) * Int64(rate.den) / max(1, Int64(base.num) * Int64(rate.num)))
    }

    private mutating func drainPackets() throws(FFmpegError) {
        while true {
            let result = avcodec_receive_packet(encoder, packet.pointer)
            if result == FFmpegError.tryAgain || result == FFmpegError.endOfFile { return }
            try FFmpegError.check(result, "avcodec_receive_packet", file: path)
            // libx264 in FFmpeg 5.1 reports one tick per packet; the muxer would take that as the last frame's length.
            packet.pointer.pointee.duration = nominalFrameDuration
            av_packet_rescale_ts(packet.pointer, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            try FFmpegError.check(av_interleaved_write_frame(format, packet.pointer), "av_interleaved_write_frame", file: path)
        }
    }
}
