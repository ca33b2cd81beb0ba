import Foundation
import Synchronization

/// What filmstrip knows about a video before decoding any of it.
///
/// The keyframe index and exact frame count come from one pass over the packets
/// (demuxing only, no decoding), which costs a read of the file.
public struct VideoProbe: Sendable, Codable, Equatable {
    /// The path the video was probed at.
    public var path: String
    /// libavformat's short name of the container, for example "mov,mp4,m4a,3gp,3g2,mj2".
    public var container: String
    /// libavformat's descriptive name of the container, for example "QuickTime / MOV".
    public var containerLongName: String
    /// libavcodec's short name of the video codec, for example "h264".
    public var codec: String
    /// libavcodec's descriptive name of the video codec, for example "H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10".
    public var codecLongName: String
    /// FFmpeg's name of the decoded pixel format, for example "yuv420p".
    public var pixelFormat: String
    /// Coded picture size in pixels.
    public var width: Int
    /// Coded picture height in pixels.
    public var height: Int
    /// Shape of one coded pixel (width:height); 1 for square pixels, e.g. 64/45 for anamorphic 16:9 PAL.
    public var sampleAspectRatio: Rational
    /// Clockwise rotation (0, 90, 180 or 270) a player applies from the display matrix.
    public var rotationDegrees: Int
    /// Seconds per tick of the video stream's timestamps, in which every `Int64` time here is counted.
    public var timeBase: Rational
    /// First presentation time of the video stream (stream time base).
    public var startTime: Timestamp
    /// From the start time to the end of the last frame.
    public var duration: Timestamp
    /// Average frames per second as the stream states it (`avg_frame_rate`); 25 when it states none.
    public var frameRate: Rational
    /// Frames in the video stream: counted when `frameCountIsExact`, else estimated.
    public var frameCount: Int
    /// True when every packet was counted; false when the count is estimated from duration × rate.
    public var frameCountIsExact: Bool
    /// Presentation times of the keyframes, ascending (stream time base).
    public var keyframes: [Int64]
    /// Byte position in the file of each keyframe's packet, in the order of `keyframes`; -1 where unknown.
    public var keyframePositions: [Int64]
    /// True when packets carry no presentation times (AVI): the demuxer gives decode times,
    /// which `frameTimes` then holds; a decoded frame's time is only a guess, so decoders
    /// name frames by counting them in presentation order from a keyframe.
    public var timesFromDecodeOrder: Bool
    /// Decode time of each keyframe's packet, in the order of `keyframes` (filled where
    /// `timesFromDecodeOrder`, else empty): a keyframe packet without a presentation time is known by it.
    public var keyframeDecodeTimes: [Int64]
    /// Where `timesFromDecodeOrder`: each packet's display time by its decode time, worked out
    /// from the frames' own display-order marks where the codec has them. Decoders stamp it on
    /// each packet before sending it, and the frame that packet makes comes out with it,
    /// whatever the decoder reorders, skips (an open GOP's leading pictures after a seek) or drops.
    var displayTimesByDecodeTime: [Int64: Int64] = [:]
    /// Presentation times that several frames share (times rounded by a remux): of such frames
    /// only the last is ever on screen, replacing the others as players and the ffmpeg CLI do,
    /// so `frameTimes` lists the time once and decoders go on to that last frame.
    var repeatedFrameTimes: Set<Int64> = []
    /// Where `timesFromDecodeOrder` and the container's times were a ramp in decode order: each
    /// packet's display time by its byte position (the ramp may repeat a time).
    var displayTimesByPosition: [Int64: Int64] = [:]
    /// The codec's out-of-band setup (parameter sets) from stream analysis, for decoders of
    /// a file opened without it.
    public var codecSetup: Data
    /// Presentation times of every frame, ascending (stream time base): frame `i` of the
    /// video in display order starts at `frameTimes[i]`. Lets plans name exact frames before decoding.
    public var frameTimes: [Int64]
    /// Bits per second of the whole file, when the container says.
    public var bitRate: Int?
    /// True when the container promises more frames than its data holds (a truncated file).
    public var dataEndsEarly: Bool
    /// Size of the file in bytes.
    public var fileSizeBytes: Int64
    /// Where the container's times go back (MPEG-TS of joined recordings): later times are
    /// shifted to follow on, as players and the ffmpeg CLI do; empty for most files.
    public var timestampResets: [TimestampReset]

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

