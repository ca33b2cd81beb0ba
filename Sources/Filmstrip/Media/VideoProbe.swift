import CFFmpeg
import Foundation

/// What filmstrip knows about a video before decoding any of it.
///
/// The keyframe index and exact frame count come from one pass over the packets
/// (demuxing only, no decoding), which costs a read of the file.
public struct VideoProbe: Sendable, Codable, Equatable {
    public var path: String
    public var container: String
    public var containerLongName: String
    public var codec: String
    public var codecLongName: String
    public var pixelFormat: String
    /// Coded picture size in pixels.
    public var width: Int
    public var height: Int
    public var sampleAspectRatio: Rational
    /// Clockwise rotation (0, 90, 180 or 270) a player applies from the display matrix.
    public var rotationDegrees: Int
    public var timeBase: Rational
    /// First presentation time of the video stream (stream time base).
    public var startTime: Timestamp
    /// From the start time to the end of the last frame.
    public var duration: Timestamp
    public var frameRate: Rational
    public var frameCount: Int
    /// True when every packet was counted; false when the count is estimated from duration × rate.
    public var frameCountIsExact: Bool
    /// Presentation times of the keyframes, ascending (stream time base).
    public var keyframes: [Int64]
    /// Presentation times of every frame, ascending (stream time base): frame `i` of the
    /// video in display order starts at `frameTimes[i]`. Lets plans name exact frames before decoding.
    public var frameTimes: [Int64]
    /// Bits per second of the whole file, when the container says.
    public var bitRate: Int?
    /// True when the container promises more frames than its data holds (a truncated file).
    public var dataEndsEarly: Bool
    public var fileSizeBytes: Int64

    /// Picture size after the sample aspect ratio and rotation are applied.
    public var displaySize: (width: Int, height: Int) {
        let stretchedWidth = max(1, (Rational(Int64(width)) * sampleAspectRatio).rounded)
        let size = (width: Int(stretchedWidth), height: height)
        return rotationDegrees % 180 == 0 ? size : (size.height, size.width)
    }

    /// Display aspect ratio (width / height) after sample aspect ratio and rotation.
    public var displayAspectRatio: Rational {
        let ratio = Rational(Int64(width), Int64(height)) * sampleAspectRatio
        return rotationDegrees % 180 == 0 ? ratio : Rational(1) / ratio
    }

    public var endTime: Timestamp { Timestamp(pts: startTime.pts + duration.pts, timeBase: timeBase) }
    public var durationSeconds: Double { duration.seconds.doubleValue }
    /// The largest distance between two keyframes, in seconds (the GOP length as seen).
    public var longestKeyframeIntervalSeconds: Double {
        let boundaries = keyframes + [endTime.pts]
        let longest = zip(boundaries, boundaries.dropFirst()).map { $1 - $0 }.max() ?? duration.pts
        return (Rational(longest) * timeBase).doubleValue
    }

    public static func == (lhs: VideoProbe, rhs: VideoProbe) -> Bool {
        lhs.path == rhs.path && lhs.codec == rhs.codec && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.keyframes == rhs.keyframes && lhs.frameCount == rhs.frameCount && lhs.duration == rhs.duration
            && lhs.startTime == rhs.startTime && lhs.rotationDegrees == rhs.rotationDegrees
            && lhs.sampleAspectRatio == rhs.sampleAspectRatio && lhs.dataEndsEarly == rhs.dataEndsEarly
    }
}

extension VideoProbe {
    /// Opens `path`, reads every video packet's header, and describes the video.
    /// Throws a `MediaError` naming the file for anything that is not a usable video.
    public init(path: String) throws(MediaError) {
        let input = try InputFile(path: path)
        try self.init(input: input)
    }

