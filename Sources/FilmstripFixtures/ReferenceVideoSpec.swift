import Filmstrip

/// A deterministic synthetic reference video: what to paint, how to encode it, and where it is cached.
public struct ReferenceVideoSpec: Hashable, Sendable, Codable {
    /// The video codec a reference video is encoded with.
    public enum Codec: String, Sendable, Codable, CaseIterable {
        /// One codec each: H.264, HEVC, VP9, AV1, MPEG-4 part 2, MPEG-2, Theora, WMV 8 (`wmv2`), Motion JPEG and VP8.
        case h264, hevc, vp9, av1, mpeg4, mpeg2, theora, wmv2, mjpeg, vp8

        /// The libavcodec encoder used to make this codec's reference videos.
        public var encoderName: String {
            switch self {
            case .h264: "libx264"
            case .hevc: "libx265"
            case .vp9: "libvpx-vp9"
            case .av1: "libsvtav1"
            case .mpeg4: "mpeg4"
            case .mpeg2: "mpeg2video"
            case .theora: "libtheora"
            case .wmv2: "wmv2"
            case .mjpeg: "mjpeg"
            case .vp8: "libvpx"
            }
        }

        /// Codecs whose encoder here has no B-frames (or no inter frames at all).
        var hasBFrames: Bool { ![.vp9, .av1, .theora, .wmv2, .mjpeg, .vp8].contains(self) }
    }

    /// The container format a reference video is muxed into.
    public enum Container: String, Sendable, Codable {
        /// MP4 (ISO BMFF), Matroska and WebM.
        case mp4, matroska, webm
        /// MPEG transport stream (188-byte packets), as broadcast, DVRs and HLS segments use.
        case mpegts
        /// Blu-ray's transport stream: 192-byte packets with an arrival time stamp.
        case m2ts
        /// MPEG-2 program stream (DVD's VOB, `.mpg`).
        case mpegps
        /// AVI, QuickTime MOV, Flash Video and Ogg.
        case avi, mov, flv, ogg
        /// Advanced Systems Format (`.wmv`).
        case asf
        /// Raw H.264 and HEVC elementary streams (Annex B): packets carry no timestamps.
        case h264Stream, hevcStream

        /// The usual file extension for this container, without the dot (`mkv`, `ts`, `wmv`, …).
        public var fileExtension: String {
            switch self {
            case .mp4: "mp4"
            case .matroska: "mkv"
            case .webm: "webm"
            case .mpegts: "ts"
            case .m2ts: "m2ts"
            case .mpegps: "mpg"
            case .avi: "avi"
            case .mov: "mov"
            case .flv: "flv"
            case .ogg: "ogv"
            case .asf: "wmv"
            case .h264Stream: "h264"
            case .hevcStream: "hevc"
            }
        }

        /// libavformat's muxer name.
        var muxerName: String {
            switch self {
            case .mpegts, .m2ts: "mpegts"
            case .mpegps: "vob"
            case .ogg: "ogg"
            case .h264Stream: "h264"
            case .hevcStream: "hevc"
            default: rawValue
            }
        }

        /// Containers whose timestamps are 33-bit 90 kHz ticks (they wrap after about 26.5 hours).
        var hasWrappingTimestamps: Bool { [.mpegts, .m2ts, .mpegps].contains(self) }
    }

    /// How an interlaced video's two fields are ordered in time.
    public enum FieldOrder: String, Sendable, Codable {
        /// Top field first (`tff`) or bottom field first (`bff`).
        case topFieldFirst = "tff", bottomFieldFirst = "bff"
    }

