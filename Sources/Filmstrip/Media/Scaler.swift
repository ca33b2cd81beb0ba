import CFFmpeg

/// The swscale filter used to shrink frames into thumbnails.
public enum ScalingFilter: String, Sendable, Codable, CaseIterable {
    /// Averages every source pixel under each target pixel: no aliasing on strong downscaling.
    case area
    /// Bilinear interpolation over a kernel sized to the ratio (`SWS_BILINEAR`).
    case bilinear
    /// Two taps whatever the ratio: fast, but shows moiré when shrinking a lot.
    case fastBilinear = "fast-bilinear"
    /// Bicubic interpolation (`SWS_BICUBIC`): sharper than bilinear, slower.
    case bicubic
    /// Lanczos windowed sinc (`SWS_LANCZOS`): the sharpest, the slowest.
    case lanczos
    /// Nearest neighbour (`SWS_POINT`): the fastest, aliases badly on strong downscaling.
    case point

    var swsFlags: Int32 {
        switch self {
        case .area: SWS_AREA
        case .bilinear: SWS_BILINEAR
        case .fastBilinear: SWS_FAST_BILINEAR
        case .bicubic: SWS_BICUBIC
        case .lanczos: SWS_LANCZOS
        case .point: SWS_POINT
        }
    }

    /// The ffmpeg CLI's `scale=…:flags=` value that makes the same pixels as ``Scaler``: this
    /// filter with accurate rounding and full horizontal chroma interpolation. Without
    /// `full_chroma_int` the CLI converts to RGB with one chroma sample per two output pixels
    /// (swscale forces full chroma only for odd output widths), which moves colour edges by a
    /// pixel: 6–7 of 255 mean difference on saturated test patterns, up to 230 at an edge.
    public var ffmpegCLIFlags: String {
        let name = switch self {
        case .fastBilinear: "fast_bilinear"
        case .point: "neighbor"
        default: rawValue
        }
        return name + "+accurate_rnd+full_chroma_int"
    }
}

/// Owns one `SwsContext` and converts decoded frames to RGBA (or RGB) at a fixed output size.
///
/// The context is rebuilt only when the input size or pixel format changes, so one
/// scaler serves a whole run.
public struct Scaler: ~Copyable {
    var context: OpaquePointer?
    /// The swscale filter this scaler shrinks frames with.
    public let filter: ScalingFilter
    /// The colour conversion last set on `context` (which `sws_getCachedContext` may replace).
    private var appliedColour: (context: OpaquePointer, colour: SourceColour)?
    /// HDR frames: a second context scaling to 16-bit R'G'B', and its output rows, which the
    /// tone mapping turns into 8-bit SDR (on the small thumbnail, not the full frame).
    private var wideContext: OpaquePointer?
    private var wideRows: [UInt16] = []

    /// A scaler using `filter`; its swscale context is made on the first frame.
    public init(filter: ScalingFilter = .area) {
        self.filter = filter
    }

    deinit {
        sws_freeContext(context)
        sws_freeContext(wideContext)
    }

