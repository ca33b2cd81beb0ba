import CFFmpeg
import Foundation

/// Owns an opened container (`AVFormatContext`) and knows which stream is the video.
///
/// Packets of every other stream are discarded by the demuxer itself.
public struct InputFile: ~Copyable {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The path the container was opened from, named in every error.
    public let path: String
    private(set) var streamIndex: Int32
    /// True once `avformat_find_stream_info` has completed the stream parameters.
    private(set) var isAnalyzed: Bool
    /// The file's own I/O context, where packet data may be skipped (nil: libavformat's file protocol).
    private let byteSource: FileByteSource?
    /// The caller's limits, kept alive here for the interrupt callback the context points at.
    private let deadline: InputDeadline
    /// True when packets come back with their times, flags and positions but not their bytes
    /// (see `PacketData.timingWhereIndexed`); such an input is for reading timing only.
    private(set) var readsTimingOnly = false
    /// What `read` does to packet times: counts them where the demuxer gives none
    /// (`timesFromFrameRate`), shifts them after timestamp resets (`followTimestampResets`).
    private let timeFixes = PacketTimeFixes()
    /// Unpacks DivX/Xvid packed B-frames (`PackedFrameSplitter`) where the codec and container
    /// call for it; nil elsewhere.
    private var packedFrames: PackedFrameSplitter?
    /// Reads each packet's display-order mark and true key flag where the container gives no
    /// presentation times (`givesNoPresentationTimes`); nil elsewhere.
    private var pictureOrder: PictureOrderParser?

    /// What reading a packet fills in.
    enum PacketData {
        /// Everything, bytes included.
        case full
        /// Where the container's index gives every packet's times, flags and position before
        /// any is read (an unfragmented MP4 opened without analysis): everything but the bytes,
        /// which are not read, and without libavformat's parser (it would look at the bytes);
        /// elsewhere everything. `readsTimingOnly` says which.
        case timingWhereIndexed
    }

    /// Opens `path` and selects its video stream; every failure is a `MediaError` naming the file.
    /// - Parameter path: the file to open.
    /// - Parameter analyzeStreams: decode the first frames to complete the stream parameters
    ///   (`avformat_find_stream_info`). Workers of a file already probed pass false: the
    ///   container header is enough to set up a decoder, and analysing costs a few
    ///   full-size decodes per open. They still analyse when the header lacks the codec or size.
    /// - Parameter containers: the demuxers allowed (`InputPolicy.acceptedContainers` unless a
    ///   caller reads something else on purpose, such as a written strip).
    /// - Parameter limits: the largest picture and the deadline (started here unless the caller
    ///   started it for a whole call).
    public init(path: String, analyzeStreams: Bool = true, containers: [String] = InputPolicy.acceptedContainers,
                limits: InputLimits = InputLimits()) throws(MediaError) {
        try self.init(path: path, analyzeStreams: analyzeStreams, containers: containers, limits: limits, packetData: .full)
    }