    /// True for containers whose demuxer seeks by its own index of every packet (MP4's sample
    /// table, Matroska's cues and block times), checked on every reference video. Elsewhere
    /// (transport and program streams, Ogg, FLV, ASF, AVI) seeking is a search that may land on
    /// any packet near the time asked for, so extractors confirm where they landed (`TargetDecoder`).
    /// Not where times come from decode order: the index holds the container's times, not display times.
    public var seeksByIndex: Bool { Self.containerGivesPresentationTimes(container) && !timesFromDecodeOrder }

    /// Presentation time just after the last frame: `startTime` + `duration`, in the stream time base.
    public var endTime: Timestamp { Timestamp(pts: startTime.pts + duration.pts, timeBase: timeBase) }
    /// Duration in seconds, from the first frame's start to the last frame's end.
    public var durationSeconds: Double { duration.seconds.doubleValue }
    /// The largest distance between two keyframes, in seconds (the GOP length as seen).
    public var longestKeyframeIntervalSeconds: Double {
        let boundaries = keyframes + [endTime.pts]
        let longest = zip(boundaries, boundaries.dropFirst()).map { $1 - $0 }.max() ?? duration.pts
        return (Rational(longest) * timeBase).doubleValue
    }

    /// Two probes are equal when path, codec, coded size, keyframes, frame count, start time, duration, rotation,
    /// sample aspect ratio and truncation agree; the remaining fields are not compared.
    public static func == (lhs: VideoProbe, rhs: VideoProbe) -> Bool {
        lhs.path == rhs.path && lhs.codec == rhs.codec && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.keyframes == rhs.keyframes && lhs.frameCount == rhs.frameCount && lhs.duration == rhs.duration
            && lhs.startTime == rhs.startTime && lhs.rotationDegrees == rhs.rotationDegrees
            && lhs.sampleAspectRatio == rhs.sampleAspectRatio && lhs.dataEndsEarly == rhs.dataEndsEarly
    }
}

extension VideoProbe {
    /// How the probe gets its two halves: the stream's description (container header plus
    /// FFmpeg's stream analysis, which decodes the first frames) and the packet timeline.
    enum Method: Sendable {
        /// Analyse, then read the packets, on the calling thread.
        case sequential
        /// Analyse on a second thread, with its own opened file, while the calling thread reads
        /// the packets of a file opened without analysis, where that gives the same packets
        /// (MP4, Matroska); in MP4 the second thread then also reads the last part of the
        /// packets. Otherwise sequential.
        case concurrent
    }

    /// Opens `path`, reads every video packet's header, and describes the video.
    /// Throws a `MediaError` naming the file for anything that is not a usable video.
    /// - Parameter path: the video file.
    /// - Parameter limits: the largest picture and the time the probe may take (its deadline
    ///   started here unless the caller started it for a whole call).
    public init(path: String, limits: InputLimits = InputLimits()) throws(MediaError) {
        try self.init(path: path, method: .concurrent, limits: limits)
    }

    init(path: String, method: Method, limits: InputLimits = InputLimits()) throws(MediaError) {
        let limits = limits.started()
        guard method == .concurrent else {
            try self.init(sequentialFrom: try InputFile(path: path, limits: limits))
            return
        }
        var input = try InputFile(path: path, analyzeStreams: false, limits: limits, packetData: .timingWhereIndexed)
        if !input.isAnalyzed, Self.containerGivesPresentationTimes(input.containerName) {
            if let probe = try Self.concurrentProbe(scanning: input) {
                self = probe
                return
            }
            // The packets have been read: start again from a freshly opened, analysed file.
            try self.init(sequentialFrom: try InputFile(path: path, limits: limits))
            return
        }
        try input.analyze()
        try self.init(sequentialFrom: input)
    }