    init(input: borrowing InputFile) throws(MediaError) {
        let path = input.path
        let stream = input.stream.pointee
        let parameters = stream.codecpar.pointee
        let timeBase = input.timeBase
        guard avcodec_find_decoder(parameters.codec_id) != nil else {
            throw MediaError(file: path, reason: .unsupportedCodec(String(cString: avcodec_get_name(parameters.codec_id))))
        }

        var packet = Packet()
        var keyframes: [Int64] = []
        var packetCount = 0
        var firstTime = Int64.max
        var endTime = Int64.min
        var lastTimeSeen = Int64.min
        var keyframesAreSorted = true
        var frameTimes: [Int64] = []
        while try input.read(into: &packet) == .packet {
            guard let pts = packet.pts else { packetCount += 1; continue }
            packetCount += 1
            frameTimes.append(pts)
            firstTime = min(firstTime, pts)
            endTime = max(endTime, pts + max(packet.duration, 0))
            if packet.isKeyframe {
                if let last = keyframes.last, pts < last { keyframesAreSorted = false }
                keyframes.append(pts)
            }
            lastTimeSeen = max(lastTimeSeen, pts)
        }
        if !keyframesAreSorted { keyframes.sort() }
        frameTimes.sort()
        guard packetCount > 0, firstTime != Int64.max else { throw MediaError(file: path, reason: .noFrames) }

        let averageRate = stream.avg_frame_rate.den > 0 && stream.avg_frame_rate.num > 0 ? stream.avg_frame_rate : stream.r_frame_rate
        let frameRate = averageRate.den > 0 && averageRate.num > 0
            ? Rational(Int64(averageRate.num), Int64(averageRate.den)) : Rational(25)
        // The last frame lasts at least one nominal frame: packet durations are missing in raw
        // streams and MP4's last-sample duration is often short when B-frames reorder.
        endTime = max(endTime, lastTimeSeen + max(1, (Rational(1) / frameRate / timeBase).rounded))
        let duration = endTime - firstTime
        guard duration > 0 else { throw MediaError(file: path, reason: .zeroDuration) }

        let rotation = filmstrip_stream_rotation(input.stream)
        // FFmpeg reports counter-clockwise degrees; players turn the picture clockwise by the negation.
        let clockwise = rotation.isNaN ? 0 : (Int((-rotation).rounded()) % 360 + 360) % 360
        let aspect = parameters.sample_aspect_ratio.num > 0 && parameters.sample_aspect_ratio.den > 0
            ? Rational(Int64(parameters.sample_aspect_ratio.num), Int64(parameters.sample_aspect_ratio.den)) : Rational(1)
        let promisedFrames = Int(stream.nb_frames)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 } ?? 0

        self.path = path
        self.container = input.containerName
        self.containerLongName = input.containerLongName
        self.codec = String(cString: avcodec_get_name(parameters.codec_id))
        self.codecLongName = avcodec_descriptor_get(parameters.codec_id).flatMap { $0.pointee.long_name.map { String(cString: $0) } } ?? codec
        self.pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) } ?? "unknown"
        self.width = Int(parameters.width)
        self.height = Int(parameters.height)
        self.sampleAspectRatio = aspect
        self.rotationDegrees = (clockwise + 45) / 90 * 90 % 360
        self.timeBase = timeBase
        self.startTime = Timestamp(pts: firstTime, timeBase: timeBase)
        self.duration = Timestamp(pts: duration, timeBase: timeBase)
        self.frameRate = frameRate
        self.frameCount = packetCount
        self.frameCountIsExact = true
        self.keyframes = keyframes
        self.frameTimes = frameTimes
        self.bitRate = input.context.pointee.bit_rate > 0 ? Int(input.context.pointee.bit_rate) : nil
        // The container promises more than the data holds: a frame count (MP4) or a duration
        // (Matroska's segment header) beyond what the packets cover, by more than one frame.
        let containerDuration = input.context.pointee.duration
        let coveredMicroseconds = (Rational(duration) * timeBase * Rational(1_000_000)).floor
        let frameMicroseconds = (Rational(1_000_000) / frameRate).rounded
        self.dataEndsEarly = promisedFrames > packetCount
            || (containerDuration > 0 && containerDuration - coveredMicroseconds > 2 * frameMicroseconds + 100_000)
        self.fileSizeBytes = Int64(size)
        guard width > 0, height > 0 else {
            throw MediaError(file: path, reason: .notAVideo("video stream has no picture size"))
        }
    }
}