    /// Opens `path` as the public initialiser does; `packetData` says whether packets read
    /// later may come without their bytes.
    init(path: String, analyzeStreams: Bool = true, containers: [String] = InputPolicy.acceptedContainers,
         limits: InputLimits = InputLimits(), packetData: PacketData) throws(MediaError) {
        FFmpegLogging.configure()
        try Self.checkIsReadableFile(path)
        let deadline = InputDeadline(limits.started())
        let byteSource = packetData == .full ? nil : try FileByteSource(path: path, limits: deadline.limits)
        guard let allocated = avformat_alloc_context() else {
            throw MediaError(file: path, reason: .ffmpeg(.outOfMemory(in: "avformat_alloc_context", file: path)))
        }
        allocated.pointee.interrupt_callback = deadline.interruptCallback
        if let byteSource {
            allocated.pointee.pb = byteSource.context
            allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
        var options = InputPolicy.openOptions(containers: containers)
        let url = InputPolicy.url(forFileAt: path)
        // On failure avformat_open_input frees the context it was given.
        // The URL's bytes are the path's (FileSystemName): FFmpeg's file protocol opens them as they are.
        let openResult = FileSystemName.withCString(url) { avformat_open_input(&opened, $0, nil, &options) }
        av_dict_free(&options)
        guard openResult >= 0, let context = opened else {
            throw MediaError(file: path, reason: Self.openFailure(openResult, url: url, containers: containers, deadline: deadline))
        }
        // From here on a failure must close `context`: `self` is not yet initialised.
        func fail(_ reason: MediaError.Reason) -> MediaError {
            var toClose: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&toClose)
            return MediaError(file: path, reason: reason)
        }
        let analyze = analyzeStreams || !Self.headerDescribesVideo(context)
        let index: Int32
        do {
            index = try Self.selectVideoStream(in: context, analyzing: analyze, path: path, limits: deadline.limits)
        } catch {
            throw fail(error.reason)
        }
        self.context = context
        self.path = path
        self.streamIndex = index
        self.isAnalyzed = analyze
        self.byteSource = byteSource
        self.deadline = deadline
        setUpReadingWithoutPresentationTimes()
        if let byteSource, !analyze, indexListsEveryPacket, containerName == Self.mp4DemuxerName,
           let boxes = byteSource.topLevelBoxTypes(), boxes.filter({ $0 == "moov" }).count == 1,
           !boxes.contains(where: { $0 == "moof" || $0 == "mfra" }) {
            // The header has been read from the real bytes. From here MP4's demuxer reads only
            // sample data (its sample table is complete and nothing follows in other boxes), so
            // skipping those reads cannot change what it parses. Its times, flags and positions
            // come from the sample table; the parser, which would read the bytes, is turned off
            // before it is created (checked equal to a full read: ProbeMethodTests).
            byteSource.skipsPacketData = true
            context.pointee.flags |= AVFMT_FLAG_NOPARSE
            readsTimingOnly = true
        }
    }

    /// Bytes of packet data that reading skipped (0 unless `readsTimingOnly`).
    var skippedPacketBytes: Int64 { byteSource?.skippedBytes ?? 0 }

    /// Byte positions of the packets the demuxer's index marks as keyframes (MP4: sync samples).
    var indexKeyframePositions: Set<Int64> {
        var positions = Set<Int64>()
        for index in 0..<indexEntryCount {
            if let entry = avformat_index_get_entry(stream, Int32(index)), filmstrip_index_entry_is_keyframe(entry) != 0 {
                positions.insert(entry.pointee.pos)
            }
        }
        return positions
    }

    /// libavformat's short name of the MP4/QuickTime demuxer.
    static let mp4DemuxerName = "mov,mp4,m4a,3gp,3g2,mj2"
    /// libavformat's short name of the Matroska and WebM demuxer.
    static let matroskaDemuxerName = "matroska,webm"

    /// Entries in the demuxer's packet index for the video stream.
    var indexEntryCount: Int { Int(avformat_index_get_entries_count(stream)) }

    /// True when the demuxer's index lists every packet of the video stream before any is read
    /// (MP4's sample table: as many entries as the header's frame count).
    var indexListsEveryPacket: Bool { indexEntryCount > 0 && Int(stream.pointee.nb_frames) == indexEntryCount }

    /// Why `avformat_open_input` failed: a container outside `InputPolicy.acceptedContainers`
    /// (named), the deadline, or what FFmpeg's code means for a file.
    private static func openFailure(_ code: Int32, url: String, containers: [String], deadline: InputDeadline) -> MediaError.Reason {
        if code == FFmpegError.exit { return deadline.limits.timedOut }
        if code == filmstrip_averror(EINVAL), let refused = InputPolicy.refusedContainer(at: url, accepted: containers, deadline: deadline) {
            return .refusedContainer(name: refused.name, longName: refused.longName)
        }
        return .unreadableContainer(FFmpegError(code: code, call: "avformat_open_input"))
    }

    /// Completes the stream parameters of a file opened with `analyzeStreams: false`, as if it
    /// had been opened with analysis (nothing has been read yet); does nothing when already analysed.
    mutating func analyze() throws(MediaError) {
        guard !isAnalyzed else { return }
        for index in 0..<Int(context.pointee.nb_streams) {
            context.pointee.streams[index]!.pointee.discard = AVDISCARD_DEFAULT
        }
        streamIndex = try Self.selectVideoStream(in: context, analyzing: true, path: path, limits: limits)
        isAnalyzed = true
        setUpReadingWithoutPresentationTimes()
    }