    /// Containers whose demuxer sets every packet's presentation time from its own index (MP4's
    /// sample table with composition offsets, Matroska's block times), so that reading the
    /// packets does not depend on stream analysis. Checked against the sequential probe on every
    /// reference and real-world video (ProbeMethodTests); other containers (MPEG-TS, AVI, raw streams)
    /// leave times to libavformat's guesses, which analysis informs.
    static func containerGivesPresentationTimes(_ name: String) -> Bool {
        name == InputFile.mp4DemuxerName || name == InputFile.matroskaDemuxerName
    }

    private init(sequentialFrom input: borrowing InputFile) throws(MediaError) {
        let description = StreamDescription(input: input)
        guard description.hasDecoder else { throw MediaError(file: input.path, reason: .unsupportedCodec(description.codec)) }
        let timeline = try PacketTimeline(scanning: input)
        try self.init(path: input.path, description: description, timeline: timeline, fileSizeBytes: input.fileSizeBytes, limits: input.limits)
    }

    /// Reads the packets of `input` (opened without analysis) while a second thread opens and
    /// analyses the file again: on two cores the analysis, a few full-size decodes, then costs
    /// no wall time. Where the packet index says where each packet lies (MP4), the second thread
    /// then reads the last part of the packets too, from a keyframe chosen so that both threads
    /// finish at about the same time, and the calling thread stops there. Nil when the packets
    /// may not be the ones a sequential read of an analysed file gives (a packet without a
    /// presentation time, analysis picking another video stream, the keyframe not found after
    /// seeking); the caller then probes sequentially.
    static func concurrentProbe(scanning input: borrowing InputFile) throws(MediaError) -> VideoProbe? {
        let path = input.path, limits = input.limits
        let streamIndex = input.streamIndex
        // On the 4-minute 1080p H.264 video, reading all packets with their bytes takes 14-22 ms
        // and the second thread's opening and analysing about 8 ms: it then reads the last
        // sixth, and both finish 11-18 ms in. Where analysis is cheaper (smaller pictures) the
        // calling thread finishes last, still sooner than reading everything. An input that
        // reads timing only (unfragmented MP4) scans the first nine tenths in about 3 ms and the
        // analysing thread reads the last tenth with its bytes, which checks the timing-only read.
        let split = input.keyframeIndexEntry(near: input.readsTimingOnly ? 0.9 : 0.83)
        let helper = Handoff<HelperResult>()
        // Stream analysis decodes a few frames: FFmpeg's decoders want a main thread's stack.
        // Without a thread the caller probes sequentially.
        guard let thread = try? JoinableThread(stackSize: 8 << 20, {
            helper.put(HelperResult(path: path, limits: limits, streamIndex: streamIndex, readingFrom: split))
        }) else { return nil }
        let head = Result { () throws(MediaError) in try PacketTimeline(scanning: input, stoppingAt: split?.position) }
        let helped = helper.take()
        // Joined, so that its exit is counted in the probe, not in whatever the caller does next.
        thread.join()
        // Errors in the order the sequential probe meets them: opening and analysing, the codec, then reading.
        let description = try helped.description.get()
        guard description.hasDecoder else { throw MediaError(file: path, reason: .unsupportedCodec(description.codec)) }
        var packets = try head.get()
        if input.readsTimingOnly {
            // Without the parser, durations are libavformat's guesses from the frame rate, not
            // the ones a full read gets: the end time must come from the tail, read in full.
            packets.endTime = packets.lastTime
        }
        // When the data ends before the split point, a sequential read never gets to the rest either.
        if packets.stoppedBeforeRequestedPacket {
            guard let tail = try helped.tail?.get() else { return nil }
            if input.readsTimingOnly, !Self.tailConfirmsTimingOnlyHead(packets, tail: tail, input: input) { return nil }
            packets.append(tail)
        } else if input.readsTimingOnly {
            return nil
        }
        guard packets.everyPacketHadPresentationTime, description.streamIndex == streamIndex else { return nil }
        // Timing read from the sample table must account for every sample it lists (a truncated
        // file's data ends early): otherwise the packets are read again, with their bytes.
        if input.readsTimingOnly, packets.packetCount != input.indexEntryCount { return nil }
        return try VideoProbe(path: path, description: description, timeline: packets, fileSizeBytes: input.fileSizeBytes, limits: limits)
    }

