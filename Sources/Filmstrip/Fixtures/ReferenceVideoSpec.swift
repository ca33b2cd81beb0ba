/// A deterministic synthetic reference video: what to paint, how to encode it, and where it is cached.
public struct ReferenceVideoSpec: Hashable, Sendable, Codable {
    public enum Codec: String, Sendable, Codable, CaseIterable {
        case h264, hevc, vp9, av1, mpeg4

        /// The libavcodec encoder used to make this codec's reference videos.
        public var encoderName: String {
            switch self {
            case .h264: "libx264"
            case .hevc: "libx265"
            case .vp9: "libvpx-vp9"
            case .av1: "libsvtav1"
            case .mpeg4: "mpeg4"
            }
        }
    }

    public enum Container: String, Sendable, Codable {
        case mp4, matroska, webm
        public var fileExtension: String {
            switch self {
            case .mp4: "mp4"
            case .matroska: "mkv"
            case .webm: "webm"
            }
        }
    }

    public var id: String
    public var codec: Codec
    public var container: Container
    /// Coded picture size (before sample aspect ratio and rotation).
    public var width: Int
    public var height: Int
    public var framesPerSecond: Int
    public var frameCount: Int
    public var keyframeInterval: Int
    public var maxBFrames: Int
    /// Open GOPs (H.264 only): B-frames after an I-frame may reference the previous GOP.
    public var openGOP: Bool
    /// Clockwise display rotation stored in the display matrix; the picture is painted so it is upright on display.
    public var rotationDegrees: Int
    public var sampleAspectRatio: Rational
    /// Frames the first timestamp is offset by, for a non-zero start time.
    public var startOffsetFrames: Int
    /// Frame durations alternate around the nominal rate (variable frame rate).
    public var variableFrameRate: Bool

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

    /// Bumped whenever the painter or encoder settings change, so cached files are remade.
    static let generatorVersion = 4

    /// Ticks per frame in the encoder time base; variable-rate videos alternate 2, 6 and 4 ticks.
    static let ticksPerFrame: Int64 = 4

    public var timeBase: Rational { Rational(1, Int64(framesPerSecond) * Self.ticksPerFrame) }

    /// Presentation time of frame `index` in `timeBase` ticks.
    public func presentationTime(ofFrame index: Int) -> Int64 {
        let frame = Int64(index + startOffsetFrames)
        guard variableFrameRate else { return frame * Self.ticksPerFrame }
        // Durations cycle 2, 6, 4 ticks: the average rate is nominal, individual gaps are not.
        let cycle = frame / 3, phase = frame % 3
        return cycle * 12 + [0, 2, 8][Int(phase)]
    }

    /// Stable 64-bit FNV-1a digest of every field that changes the file's bytes.
    public var fingerprint: String {
        let canonical = [id, codec.rawValue, container.rawValue, "\(width)x\(height)", "\(framesPerSecond)", "\(frameCount)",
                         "\(keyframeInterval)", "\(maxBFrames)", "\(openGOP)", "\(rotationDegrees)", "\(sampleAspectRatio)",
                         "\(startOffsetFrames)", "\(variableFrameRate)", "v\(Self.generatorVersion)"].joined(separator: "|")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonical.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16, uppercase: false).leftPadded(to: 16)
    }

    /// File name in the cache: readable id plus a digest of the spec, so a changed spec is a new file.
    public var fileName: String { "\(id)-\(fingerprint.prefix(10)).\(container.fileExtension)" }

    public var durationSeconds: Double { Double(frameCount) / Double(framesPerSecond) }

    var encoderSettings: EncoderSettings {
        var options: [String: String] = [:]
        var bitRate: Int?
        switch codec {
        case .h264:
            options["preset"] = "veryfast"
            options["x264-params"] = "scenecut=0" + (openGOP ? ":open-gop=1" : "")
        case .hevc:
            options["preset"] = "ultrafast"
            options["x265-params"] = "log-level=error:scenecut=0"
        case .vp9:
            options["deadline"] = "realtime"
            options["cpu-used"] = "8"
            options["row-mt"] = "1"
        case .av1:
            options["preset"] = "12"
        case .mpeg4:
            bitRate = width * height * framesPerSecond / 8
            // Scene-change keyframes would make the keyframe index depend on the picture.
            options["sc_threshold"] = "1000000000"
        }
        return EncoderSettings(encoderName: codec.encoderName, width: width, height: height, timeBase: timeBase,
                               frameRate: Rational(Int64(framesPerSecond)), keyframeInterval: keyframeInterval,
                               maxBFrames: codec == .vp9 || codec == .av1 ? 0 : maxBFrames,
                               sampleAspectRatio: sampleAspectRatio, bitRate: bitRate, options: options)
    }
}

extension String {
    func leftPadded(to length: Int, with pad: Character = "0") -> String {
        count >= length ? self : String(repeating: pad, count: length - count) + self
    }
}