    /// Where the container gives no presentation times: the unpacking of packed B-frames and the
    /// parser that reads each picture's place in display order.
    private mutating func setUpReadingWithoutPresentationTimes() {
        guard givesNoPresentationTimes else { return }
        packedFrames = PackedFrameSplitter(for: stream)
        pictureOrder = PictureOrderParser(for: codecParameters)
    }

    /// Makes `read` read each packet's display-order mark (and true key flag) whatever the
    /// container: for a file whose presentation times turned out to be decode-order ones.
    mutating func readPictureOrder() {
        if pictureOrder == nil { pictureOrder = PictureOrderParser(for: codecParameters) }
    }

    /// True when `read` reads each packet's display-order mark (`lastPictureMark`).
    var readsPictureOrder: Bool { pictureOrder != nil }

    /// The display-order mark of the packet `read` returned last (nil when it could not be read).
    var lastPictureMark: PictureOrderParser.Mark? { pictureOrder?.lastMark }

    /// Reads the next video packet into `packet`, replacing what it held.
    /// Damaged container data past the point that could be read ends the file, as far as callers
    /// can tell; `dataEndedEarly` says so. Where the container gives no presentation times,
    /// packed B-frames come unpacked and each picture's display-order mark is read.
    public func read(into packet: inout Packet) throws(MediaError) -> ReadOutcome {
        let outcome = try readUnpacked(into: &packet)
        if outcome == .packet { pictureOrder?.read(packet) }
        return outcome
    }

    /// Analyses the streams when asked, picks the video stream and tells the demuxer to drop
    /// every other stream's packets.
    private static func selectVideoStream(in context: UnsafeMutablePointer<AVFormatContext>, analyzing: Bool,
                                          path: String, limits: InputLimits) throws(MediaError) -> Int32 {
        let maximumPixels = limits.maximumPixels
        if let oversized = oversizedVideo(in: context, maximumPixels: maximumPixels) { throw MediaError(file: path, reason: oversized) }
        if analyzing {
            let result = findStreamInfo(context, maximumPixels: maximumPixels)
            if result == FFmpegError.exit { throw MediaError(file: path, reason: limits.timedOut) }
            if result < 0 { throw MediaError(file: path, reason: .unreadableContainer(FFmpegError(code: result, call: "avformat_find_stream_info"))) }
        }
        guard let index = videoStreamIndex(in: context) else { throw MediaError(file: path, reason: .noVideoStream) }
        if let oversized = oversizedVideo(in: context, stream: Int(index), maximumPixels: maximumPixels) { throw MediaError(file: path, reason: oversized) }
        for other in 0..<Int(context.pointee.nb_streams) where other != Int(index) {
            context.pointee.streams[other]!.pointee.discard = AVDISCARD_ALL
        }
        return index
    }