    /// True when the tail (read in full, through libavformat's parser) supports the head read
    /// for timing only: the parser flags as keyframes exactly the packets the sample table does
    /// (a full read takes the parser's flags, which differ from the table's in files whose
    /// muxer marked other sync samples), and the head ends well before the tail, so that the
    /// end time a full read would find lies in the tail.
    private static func tailConfirmsTimingOnlyHead(_ head: PacketTimeline, tail: PacketTimeline, input: borrowing InputFile) -> Bool {
        guard tail.packetCount > 0, head.packetCount > 0 else { return false }
        let tableKeyframes = input.indexKeyframePositions
        for packet in tail.packets {
            guard let position = packet.position, tableKeyframes.contains(position) == packet.isKeyframe else { return false }
        }
        // Durations a full read gives are libavformat's estimates, alike through the file: the
        // head's would have to be twice the tail's to reach its end.
        let tailDuration = max(1, tail.endTime - tail.lastTime)
        return head.lastTime + 2 * tailDuration <= tail.endTime
    }

    /// What the second thread of a concurrent probe finds: the stream description and, when
    /// asked, the packets from a given keyframe on (nil when that keyframe could not be reached).
    private struct HelperResult: Sendable {
        var description: Result<StreamDescription, MediaError>
        var tail: Result<PacketTimeline, MediaError>?

        init(path: String, limits: InputLimits, streamIndex: Int32, readingFrom start: (position: Int64, timestamp: Int64)?) {
            let input: InputFile
            do {
                input = try InputFile(path: path, limits: limits)
            } catch {
                description = .failure(error)
                return
            }
            description = .success(StreamDescription(input: input))
            guard let start, input.streamIndex == streamIndex else { return }
            do {
                tail = try PacketTimeline(scanning: input, startingAt: start).map { .success($0) }
            } catch {
                tail = .failure(error)
            }
        }
    }