    /// Short unique name: what `bench --videos` selects by, and the start of the cached file's name.
    public var id: String
    /// The codec the video is encoded with.
    public var codec: Codec
    /// The container the video is muxed into.
    public var container: Container
    /// Coded picture size (before sample aspect ratio and rotation).
    public var width: Int
    /// Coded picture height in pixels (before sample aspect ratio and rotation).
    public var height: Int
    /// Nominal frame rate in frames per second.
    public var framesPerSecond: Int
    /// Frames in the video (seconds × frames per second).
    public var frameCount: Int
    /// Frames from one keyframe to the next (the GOP length).
    public var keyframeInterval: Int
    /// Most consecutive B-frames the encoder may use (ignored by codecs without B-frames).
    public var maxBFrames: Int
    /// Open GOPs (H.264 only): B-frames after an I-frame may reference the previous GOP.
    public var openGOP: Bool
    /// Clockwise display rotation stored in the display matrix; the picture is painted so it is upright on display.
    public var rotationDegrees: Int
    /// Shape of one coded pixel (width:height); 1 for square pixels.
    public var sampleAspectRatio: Rational
    /// Frames the first timestamp is offset by, for a non-zero start time.
    public var startOffsetFrames: Int
    /// Frame durations alternate around the nominal rate (variable frame rate).
    public var variableFrameRate: Bool
    /// Bits per sample: 8 or 10 (4:2:0 either way).
    public var bitDepth: Int = 8
    /// Full-range (JPEG-range, 0–255) samples, tagged so, instead of limited range (16–235).
    public var fullRange: Bool = false
    /// Interlaced coding with two fields from different moments (each field's moving bar is
    /// painted where it is at that field's time); nil for progressive video.
    public var fieldOrder: FieldOrder?
    /// Frames the timestamps jump forward by at the middle frame (a transport stream's
    /// discontinuity, as where recordings are joined); 0 for none.
    public var timestampJumpFrames: Int = 0
    /// HDR video (10-bit BT.2020 with this transfer), made from the SDR picture by `ToneMapping.sdrToHDR`.
    public var hdrTransfer: HDRTransfer?
    /// Tagged BT.709 (matrix, primaries, transfer) although SD: players decode it with BT.709's matrix.
    public var taggedBT709 = false
    /// The NTSC-derived rate: `framesPerSecond` × 1000/1001 (24 gives 23.976, 30 gives 29.97),
    /// as film and broadcast video carry it; the frame count stays seconds × `framesPerSecond`.
    public var ntscRate = false

    /// Frames per second: `framesPerSecond`, or with `ntscRate` that × 1000/1001.
    public var frameRate: Rational {
        ntscRate ? Rational(Int64(framesPerSecond) * 1000, 1001) : Rational(Int64(framesPerSecond))
    }

    /// A progressive 8-bit spec of `seconds` seconds;
    /// `with(bitDepth:fullRange:fieldOrder:timestampJumpFrames:hdrTransfer:taggedBT709:)` sets the format-specific
    /// fields.
    public init(id: String, codec: Codec, container: Container = .mp4, width: Int, height: Int,
                framesPerSecond: Int = 30, seconds: Int, keyframeInterval: Int, maxBFrames: Int = 2,
                openGOP: Bool = false, rotationDegrees: Int = 0, sampleAspectRatio: Rational = Rational(1),
                startOffsetFrames: Int = 0, variableFrameRate: Bool = false) {
        self.id = id
        self.codec = codec
        self.container = container
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.frameCount = seconds * framesPerSecond
        self.keyframeInterval = keyframeInterval
        self.maxBFrames = maxBFrames
        self.openGOP = openGOP
        self.rotationDegrees = rotationDegrees
        self.sampleAspectRatio = sampleAspectRatio
        self.startOffsetFrames = startOffsetFrames
        self.variableFrameRate = variableFrameRate
    }

    /// This spec with the format-specific fields set (the matrix of containers and codecs).
    public func with(bitDepth: Int = 8, fullRange: Bool = false, fieldOrder: FieldOrder? = nil,
              timestampJumpFrames: Int = 0, hdrTransfer: HDRTransfer? = nil, taggedBT709: Bool = false) -> ReferenceVideoSpec {
        var spec = self
        spec.formatVideo = true
        spec.bitDepth = bitDepth
        spec.fullRange = fullRange
        spec.fieldOrder = fieldOrder
        spec.timestampJumpFrames = timestampJumpFrames
        spec.hdrTransfer = hdrTransfer
        spec.taggedBT709 = taggedBT709
        return spec
    }

    /// Bumped whenever the painter or encoder settings change, so cached files are remade.
    /// 5: bit-exact muxing, x264 on one thread over a perturbed heap: a video is the same bytes every time it is made.
    static let generatorVersion = 5

    /// Ticks per frame in the encoder time base; variable-rate videos alternate 2, 6 and 4 ticks.
    static let ticksPerFrame: Int64 = 4

    /// Ticks per frame of this spec's encoder time base: the format videos use one, as the
    /// ffmpeg CLI does, so codecs that write a frame rate from the time base (H.264's VUI) tell the right one.
    var encoderTicksPerFrame: Int64 { formatVideo ? 1 : Self.ticksPerFrame }
    /// Set for the videos of the `formats` suite (their time base is one tick per frame).
    var formatVideo = false

    /// The encoder's time base in seconds per tick: `ticksPerFrame` ticks per frame (one for `formats` videos).
    public var timeBase: Rational { Rational(1, encoderTicksPerFrame) / frameRate }

    /// Presentation time of frame `index` in `timeBase` ticks.
    public func presentationTime(ofFrame index: Int) -> Int64 {
        let jump = timestampJumpFrames != 0 && index >= frameCount / 2 ? timestampJumpFrames : 0
        let frame = Int64(index + startOffsetFrames + jump)
        guard variableFrameRate else { return frame * encoderTicksPerFrame }
        // Durations cycle 2, 6, 4 ticks: the average rate is nominal, individual gaps are not.
        let cycle = frame / 3, phase = frame % 3
        return cycle * 12 + [0, 2, 8][Int(phase)]
    }