    /// `avformat_find_stream_info` with the decoders it opens limited to
    /// `maximumPixels` per picture, so a damaged or hostile header cannot make
    /// analysis allocate gigabytes; one thread per decoder, as FFmpeg does when given no options.
    private static func findStreamInfo(_ context: UnsafeMutablePointer<AVFormatContext>, maximumPixels: Int) -> Int32 {
        let count = Int(context.pointee.nb_streams)
        guard count > 0 else { return avformat_find_stream_info(context, nil) }
        let perStream = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: count)
        perStream.initialize(repeating: nil, count: count)
        for index in 0..<count {
            av_dict_set(&perStream[index], "threads", "1", 0)
            av_dict_set(&perStream[index], "max_pixels", "\(maximumPixels)", 0)
        }
        let result = avformat_find_stream_info(context, perStream)
        for index in 0..<count { av_dict_free(&perStream[index]) }
        perStream.deallocate()
        return result
    }

    /// The refusal for a video stream (`stream`, or any) whose header declares a picture
    /// larger than `maximumPixels`, checked before anything decodes it.
    private static func oversizedVideo(in context: UnsafeMutablePointer<AVFormatContext>, stream: Int? = nil,
                                       maximumPixels: Int) -> MediaError.Reason? {
        let indices = stream.map { [$0] } ?? Array(0..<Int(context.pointee.nb_streams))
        for index in indices {
            let parameters = context.pointee.streams[index]!.pointee.codecpar.pointee
            guard parameters.codec_type == AVMEDIA_TYPE_VIDEO, parameters.width > 0, parameters.height > 0 else { continue }
            if Int(parameters.width) * Int(parameters.height) > maximumPixels {
                return .pictureTooLarge(width: Int(parameters.width), height: Int(parameters.height), limit: maximumPixels)
            }
        }
        return nil
    }

    deinit {
        var toClose: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&toClose)
    }

    /// The limits this input was opened with, its deadline started.
    public var limits: InputLimits { deadline.limits }

    var stream: UnsafeMutablePointer<AVStream> { context.pointee.streams[Int(streamIndex)]! }
    var codecParameters: UnsafeMutablePointer<AVCodecParameters> { stream.pointee.codecpar }

    /// The video stream's time base: seconds per tick of packet and frame timestamps.
    public var timeBase: Rational {
        let base = stream.pointee.time_base
        return Rational(Int64(base.num), Int64(max(base.den, 1)))
    }

    /// Outcome of reading one packet: a packet of the video stream, or the end of the file.
    public enum ReadOutcome: Equatable, Sendable {
        /// A packet of the video stream was read into the `Packet` passed in.
        case packet
        /// The container has no more packets (or its data past this point cannot be read).
        case endOfFile
    }

    /// Reads the next video packet, packed B-frames unpacked (`PackedFrameSplitter`).
    private func readUnpacked(into packet: inout Packet) throws(MediaError) -> ReadOutcome {
        guard let packedFrames else { return try readFromDemuxer(into: &packet) }
        while true {
            if packedFrames.receive(into: packet) { return .packet }
            if packedFrames.inputEnded { return .endOfFile }
            if try readFromDemuxer(into: &packet) == .endOfFile {
                packedFrames.endInput()
                continue
            }
            // A packet the filter refuses goes on as it came.
            if !packedFrames.send(packet) { return .packet }
        }
    }

    /// Reads the next video packet from the demuxer, its times fixed, before any unpacking.
    private func readFromDemuxer(into packet: inout Packet) throws(MediaError) -> ReadOutcome {
        var stalledRetries = 0
        var lastPosition = Int64.min
        while true {
            packet.unreference()
            // Demuxers that find nothing to return loop inside av_read_frame without reading, and
            // decoding a long file is work without I/O: the deadline is checked here as well.
            if limits.deadlineHasPassed { throw MediaError(file: path, reason: limits.timedOut) }
            let result = av_read_frame(context, packet.pointer)
            if result == FFmpegError.endOfFile { return .endOfFile }
            if result == FFmpegError.tryAgain {
                // "Read again": MPEG-TS says so after skipping 64 KB of bytes that are not packets
                // (zero padding, garbage between segments). Each such call moves through the file;
                // calls that move nothing are retried a bounded number of times, then the data is
                // taken to end there, as after any unreadable tail.
                let position = context.pointee.pb.map { avio_tell($0) } ?? Int64.min
                if position != lastPosition {
                    lastPosition = position
                    stalledRetries = 0
                    continue
                }
                stalledRetries += 1
                if stalledRetries < Self.stalledReadRetries { continue }
                return .endOfFile
            }
            if result == FFmpegError.exit { throw MediaError(file: path, reason: limits.timedOut) }
            if result < 0 {
                // A read error in the middle of a file is truncation or corruption: treat as the end,
                // as players do, rather than failing frames that were already read.
                if result == FFmpegError.invalidData || result == filmstrip_averror(EIO) { return .endOfFile }
                throw MediaError(file: path, reason: .ffmpeg(FFmpegError(code: result, call: "av_read_frame", file: path)))
            }
            if packet.pointer.pointee.stream_index == streamIndex {
                countTimesIfUntimed(packet)
                shiftAfterResets(packet)
                return .packet
            }
        }
    }

    /// True when the video stream's packets come with no times at all and `read` numbers them
    /// instead: decode time = the sum of the earlier packets' durations (one frame at the
    /// stream's rate where a packet states none) from the start of the data, as the ffmpeg CLI
    /// times such frames. Raw H.264 and HEVC with B-frames are like that: their parsers cannot
    /// tell a decode time without knowing the reorder depth. Such times hold only counted from
    /// the first packet, so `seek` then goes back to the start.
    var timesFromFrameRate: Bool { timeFixes.counts }

    /// True for containers whose timestamps may go back mid-stream (`AVFMT_TS_DISCONT`: MPEG-TS, MPEG-PS).
    var allowsTimestampResets: Bool { context.pointee.iformat.pointee.flags & AVFMT_TS_DISCONT != 0 }

    /// Makes `read` shift packet times after each of `resets` (from the probe) as the probe
    /// did, and `seek` take shifted times, so that decoded frames carry the probe's times.
    func followTimestampResets(_ resets: [TimestampReset]) {
        timeFixes.resets = resets
    }

    private func shiftAfterResets(_ packet: borrowing Packet) {
        guard !timeFixes.resets.isEmpty, let position = packet.position else { return }
        let shift = TimestampReset.shift(at: position, in: timeFixes.resets)
        let nopts = filmstrip_nopts_value()
        let raw = packet.pointer
        if raw.pointee.pts != nopts { raw.pointee.pts += shift }
        if raw.pointee.dts != nopts { raw.pointee.dts += shift }
    }

    /// True for containers that give no presentation times (AVI, raw elementary streams): times
    /// are decode times, or counted, and the frames' display order must come from their bytes.
    var givesNoPresentationTimes: Bool {
        containerName == Self.aviDemuxerName || Self.elementaryStreamDemuxers.contains(containerName)
    }

    /// libavformat's short name of the AVI demuxer.
    static let aviDemuxerName = "avi"

    /// Elementary-stream demuxers: the only containers whose packets may all come without times.
    private static let elementaryStreamDemuxers: Set<String> = ["h264", "hevc", "mpegvideo", "m4v", "obu"]

    /// Fills in the decode time of a packet of an untimed stream (decided at its first packet).
    private func countTimesIfUntimed(_ packet: borrowing Packet) {
        let nopts = filmstrip_nopts_value()
        let raw = packet.pointer
        if !timeFixes.hasRead {
            timeFixes.hasRead = true
            timeFixes.counts = raw.pointee.pts == nopts && raw.pointee.dts == nopts
                && Self.elementaryStreamDemuxers.contains(containerName)
        }
        guard timeFixes.counts else { return }
        // One clock for every packet: a time a parser guessed for some packets would not fit the count.
        raw.pointee.pts = nopts
        raw.pointee.dts = timeFixes.next
        timeFixes.next += raw.pointee.duration > 0 ? raw.pointee.duration : nominalFrameTicks
    }

    /// One frame at the stream's stated rate (25 fps when it states none), in time-base ticks.
    var nominalFrameTicks: Int64 {
        let stream = stream.pointee
        let rate = stream.avg_frame_rate.num > 0 && stream.avg_frame_rate.den > 0 ? stream.avg_frame_rate : stream.r_frame_rate
        let frameRate = rate.num > 0 && rate.den > 0 ? Rational(Int64(rate.num), Int64(rate.den)) : Rational(25)
        return max(1, (Rational(1) / frameRate / timeBase).rounded)
    }

    /// Consecutive "read again" answers without the file position moving before the data is
    /// taken to end: a file offers nothing new to a read that made no progress.
    private static let stalledReadRetries = 16

    /// Seeks so that the next packet read is the keyframe at or before `pts` (stream time base).
    public func seek(toKeyframeAtOrBefore pts: Int64) throws(MediaError) {
        // A B-frame held back from before the seek belongs to another place in the stream.
        packedFrames?.flush()
        // Counted times are known only by reading from the start; an elementary stream not yet
        // read may turn out to be untimed, and going to its start then costs nothing.
        if timeFixes.counts || (!timeFixes.hasRead && Self.elementaryStreamDemuxers.contains(containerName)) {
            try rewind()
            return
        }
        // Resets make the file's own times go back: the demuxer searches by those.
        let pts = pts - TimestampReset.shift(ofTime: pts, in: timeFixes.resets)
        let result = avformat_seek_file(context, streamIndex, Int64.min, pts, pts, 0)
        if result < 0 {
            // Some demuxers cannot seek to an exact bound; fall back to the classic backward seek.
            let fallback = av_seek_frame(context, streamIndex, pts, AVSEEK_FLAG_BACKWARD)
            if fallback < 0 {
                throw MediaError(file: path, reason: .ffmpeg(FFmpegError(code: fallback, call: "av_seek_frame", file: path)))
            }
        }
    }

    /// Goes back to the first byte of the data, where counted times start again.
    private func rewind() throws(MediaError) {
        let result = avformat_seek_file(context, -1, Int64.min, 0, Int64.max, AVSEEK_FLAG_BYTE)
        if result < 0 {
            throw MediaError(file: path, reason: .ffmpeg(FFmpegError(code: result, call: "avformat_seek_file", file: path)))
        }
        timeFixes.next = 0
        timeFixes.hasRead = false
    }

    /// A keyframe of the demuxer's packet index about `fraction` of the way through the video
    /// stream's packets (never the first packet): its byte position and index timestamp. Nil
    /// unless the index lists every packet of the stream, as MP4's sample table does.
    func keyframeIndexEntry(near fraction: Double) -> (position: Int64, timestamp: Int64)? {
        let count = indexEntryCount
        guard count > 2, indexListsEveryPacket else { return nil }
        let target = min(count - 1, max(1, Int(Double(count) * fraction)))
        for distance in 0..<count {
            for index in [target - distance, target + distance] where index > 0 && index < count {
                if let entry = avformat_index_get_entry(stream, Int32(index)), filmstrip_index_entry_is_keyframe(entry) != 0,
                   entry.pointee.pos >= 0 {
                    return (entry.pointee.pos, entry.pointee.timestamp)
                }
            }
        }
        return nil
    }

    /// The container's short name, for example "mov,mp4,m4a,3gp,3g2,mj2".
    public var containerName: String { String(cString: context.pointee.iformat.pointee.name) }
    /// The container's descriptive name, for example "QuickTime / MOV"; the short name when it has none.
    public var containerLongName: String {
        context.pointee.iformat.pointee.long_name.map { String(cString: $0) } ?? containerName
    }

    /// Plain `stat` and `access`: Foundation's `attributesOfItem` also looks up the owner's
    /// account name (NSS), which costs about a millisecond per call at start-up.
    private static func checkIsReadableFile(_ path: String) throws(MediaError) {
        guard let status = System.status(path) else { throw MediaError(file: path, reason: .fileNotFound) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw MediaError(file: path, reason: .isDirectory)
        // A FIFO or a device has no size and may block forever when opened: not a video file.
        case S_IFIFO: throw MediaError(file: path, reason: .notRegularFile("a FIFO (named pipe)"))
        case S_IFCHR: throw MediaError(file: path, reason: .notRegularFile("a character device"))
        case S_IFBLK: throw MediaError(file: path, reason: .notRegularFile("a block device"))
        case S_IFSOCK: throw MediaError(file: path, reason: .notRegularFile("a socket"))
        default: throw MediaError(file: path, reason: .notRegularFile("a file of an unknown type"))
        }
        guard FileSystemName.withCString(path, { access($0, R_OK) }) == 0 else { throw MediaError(file: path, reason: .unreadable("permission denied")) }
        if status.st_size == 0 { throw MediaError(file: path, reason: .emptyFile) }
    }

    /// Size of the opened file in bytes, as FFmpeg's I/O layer sees it (0 when unknown).
    var fileSizeBytes: Int64 {
        guard let io = context.pointee.pb else { return 0 }
        return max(0, avio_size(io))
    }

    /// True when the container header alone names a video codec and picture size.
    private static func headerDescribesVideo(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        (0..<Int(context.pointee.nb_streams)).contains { index in
            let parameters = context.pointee.streams[index]!.pointee.codecpar.pointee
            return parameters.codec_type == AVMEDIA_TYPE_VIDEO && parameters.codec_id != AV_CODEC_ID_NONE
                && parameters.width > 0 && parameters.height > 0
        }
    }

    /// The best video stream, skipping cover art (attached pictures) that audio files carry.
    private static func videoStreamIndex(in context: UnsafeMutablePointer<AVFormatContext>) -> Int32? {
        let best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        func isMovingVideo(_ index: Int) -> Bool {
            let stream = context.pointee.streams[index]!.pointee
            return stream.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && stream.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
        if best >= 0, isMovingVideo(Int(best)) { return best }
        return (0..<Int(context.pointee.nb_streams)).first(where: isMovingVideo).map { Int32($0) }
    }
}

