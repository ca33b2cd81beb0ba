import CFFmpeg

/// How to encode a video: which libavcodec encoder, picture geometry, timing and GOP shape.
public struct EncoderSettings: Hashable, Sendable {
    /// libavcodec encoder name, for example "libx264", "libx265", "libvpx-vp9", "libsvtav1", "mpeg4".
    public var encoderName: String
    /// Coded picture width in pixels.
    public var width: Int
    /// Coded picture height in pixels.
    public var height: Int
    /// Time base of frame timestamps, usually 1/fps.
    public var timeBase: Rational
    /// Nominal frames per second written into the stream's header.
    public var frameRate: Rational
    /// Distance between keyframes, in frames.
    public var keyframeInterval: Int
    /// Most consecutive B-frames the encoder may use.
    public var maxBFrames: Int
    /// Shape of one coded pixel (width:height); 1 for square pixels.
    public var sampleAspectRatio: Rational
    /// Target bits per second for encoders without a constant-quality default (mpeg4); nil keeps the encoder's.
    public var bitRate: Int?
    /// Encoder private options, for example ["preset": "veryfast"].
    public var options: [String: String]
    /// The encoder's input pixel format (FFmpeg's name); painted 8-bit 4:2:0 frames are converted to it.
    public var pixelFormatName: String
    /// Full-range samples, tagged so (painted frames are limited range and converted).
    public var fullRange: Bool
    /// Interlaced coding with the top (true) or bottom (false) field first; nil for progressive.
    public var topFieldFirst: Bool?
    /// Muxer options, for example ["movflags": "+faststart"].
    public var muxerOptions: [String: String]
    /// HDR video, tagged BT.2020 with this transfer; the caller paints frames in the encoder's
    /// pixel format itself (no conversion from 8-bit).
    public var hdrTransfer: HDRTransfer?
    /// Tagged BT.709 matrix, primaries and transfer.
    public var taggedBT709: Bool

    /// Settings for one encode; only the encoder, geometry, timing and GOP shape are required.
    public init(encoderName: String, width: Int, height: Int, timeBase: Rational, frameRate: Rational,
                keyframeInterval: Int, maxBFrames: Int, sampleAspectRatio: Rational = Rational(1),
                bitRate: Int? = nil, options: [String: String] = [:], pixelFormatName: String = "yuv420p",
                fullRange: Bool = false, topFieldFirst: Bool? = nil, muxerOptions: [String: String] = [:],
                hdrTransfer: HDRTransfer? = nil, taggedBT709: Bool = false) {
        self.hdrTransfer = hdrTransfer
        self.taggedBT709 = taggedBT709
        self.pixelFormatName = pixelFormatName
        self.fullRange = fullRange
        self.topFieldFirst = topFieldFirst
        self.muxerOptions = muxerOptions
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
    private var packet: Packet
    private var frame: Frame
    /// The frame in the encoder's pixel format and range, when that is not the painted 8-bit limited-range 4:2:0.
    private var converted: Frame
    private let converter: OpaquePointer?
    private let topFieldFirst: Bool?
    /// The path the video is being written to (the file is complete only after `finish()`).
    public let path: String

    /// Opens `path` for writing and sets up the encoder `settings` describe; throws `FFmpegError` when the muxer or
    /// encoder cannot be opened.
    ///
    /// - Parameters:
    ///   - path: the file to write; it is complete only after `finish()`.
    ///   - containerName: muxer short name ("mp4", "matroska", "webm"); nil guesses from the extension.
    ///   - settings: the encoder, picture geometry, timing and GOP shape.
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
        guard let stream = avformat_new_stream(format, nil) else { throw fail(.outOfMemory(in: "avformat_new_stream", file: path)) }
        encoderContext = avcodec_alloc_context3(codec)
        guard let encoder = encoderContext else { throw fail(.outOfMemory(in: "avcodec_alloc_context3", file: path)) }
        let pixelFormat = av_get_pix_fmt(settings.pixelFormatName)
        guard pixelFormat != AV_PIX_FMT_NONE else {
            throw fail(FFmpegError(code: filmstrip_averror(EINVAL), call: "av_get_pix_fmt(\(settings.pixelFormatName))", file: path))
        }
        Self.describe(settings, pixelFormat: pixelFormat, to: encoder, stream: stream, muxer: format)
        Self.add(settings.options, to: &options)
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
        Self.add(settings.muxerOptions, to: &options)
        result = avformat_write_header(format, &options)
        av_dict_free(&options)
        if result < 0 { throw fail(FFmpegError(code: result, call: "avformat_write_header", file: path)) }
        // The painter fills 8-bit 4:2:0 (HDR: the encoder's own format); a converter takes it from there.
        let paintedFormat = settings.hdrTransfer == nil ? AV_PIX_FMT_YUV420P : pixelFormat
        let frame: Frame, convertedFrame: Frame, packet: Packet, converterContext: OpaquePointer?
        do { frame = try Frame(width: settings.width, height: settings.height, pixelFormat: paintedFormat) } catch { throw fail(error) }
        do { convertedFrame = try Frame(width: settings.width, height: settings.height, pixelFormat: pixelFormat) } catch { throw fail(error) }
        do { packet = try Packet() } catch { throw fail(error) }
        do {
            converterContext = try Self.converter(settings, from: paintedFormat, to: pixelFormat,
                                                  fullRange: encoder.pointee.color_range == AVCOL_RANGE_JPEG, path: path)
        } catch {
            throw fail(error)
        }
        converted = convertedFrame
        self.packet = packet
        converter = converterContext
        topFieldFirst = settings.topFieldFirst
        self.format = format
        self.encoder = encoder
        self.stream = stream
        self.frame = frame
        self.path = path
    }