    private init(path: String, description: StreamDescription, timeline scanned: PacketTimeline, fileSizeBytes: Int64,
                 limits: InputLimits) throws(MediaError) {
        var timeline = scanned
        if timeline.presentationTimesFollowDecodeOrder(reorderDepth: description.reorderDepth) {
            // Read once more with each picture's display-order mark (a rare file: one more pass
            // of demuxing, no decoding).
            var input = try InputFile(path: path, limits: limits)
            input.readPictureOrder()
            var marked = try PacketTimeline(scanning: input)
            if marked.packetCount == timeline.packetCount, marked.pictureMarks.allSatisfy({ $0 != nil }) {
                marked.takePresentationTimesAsDecodeOrder()
                timeline = marked
            }
        }
        timeline.deriveTimesFromDecodeOrder()
        guard timeline.shownCount > 0, timeline.firstTime != Int64.max else { throw MediaError(file: path, reason: .noFrames) }
        let timeBase = description.timeBase
        let frameRate = timeline.everyPacketHadPresentationTime ? description.frameRate
            : Self.rateOfDecodeTimes(timeline.frameTimes, timeBase: timeBase) ?? description.frameRate
        // The last frame lasts at least one nominal frame: packet durations are missing in raw
        // streams and MP4's last-sample duration is often short when B-frames reorder.
        let endTime = max(timeline.endTime, timeline.lastTime + max(1, (Rational(1) / frameRate / timeBase).rounded))
        let duration = endTime - timeline.firstTime
        guard duration > 0 else { throw MediaError(file: path, reason: .zeroDuration) }

        self.path = path
        self.container = description.container
        self.containerLongName = description.containerLongName
        self.codec = description.codec
        self.codecLongName = description.codecLongName
        self.pixelFormat = description.pixelFormat
        self.width = description.width
        self.height = description.height
        self.sampleAspectRatio = description.sampleAspectRatio
        self.rotationDegrees = description.rotationDegrees
        self.timeBase = timeBase
        self.startTime = Timestamp(pts: timeline.firstTime, timeBase: timeBase)
        self.duration = Timestamp(pts: duration, timeBase: timeBase)
        self.frameRate = frameRate
        let distinctTimes = Self.distinct(timeline.frameTimes)
        self.frameCount = distinctTimes.times.count
        self.frameCountIsExact = true
        self.keyframes = timeline.keyframes
        self.keyframePositions = timeline.keyframes.map { timeline.keyframePositions[$0] ?? -1 }
        self.timesFromDecodeOrder = !timeline.everyPacketHadPresentationTime
        self.keyframeDecodeTimes = timeline.keyframeDecodeTimes
        self.displayTimesByDecodeTime = timeline.displayTimesByDecodeTime
        self.displayTimesByPosition = timeline.displayTimesByPosition
        self.codecSetup = description.codecSetup
        self.frameTimes = distinctTimes.times
        self.repeatedFrameTimes = distinctTimes.repeated
        self.bitRate = description.bitRate
        // The container promises more than the data holds: a frame count (MP4) or a duration
        // (Matroska's segment header) beyond what the packets cover, by more than one frame.
        let containerDuration = description.containerDuration
        // MP4's movie duration runs from its time 0, an empty edit before the first frame (a
        // delayed start) included, and Matroska's segment duration from the segment's time 0,
        // so a stream-copy cut that keeps its times (`-ss 10 -copyts`) or a file muxed with an
        // offset ends at its duration; other containers' run from the first frame.
        let countsFromZero = [InputFile.mp4DemuxerName, InputFile.matroskaDemuxerName].contains(description.container)
        let coveredFrom = countsFromZero ? min(timeline.firstTime, 0) : timeline.firstTime
        let coveredMicroseconds = (Rational(endTime - coveredFrom) * timeBase * Rational(1_000_000)).floor
        let frameMicroseconds = (Rational(1_000_000) / frameRate).rounded
        self.dataEndsEarly = description.promisedFrames > timeline.packetCount
            || (containerDuration > 0 && containerDuration - coveredMicroseconds > 2 * frameMicroseconds + 100_000)
        self.fileSizeBytes = fileSizeBytes
        self.timestampResets = timeline.timestampResets
        guard width > 0, height > 0 else {
            throw MediaError(file: path, reason: .notAVideo("video stream has no picture size"))
        }
    }
}

extension VideoProbe {
    /// Ascending `times` with each time once, and the times that were there more than once.
    static func distinct(_ times: [Int64]) -> (times: [Int64], repeated: Set<Int64>) {
        var distinct: [Int64] = []
        distinct.reserveCapacity(times.count)
        var repeated = Set<Int64>()
        for time in times {
            if distinct.last == time { repeated.insert(time) } else { distinct.append(time) }
        }
        return (distinct, repeated)
    }

    /// The frame rate that times counted in decode order show: one over their commonest step.
    /// AVI's stated rate is its tick rate, which a stream copy of a raw stream sets to twice
    /// the frame rate (one frame per two ticks); nil with fewer than two frames.
    static func rateOfDecodeTimes(_ times: [Int64], timeBase: Rational) -> Rational? {
        var stepCounts: [Int64: Int] = [:]
        for (earlier, later) in zip(times, times.dropFirst()) where later > earlier { stepCounts[later - earlier, default: 0] += 1 }
        guard let step = stepCounts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key else { return nil }
        return Rational(1) / (Rational(step) * timeBase)
    }
}

/// One value passed from a helper thread to the thread that waits for it.
private final class Handoff<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func put(_ newValue: Value) {
        value.withLock { $0 = newValue }
        ready.signal()
    }

    /// Waits until `put` has been called, then returns the value.
    func take() -> Value {
        ready.wait()
        return value.withLock { $0! }
    }
}
