import CFFmpeg

/// What one decoder of a stream holds in memory, from the probe alone (nothing decoded), for
/// `MemoryEstimate`: calibrated against measured peaks (8K HEVC, 8192x8192 FFV1, the quick
/// reference videos) rather than assumed at 4 bytes a pixel and 16 references for every codec.
public struct DecoderMemory: Sendable, Hashable {
    /// Bytes of one decoded picture in the stream's pixel format (planes as FFmpeg lays them
    /// out, rows aligned to 64 bytes); 4 bytes a pixel where the format is unknown.
    public let pictureBytes: Int
    /// The most pictures the codec may keep for reference besides the one it decodes.
    public let referencePictures: Int

    /// The decoder memory of `probe`'s video stream.
    public init(probe: VideoProbe) {
        let width = max(1, probe.width), height = max(1, probe.height)
        let format = av_get_pix_fmt(probe.pixelFormat)
        let size = format == AV_PIX_FMT_NONE ? -1 : Int(av_image_get_buffer_size(format, Int32(clamping: width), Int32(clamping: height), 64))
        pictureBytes = size > 0 ? size : width.multipliedClamped(by: height).multipliedClamped(by: 4)
        referencePictures = Self.referencePictures(codec: probe.codec, pixels: width.multipliedClamped(by: height))
    }

    /// Reference pictures by codec: none for intra-only codecs (ProRes, MJPEG: FFmpeg's
    /// AV_CODEC_PROP_INTRA_ONLY); FFV1 1 (its decoder keeps the last picture); VP8 3, VP9 and AV1 8 (their reference slots); H.264 and HEVC
    /// at most 16, fewer for large pictures as HEVC's level limits allow (6 above three quarters
    /// of level 6.2's 35,651,584-pixel picture, 8 above half, 12 above a quarter); MPEG-1/2/4 part
    /// 2 and their kin 2; any other codec 16.
    static func referencePictures(codec: String, pixels: Int) -> Int {
        if let descriptor = avcodec_descriptor_get_by_name(codec), descriptor.pointee.props & AV_CODEC_PROP_INTRA_ONLY != 0 { return 0 }
        switch codec {
        case "h264", "hevc":
            let largest = 35_651_584
            if pixels > largest * 3 / 4 { return 6 }
            if pixels > largest / 2 { return 8 }
            if pixels > largest / 4 { return 12 }
            return 16
        case "ffv1": return 1
        case "vp8": return 3
        case "vp9", "av1": return 8
        case "mpeg1video", "mpeg2video", "mpeg4", "msmpeg4v3", "msmpeg4v2", "wmv1", "wmv2", "flv1", "h263", "h263p", "theora", "vc1", "wmv3": return 2
        default: return 16
        }
    }
}