/// How `read` fixes up packet times (an untimed stream's running decode time, the shifts after
/// timestamp resets), kept by reference so that reading a borrowed `InputFile` can advance it;
/// each `InputFile` has its own and uses it on one thread at a time.
private final class PacketTimeFixes {
    /// True once the first packet was read since opening or rewinding.
    var hasRead = false
    /// True when the stream's packets carry no times and `next` numbers them.
    var counts = false
    /// The decode time of the next packet, in the stream's time base.
    var next: Int64 = 0
    /// Where the probe found the stream's times going back (`InputFile.followTimestampResets`).
    var resets: [TimestampReset] = []
}

/// The bitstream filter `mpeg4_unpack_bframes` over an MPEG-4 Part 2 stream in a container
/// without presentation times (AVI, raw `.m4v`): DivX and Xvid "packed bitstream" puts a
/// P-frame and the B-frame shown before it in one packet, followed by a placeholder (a
/// not-coded frame), so that a decoder reading packet by packet shows frames in order. Read
/// that way, the placeholder's time is the B-frame's and the packed packet holds two pictures;
/// after a seek the decoder may meet a placeholder with nothing stored and draw concealment.
/// Unpacked, each packet holds one picture at its own decode time, as in any stream with
/// B-frames; streams without packing pass through unchanged. Kept by reference, as
/// `PacketTimeFixes`, so that reading a borrowed `InputFile` advances it; each `InputFile` has
/// its own and uses it on one thread at a time.
private final class PackedFrameSplitter {
    private var context: UnsafeMutablePointer<AVBSFContext>?
    /// True once the demuxer's end was passed to the filter: what it holds is all that comes.
    private(set) var inputEnded = false