    /// Stable 64-bit FNV-1a digest of every field that changes the file's bytes.
    public var fingerprint: String {
        let canonical = [id, codec.rawValue, container.rawValue, "\(width)x\(height)", "\(framesPerSecond)", "\(frameCount)",
                         "\(keyframeInterval)", "\(maxBFrames)", "\(openGOP)", "\(rotationDegrees)", "\(sampleAspectRatio)",
                         "\(startOffsetFrames)", "\(variableFrameRate)", "v\(Self.generatorVersion)"]
            // Format fields join the digest only when set, so the earlier videos keep their names.
            + (bitDepth == 8 ? [] : ["depth\(bitDepth)"]) + (fullRange ? ["full-range"] : [])
            + (fieldOrder.map { ["\($0.rawValue)"] } ?? []) + (timestampJumpFrames == 0 ? [] : ["jump\(timestampJumpFrames)"]) + (formatVideo ? ["format"] : [])
            + (hdrTransfer.map { ["hdr-\($0.rawValue)"] } ?? []) + (taggedBT709 ? ["bt709"] : []) + (ntscRate ? ["ntsc"] : [])
        let joined = canonical.joined(separator: "|")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in joined.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16, uppercase: false).leftPadded(to: 16)
    }

    /// File name in the cache: readable id plus a digest of the spec, so a changed spec is a new file.
    public var fileName: String { "\(id)-\(fingerprint.prefix(10)).\(container.fileExtension)" }

    /// Nominal length in seconds (frame count over frame rate).
    public var durationSeconds: Double { (Rational(Int64(frameCount)) / frameRate).doubleValue }

    var encoderSettings: EncoderSettings {
        var options: [String: String] = [:]
        var bitRate: Int?
        var pixelFormat = bitDepth == 10 || hdrTransfer != nil ? "yuv420p10le" : "yuv420p"
        switch codec {
        case .h264:
            options["preset"] = "veryfast"
            // With its own threads (3 here) x264 made different pictures from one make to the
            // next even over a perturbed heap (3 of the 38 quick and formats videos); on one
            // thread, 0 of 38 (see ReferenceVideoGenerator.write).
            options["threads"] = "1"
            options["x264-params"] = "scenecut=0" + (openGOP ? ":open-gop=1" : "")
                + (fieldOrder.map { ":interlaced=1:" + ($0 == .topFieldFirst ? "tff=1" : "bff=1") } ?? "")
        case .hevc:
            options["preset"] = "ultrafast"
            options["x265-params"] = "log-level=error:scenecut=0"
        case .vp9, .vp8:
            options["deadline"] = "realtime"
            options["cpu-used"] = "8"
            if codec == .vp9 { options["row-mt"] = "1" }
            if codec == .vp8 { bitRate = width * height * framesPerSecond / 4 }
        case .av1:
            options["preset"] = "12"
        case .mpeg4, .mpeg2, .wmv2, .theora:
            bitRate = width * height * framesPerSecond / (codec == .mpeg4 ? 8 : 4)
            // Scene-change keyframes would make the keyframe index depend on the picture.
            if codec != .theora { options["sc_threshold"] = "1000000000" }
        case .mjpeg:
            // Every frame is a keyframe; JPEG's own full-range YUV, as cameras write it.
            pixelFormat = "yuvj420p"
            options["q"] = "3"
        }
        // Without it, Matroska and WebM files carry a random segment UID and the date they
        // were made, and every muxer writes its library's version.
        var muxerOptions: [String: String] = ["fflags": "+bitexact"]
        if container == .mp4 || container == .mov {
            // The index goes first so a file cut short still opens, as web-ready MP4s do.
            muxerOptions["movflags"] = "+faststart"
        }
        if container == .m2ts { muxerOptions["mpegts_m2ts_mode"] = "1" }
        return EncoderSettings(encoderName: codec.encoderName, width: width, height: height, timeBase: timeBase,
                               frameRate: frameRate, keyframeInterval: keyframeInterval,
                               maxBFrames: codec.hasBFrames ? maxBFrames : 0,
                               sampleAspectRatio: sampleAspectRatio, bitRate: bitRate, options: options,
                               pixelFormatName: pixelFormat, fullRange: fullRange,
                               topFieldFirst: fieldOrder.map { $0 == .topFieldFirst }, muxerOptions: muxerOptions,
                               hdrTransfer: hdrTransfer, taggedBT709: taggedBT709)
    }
}
