import CFFmpeg

/// Encodes a single RGBA `Image` to an image file format with libavcodec.
public enum ImageEncoder {
    /// PNG bytes of `image` (8-bit RGBA, or RGB when `keepAlpha` is false).
    /// `compressionLevel` is zlib's 0–9. Each row is stored as its difference from the row above
    /// (PNG's "up" filter): on strips of video frames that halves the bytes zlib has to squeeze,
    /// so level 1 with the filter writes files half the size of level 3 without it, in half the
    /// time (a 2280x64 strip: 3.5 ms and 113 kB against 6.8 ms and 222 kB).
    public static func png(_ image: Image, keepAlpha: Bool = true, compressionLevel: Int = 1) throws(FFmpegError) -> [UInt8] {
        try encode(image, codecID: AV_CODEC_ID_PNG, pixelFormat: keepAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24,
                   compressionLevel: compressionLevel, options: ["pred": "up"])
    }

    /// JPEG bytes of `image` (alpha dropped), `quality` 1 (worst) to 100 (best).
    /// JPEG cannot describe images wider or taller than 65535 pixels.
    public static func jpeg(_ image: Image, quality: Int = 90) throws(FFmpegError) -> [UInt8] {
        guard image.width <= 65_535, image.height <= 65_535 else {
            throw FFmpegError(code: filmstrip_averror(EINVAL), call: "JPEG encoding of a \(image.width)x\(image.height) image (JPEG allows at most 65535 px a side)")
        }
        // mjpeg's qscale runs from 2 (best) to 31 (worst).
        let qscale = 2 + (100 - min(max(quality, 1), 100)) * 29 / 99
        return try encode(image, codecID: AV_CODEC_ID_MJPEG, pixelFormat: AV_PIX_FMT_YUVJ444P, qscale: qscale)
    }

    private static func encode(_ image: Image, codecID: AVCodecID, pixelFormat: AVPixelFormat,
                               qscale: Int? = nil, compressionLevel: Int? = nil,
                               options: [String: String] = [:]) throws(FFmpegError) -> [UInt8] {
        FFmpegLogging.configure()
        guard let codec = avcodec_find_encoder(codecID) else {
            throw FFmpegError(code: filmstrip_averror_encoder_not_found(), call: "avcodec_find_encoder")
        }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let encoder = context else { fatalError("avcodec_alloc_context3: out of memory") }
        encoder.pointee.width = Int32(image.width)
        encoder.pointee.height = Int32(image.height)
        encoder.pointee.pix_fmt = pixelFormat
        encoder.pointee.time_base = AVRational(num: 1, den: 1)
        if let compressionLevel { encoder.pointee.compression_level = Int32(compressionLevel) }
        for (name, value) in options {
            try FFmpegError.check(av_opt_set(encoder.pointee.priv_data, name, value, 0), "av_opt_set(\(name))")
        }
        if let qscale {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            encoder.pointee.global_quality = Int32(qscale) * FF_QP2LAMBDA
        }
        try FFmpegError.check(avcodec_open2(encoder, codec, nil), "avcodec_open2")

        let frame = try Frame(width: image.width, height: image.height, pixelFormat: pixelFormat)
        if let qscale { frame.pointer.pointee.quality = Int32(qscale) * FF_QP2LAMBDA }
        if pixelFormat == AV_PIX_FMT_RGBA {
            frame.withPlane(0, rows: image.height) { destination, stride in
                image.pixels.withUnsafeBytes { source in
                    for row in 0..<image.height {
                        (destination + row * stride).copyMemory(from: source.baseAddress! + row * image.bytesPerRow,
                                                                byteCount: image.width * Image.bytesPerPixel)
                    }
                }
            }
        } else {
            var scaler = Scaler(filter: .point)
            try scaler.convert(image, into: frame)
        }
        try FFmpegError.check(avcodec_send_frame(encoder, frame.pointer), "avcodec_send_frame")
        try FFmpegError.check(avcodec_send_frame(encoder, nil), "avcodec_send_frame")
        let packet = Packet()
        var bytes: [UInt8] = []
        while true {
            let result = avcodec_receive_packet(encoder, packet.pointer)
            if result == FFmpegError.endOfFile { break }
            try FFmpegError.check(result, "avcodec_receive_packet")
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size)))
            packet.unreference()
        }
        return bytes
    }
}