    /// A filter for `stream` where it is MPEG-4 Part 2 (the caller asks only where the container
    /// gives no presentation times); nil elsewhere, or when FFmpeg lacks the filter.
    init?(for stream: UnsafeMutablePointer<AVStream>) {
        guard stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_MPEG4,
              let filter = av_bsf_get_by_name("mpeg4_unpack_bframes") else { return nil }
        var context: UnsafeMutablePointer<AVBSFContext>?
        guard av_bsf_alloc(filter, &context) >= 0, let allocated = context else { return nil }
        allocated.pointee.time_base_in = stream.pointee.time_base
        guard avcodec_parameters_copy(allocated.pointee.par_in, stream.pointee.codecpar) >= 0, av_bsf_init(allocated) >= 0 else {
            av_bsf_free(&context)
            return nil
        }
        self.context = allocated
    }

    deinit { av_bsf_free(&context) }

    /// Moves the next unpacked packet into `packet`; false when the filter needs more input or is drained.
    func receive(into packet: borrowing Packet) -> Bool {
        av_bsf_receive_packet(context, packet.pointer) >= 0
    }

    /// Hands `packet` to the filter (which takes its data, leaving it empty); false when the
    /// filter refuses it, and `packet` is left as it was.
    func send(_ packet: borrowing Packet) -> Bool {
        av_bsf_send_packet(context, packet.pointer) >= 0
    }

    /// Tells the filter no more packets come, so that it gives out what it holds.
    func endInput() {
        inputEnded = true
        _ = av_bsf_send_packet(context, nil)
    }

    /// Drops what the filter holds (a seek): packets read next start afresh.
    func flush() {
        av_bsf_flush(context)
        inputEnded = false
    }
}
