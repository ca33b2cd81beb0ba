import CFFmpeg

/// Encodes a single RGBA `Image` to an image file format with libavcodec (PNG has its own
/// streaming writer, `PNGWriter`).
public enum ImageEncoder {
    /// JPEG bytes of `image` (alpha dropped), `quality` 1 (worst) to 100 (best); with
    /// `subsampledChroma`, colour at half resolution both ways (4:2:0, as cameras and most
    /// thumbnail servers write it: less to convert and encode), else full (4:4:4).
    /// JPEG cannot describe images wider or taller than 65535 pixels.
    public static func jpeg(_ image: Image, quality: Int = 90, subsampledChroma: Bool = false) throws(FFmpegError) -> [UInt8] {
        guard image.width <= 65_535, image.height <= 65_535 else {
            throw FFmpegError(code: filmstrip_averror(EINVAL), call: "JPEG encoding of a \(image.width)x\(image.height) image (JPEG allows at most 65535 px a side)")
        }
        // mjpeg's qscale runs from 2 (best) to 31 (worst).
        let qscale = 2 + (100 - min(max(quality, 1), 100)) * 29 / 99
        return try encode(image, codec: avcodec_find_encoder(AV_CODEC_ID_MJPEG),
                          pixelFormat: subsampledChroma ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_YUVJ444P, qscale: qscale)
    }

    /// Lossy WebP bytes of `image` (alpha dropped) through libavcodec's libwebp encoder,
    /// `quality` 0 (smallest) to 100 (best). WebP allows at most 16383 pixels a side.
    public static func webp(_ image: Image, quality: Int = 80) throws(FFmpegError) -> [UInt8] {
        guard image.width <= maximumWebPSide, image.height <= maximumWebPSide else {
            throw FFmpegError(code: filmstrip_averror(EINVAL), call: "WebP encoding of a \(image.width)x\(image.height) image (WebP allows at most 16383 px a side)")
        }
        // libwebp reads its quality from global_quality in lambda units.
        return try encode(image, codec: avcodec_find_encoder_by_name("libwebp"), pixelFormat: AV_PIX_FMT_YUV420P,
                          qscale: min(max(quality, 0), 100))
    }

    /// WebP stores each side in 14 bits.
    public static let maximumWebPSide = 16_383

    private static func encode(_ image: Image, codec: UnsafePointer<AVCodec>?, pixelFormat: AVPixelFormat,
                               qscale: Int) throws(FFmpegError) -> [UInt8] {
        FFmpegLogging.configure()
        guard let codec else {
            throw FFmpegError(code: filmstrip_averror_encoder_not_found(), call: "avcodec_find_encoder")
        }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let encoder = context else { throw .outOfMemory(in: "avcodec_alloc_context3") }
        encoder.pointee.width = Int32(image.width)
        encoder.pointee.height = Int32(image.height)
        encoder.pointee.pix_fmt = pixelFormat
        encoder.pointee.time_base = AVRational(num: 1, den: 1)
        encoder.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        encoder.pointee.global_quality = Int32(qscale) * FF_QP2LAMBDA
        try FFmpegError.check(avcodec_open2(encoder, codec, nil), "avcodec_open2")

        let frame = try Frame(width: image.width, height: image.height, pixelFormat: pixelFormat)
        frame.pointer.pointee.quality = Int32(qscale) * FF_QP2LAMBDA
        var scaler = Scaler(filter: .point)
        try scaler.convert(image, into: frame)
        try FFmpegError.check(avcodec_send_frame(encoder, frame.pointer), "avcodec_send_frame")
        try FFmpegError.check(avcodec_send_frame(encoder, nil), "avcodec_send_frame")
        let packet = try Packet()
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