    /// Sets the encoder's geometry, colour, timing and GOP from `settings` (and the stream's aspect
    /// ratio), before it is opened.
    private static func describe(_ settings: EncoderSettings, pixelFormat: AVPixelFormat, to encoder: UnsafeMutablePointer<AVCodecContext>,
                                 stream: UnsafeMutablePointer<AVStream>, muxer: UnsafeMutablePointer<AVFormatContext>) {
        encoder.pointee.width = Int32(settings.width)
        encoder.pointee.height = Int32(settings.height)
        encoder.pointee.pix_fmt = pixelFormat
        encoder.pointee.color_range = settings.fullRange || pixelFormat == AV_PIX_FMT_YUVJ420P ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        if let transfer = settings.hdrTransfer {
            encoder.pointee.color_primaries = AVCOL_PRI_BT2020
            encoder.pointee.color_trc = transfer == .pq ? AVCOL_TRC_SMPTE2084 : AVCOL_TRC_ARIB_STD_B67
            encoder.pointee.colorspace = AVCOL_SPC_BT2020_NCL
        }
        if settings.taggedBT709 {
            encoder.pointee.color_primaries = AVCOL_PRI_BT709
            encoder.pointee.color_trc = AVCOL_TRC_BT709
            encoder.pointee.colorspace = AVCOL_SPC_BT709
        }
        if let topFieldFirst = settings.topFieldFirst {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_INTERLACED_DCT) | Int32(AV_CODEC_FLAG_INTERLACED_ME)
            encoder.pointee.field_order = topFieldFirst ? AV_FIELD_TT : AV_FIELD_BB
        }
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
        if muxer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
    }

    /// Adds `pairs` to an FFmpeg options dictionary, in key order.
    private static func add(_ pairs: [String: String], to options: inout OpaquePointer?) {
        for (key, value) in pairs.sorted(by: { $0.key < $1.key }) {
            av_dict_set(&options, key, value, 0)
        }
    }

    /// The converter from the painted 8-bit limited-range 4:2:0 to the encoder's format and
    /// range; nil when the painted frame is already what the encoder takes.
    private static func converter(_ settings: EncoderSettings, from paintedFormat: AVPixelFormat, to pixelFormat: AVPixelFormat,
                                  fullRange: Bool, path: String) throws(FFmpegError) -> OpaquePointer? {
        guard paintedFormat != pixelFormat || (fullRange && settings.hdrTransfer == nil) else { return nil }
        let size = (Int32(settings.width), Int32(settings.height))
        guard let converter = sws_getContext(size.0, size.1, AV_PIX_FMT_YUV420P, size.0, size.1, pixelFormat,
                                             SWS_POINT | SWS_ACCURATE_RND, nil, nil, nil) else {
            throw FFmpegError(code: filmstrip_averror(EINVAL), call: "sws_getContext", file: path)
        }
        // The painter writes limited-range BT.601 samples; full-range output stretches them (the matrix stays).
        let coefficients = sws_getCoefficients(SWS_CS_ITU601)
        _ = sws_setColorspaceDetails(converter, coefficients, 0, coefficients, fullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
        return converter
    }

    deinit {
        sws_freeContext(converter)
        var encoderContext: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&encoderContext)
        if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
        avformat_free_context(format)
    }

    /// Lets `paint` fill the next frame's Y, U and V planes (8-bit 4:2:0; for HDR, the encoder's
    /// own format), then encodes it at `pts` (encoder time base).
    public mutating func encodeFrame(pts: Int64, paint: (borrowing Frame) -> Void) throws(FFmpegError) {
        try frame.makeWritable()
        paint(frame)
        frame.setPresentationTime(pts)
        if let topFieldFirst {
            frame.pointer.pointee.interlaced_frame = 1
            frame.pointer.pointee.top_field_first = topFieldFirst ? 1 : 0
        }
        guard let converter else {
            try FFmpegError.check(avcodec_send_frame(encoder, frame.pointer), "avcodec_send_frame", file: path)
            try drainPackets()
            return
        }
        try converted.makeWritable()
        let source = frame.pointer, destination = converted.pointer
        let sourcePlanes: [UnsafePointer<UInt8>?] = (0..<4).map { UnsafePointer(filmstrip_frame_plane(source, Int32($0))) }
        let sourceStrides: [Int32] = (0..<4).map { filmstrip_frame_linesize(source, Int32($0)) }
        var targetPlanes: [UnsafeMutablePointer<UInt8>?] = (0..<4).map { filmstrip_frame_plane(destination, Int32($0)) }
        var targetStrides: [Int32] = (0..<4).map { filmstrip_frame_linesize(destination, Int32($0)) }
        try FFmpegError.check(sws_scale(converter, sourcePlanes, sourceStrides, 0, source.pointee.height, &targetPlanes, &targetStrides),
                              "sws_scale", file: path)
        try FFmpegError.check(av_frame_copy_props(destination, source), "av_frame_copy_props", file: path)
        destination.pointee.color_range = encoder.pointee.color_range
        try FFmpegError.check(avcodec_send_frame(encoder, destination), "avcodec_send_frame", file: path)
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