    /// Scales `frame` to `width`x`height` pixels in `format` at `destination`, rows `bytesPerRow`
    /// apart. `destination` is only written, never kept. The colour bytes are the same in both
    /// formats (swscale computes them once and only stores alpha or not).
    public mutating func scale(_ frame: borrowing Frame, into destination: UnsafeMutableRawPointer,
                               bytesPerRow: Int, width: Int, height: Int, format: PixelFormat = .rgba) throws(FFmpegError) {
        // swscale takes sides and strides as C ints; a one-row canvas may have rows of exactly
        // 2 GiB (`StripLayout.maximumByteCount`), one byte more than an int holds.
        guard Int32(exactly: bytesPerRow) != nil, Int32(exactly: width) != nil, Int32(exactly: height) != nil else {
            throw FFmpegError(code: filmstrip_averror(EINVAL),
                              call: "scaling to \(width)x\(height) into rows of \(bytesPerRow) bytes (swscale takes at most \(Int32.max))")
        }
        let source = frame.pointer
        // An interlaced frame weaves two fields from different moments: scaled whole, anything
        // moving shows combs. Scale only the field shown first instead (every other row, the
        // chroma rows too, which 4:2:0 interlaced video also keeps per field), as yadif's
        // one-frame-per-frame mode keeps that field; a thumbnail has fewer rows than a field anyway.
        let field: Int32 = source.pointee.interlaced_frame == 0 ? 0 : (source.pointee.top_field_first != 0 ? 0 : 1)
        let rowStep: Int32 = source.pointee.interlaced_frame == 0 ? 1 : 2
        let sourceHeight = (source.pointee.height - field + rowStep - 1) / rowStep
        let sourceStrides: [Int32] = (0..<4).map { filmstrip_frame_linesize(source, Int32($0)) }
        let sourcePlanes: [UnsafePointer<UInt8>?] = (0..<4).map { plane in
            filmstrip_frame_plane(source, Int32(plane)).map { UnsafePointer($0 + Int(field * sourceStrides[plane])) }
        }
        let fieldStrides = sourceStrides.map { $0 * rowStep }
        let colour = SourceColour(of: source)
        if let colour, let transfer = colour.hdrTransfer {
            try scaleToneMapped(source, planes: sourcePlanes, strides: fieldStrides, sourceHeight: sourceHeight, colour: colour,
                                transfer: transfer, into: destination, bytesPerRow: bytesPerRow, width: width, height: height,
                                format: format)
            return
        }
        context = sws_getCachedContext(
            context, source.pointee.width, sourceHeight, AVPixelFormat(rawValue: source.pointee.format),
            Int32(width), Int32(height), format == .rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24,
            filter.swsFlags | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT,
            nil, nil, nil)
        guard let context else { throw .madeNothing("sws_getCachedContext") }
        // swscale's own default (limited-range BT.601) needs no call: the context stays as it was made.
        if let colour, !colour.isSwscaleDefault, appliedColour.map({ $0.context != context || $0.colour != colour }) ?? true {
            Self.setColourDetails(of: context, from: colour)
            appliedColour = (context, colour)
        }
        var planes: [UnsafeMutablePointer<UInt8>?] = [destination.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var strides: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
        let rows = sws_scale(context, sourcePlanes, fieldStrides, 0, sourceHeight, &planes, &strides)
        try FFmpegError.check(rows, "sws_scale")
    }

    /// swscale takes every YUV input for limited-range BT.601 unless told (only the yuvj
    /// formats say full range): tell it the stream's matrix and range, to full-range RGB.
    private static func setColourDetails(of context: OpaquePointer, from colour: SourceColour) {
        let coefficients = sws_getCoefficients(colour.swsColorspace)
        _ = sws_setColorspaceDetails(context, coefficients, colour.fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                     0, 1 << 16, 1 << 16)
    }

    /// PQ and HLG frames: scale to 16-bit R'G'B' (BT.2020 matrix), then tone-map each thumbnail
    /// pixel to SDR BT.709 (`ToneMapping`). Shown as plain R'G'B', an HDR picture is washed-out grey.
    private mutating func scaleToneMapped(_ source: UnsafeMutablePointer<AVFrame>, planes sourcePlanes: [UnsafePointer<UInt8>?],
                                          strides sourceStrides: [Int32], sourceHeight: Int32, colour: SourceColour,
                                          transfer: HDRTransfer, into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
                                          width: Int, height: Int, format: PixelFormat) throws(FFmpegError) {
        wideContext = sws_getCachedContext(
            wideContext, source.pointee.width, sourceHeight, AVPixelFormat(rawValue: source.pointee.format),
            Int32(width), Int32(height), AV_PIX_FMT_RGB48LE, filter.swsFlags | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
        guard let wideContext else { throw .madeNothing("sws_getCachedContext") }
        Self.setColourDetails(of: wideContext, from: colour)
        if wideRows.count != width * height * 3 { wideRows = [UInt16](repeating: 0, count: width * height * 3) }
        let rows = wideRows.withUnsafeMutableBytes { bytes in
            var planes: [UnsafeMutablePointer<UInt8>?] = [bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var strides: [Int32] = [Int32(width * 6), 0, 0, 0]
            return sws_scale(wideContext, sourcePlanes, sourceStrides, 0, sourceHeight, &planes, &strides)
        }
        try FFmpegError.check(rows, "sws_scale")
        let target = destination.assumingMemoryBound(to: UInt8.self)
        let pixelBytes = format.bytesPerPixel
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 3
                let sdr = ToneMapping.hdrToSDR((Double(UInt16(littleEndian: wideRows[at])) / 65535,
                                                Double(UInt16(littleEndian: wideRows[at + 1])) / 65535,
                                                Double(UInt16(littleEndian: wideRows[at + 2])) / 65535), transfer: transfer)
                let pixel = target + y * bytesPerRow + x * pixelBytes
                pixel[0] = sdr.0
                pixel[1] = sdr.1
                pixel[2] = sdr.2
                if format == .rgba { pixel[3] = 255 }
            }
        }
    }

    /// Scales `frame` into the whole of `image`.
    public mutating func scale(_ frame: borrowing Frame, into image: inout Image) throws(FFmpegError) {
        let (width, height, bytesPerRow) = (image.width, image.height, image.bytesPerRow)
        var failure: FFmpegError?
        image.pixels.withUnsafeMutableBytes { bytes in
            do throws(FFmpegError) {
                try scale(frame, into: bytes.baseAddress!, bytesPerRow: bytesPerRow, width: width, height: height)
            } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// How a decoded YUV frame's samples map to colour: which matrix (BT.601, BT.709, BT.2020)
/// and which range (limited 16–235 or full 0–255).
///
/// Tagged frames say; untagged ones follow what players do: BT.709 from 720 lines up (HD),
/// BT.601 below (SD), limited range unless the pixel format is a full-range (yuvj) one.
struct SourceColour: Equatable {
    var swsColorspace: Int32
    var fullRange: Bool
    /// PQ or HLG, which are tone-mapped; nil for SDR transfers.
    var hdrTransfer: HDRTransfer?

    var isSwscaleDefault: Bool { swsColorspace == SWS_CS_ITU601 && !fullRange && hdrTransfer == nil }

    /// Nil for RGB and other non-YUV frames, which need no matrix.
    init?(of frame: UnsafePointer<AVFrame>) {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard let descriptor = av_pix_fmt_desc_get(format), descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0,
              descriptor.pointee.nb_components >= 3 else { return nil }
        switch frame.pointee.colorspace {
        case AVCOL_SPC_BT709: swsColorspace = SWS_CS_ITU709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: swsColorspace = SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: swsColorspace = SWS_CS_SMPTE240M
        case AVCOL_SPC_FCC: swsColorspace = SWS_CS_FCC
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: swsColorspace = SWS_CS_BT2020
        default:
            let hdr = frame.pointee.color_trc == AVCOL_TRC_SMPTE2084 || frame.pointee.color_trc == AVCOL_TRC_ARIB_STD_B67
            swsColorspace = hdr ? SWS_CS_BT2020 : frame.pointee.height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
        fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG
            || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P].contains(format)
        hdrTransfer = switch frame.pointee.color_trc {
        case AVCOL_TRC_SMPTE2084: .pq
        case AVCOL_TRC_ARIB_STD_B67: .hlg
        default: nil
        }
    }
}

extension Scaler {
    /// True when FFmpeg's pixel format `name` (as `VideoProbe.pixelFormat` reports it) has an
    /// alpha channel; an unknown name counts as one, since its frames might be transparent.
    public static func hasAlpha(pixelFormatNamed name: String) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(av_get_pix_fmt(name)) else { return true }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
    }

    /// Converts an RGBA `image` into `frame`'s pixel format at the same size (for encoders
    /// that take YUV or RGB24).
    mutating func convert(_ image: Image, into frame: borrowing Frame) throws(FFmpegError) {
        let target = frame.pointer
        context = sws_getCachedContext(
            context, Int32(image.width), Int32(image.height), AV_PIX_FMT_RGBA,
            target.pointee.width, target.pointee.height, AVPixelFormat(rawValue: target.pointee.format),
            filter.swsFlags | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nil, nil, nil)
        guard let context else { throw .madeNothing("sws_getCachedContext") }
        var targetPlanes: [UnsafeMutablePointer<UInt8>?] = (0..<4).map { filmstrip_frame_plane(target, Int32($0)) }
        var targetStrides: [Int32] = (0..<4).map { filmstrip_frame_linesize(target, Int32($0)) }
        let rows = image.pixels.withUnsafeBytes { source in
            let sourcePlanes: [UnsafePointer<UInt8>?] = [source.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            let sourceStrides: [Int32] = [Int32(image.bytesPerRow), 0, 0, 0]
            return sws_scale(context, sourcePlanes, sourceStrides, 0, Int32(image.height), &targetPlanes, &targetStrides)
        }
        try FFmpegError.check(rows, "sws_scale")
    }
}
