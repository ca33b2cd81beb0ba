/// The video stream's packets as the demuxer hands them out, read for their timing only:
/// presentation times, keyframe flags and durations (no decoding).
struct PacketTimeline: Sendable {
    /// Presentation times of the keyframes, ascending (stream time base), those of hidden
    /// (discarded) keyframes included: decoding starts there for the frames shown after them.
    var keyframes: [Int64] = []
    /// Byte position of each keyframe packet, by presentation time (absent when the demuxer does not say).
    var keyframePositions: [Int64: Int64] = [:]
    /// Presentation times of every shown packet that has one, ascending.
    var frameTimes: [Int64] = []
    /// Packets read, shown or not.
    var packetCount = 0
    /// Packets whose frames are decoded but not shown (`Packet.isDiscarded`: cut off by an edit
    /// list), or that carry no time at all.
    var hiddenCount = 0
    /// Packets with neither a presentation nor a decode time (counted among the hidden ones).
    var untimedCount = 0
    /// Frames shown: the packets less the hidden ones.
    var shownCount: Int { packetCount - hiddenCount }
    /// The earliest presentation time of a shown frame, `Int64.max` when no such packet had a time.
    /// Times of the frames shown and the end below leave hidden frames out, so the timeline
    /// follows the container's edit list as players do.
    var firstTime = Int64.max
    /// The latest `pts + duration` over the packets.
    var endTime = Int64.min
    /// The latest presentation time.
    var lastTime = Int64.min
    /// False when some packet had only a decode time, which then stood in for its presentation
    /// time. Such times are filled in by libavformat from what stream analysis learnt (the
    /// decoder's reorder delay), so they can differ between an analysed and an unanalysed file.
    var everyPacketHadPresentationTime = true
    /// Every packet's times, key flag and byte position, in reading (decode) order.
    var packets: [(dts: Int64?, pts: Int64?, isKeyframe: Bool, position: Int64?)] = []
    /// Decode times of the keyframes, in the order of `keyframes` (filled in by `deriveTimesFromDecodeOrder`).
    var keyframeDecodeTimes: [Int64] = []
    /// True when reading stopped at the packet asked for rather than at the end of the data.
    var stoppedBeforeRequestedPacket = false
    /// True when the decode times were counted from the frame rate (`InputFile.timesFromFrameRate`).
    var timesFromFrameRate = false
    /// Each packet's display-order mark, read from its bytes (`PictureOrderParser`), in the order
    /// of `packets`; empty where the container gives presentation times or the codec needs none.
    var pictureMarks: [PictureOrderParser.Mark?] = []
    /// Each packet's display time by its decode time (filled in by `deriveTimesFromDecodeOrder`):
    /// decoders stamp it on the packet, and the frame it makes comes out with it.
    var displayTimesByDecodeTime: [Int64: Int64] = [:]
    /// The same by byte position, where decode times do not tell packets apart (`takePresentationTimesAsDecodeOrder`).
    var displayTimesByPosition: [Int64: Int64] = [:]
    /// True when packets are known by their byte position rather than their decode time.
    private var keyedByPosition = false
    /// Where the times went back and were shifted to follow on (containers that allow it, MPEG-TS).
    var timestampResets: [TimestampReset] { resetFinder?.resets ?? [] }
    private var resetFinder: TimestampResetFinder?

    /// Reads the packets of `input`'s video stream from its current position to the end of the
    /// data, or up to (not including) the packet at byte position `stopPosition`.
    init(scanning input: borrowing InputFile, stoppingAt stopPosition: Int64? = nil) throws(MediaError) {
        if input.allowsTimestampResets {
            resetFinder = TimestampResetFinder(tolerance: max(1, (Rational(1, 10) / input.timeBase).rounded), frameTicks: input.nominalFrameTicks)
        }
        var packet = try Packet.reading(input.path)
        while try input.read(into: &packet) == .packet {
            if let stopPosition, packet.position == stopPosition {
                stoppedBeforeRequestedPacket = true
                break
            }
            record(packet)
            // Where the container gives no presentation times, each packet's bytes say where it is shown.
            if input.readsPictureOrder { pictureMarks.append(input.lastPictureMark) }
        }
        timesFromFrameRate = input.timesFromFrameRate
        sortTimes()
    }

    /// Reads from the packet at byte position `start.position` (a keyframe of the packet index,
    /// at index time `start.timestamp`) to the end of the data. Nil when seeking fails or that
    /// packet is not where seeking to its keyframe leads.
    init?(scanning input: borrowing InputFile, startingAt start: (position: Int64, timestamp: Int64)) throws(MediaError) {
        // A demuxer that cannot seek there says nothing about the file: the caller reads on instead.
        do { try input.seek(toKeyframeAtOrBefore: start.timestamp) } catch { return nil }
        var packet = try Packet.reading(input.path)
        // The MP4 demuxer takes a seek time for a presentation time and the index holds decode
        // times, so it may land a keyframe early: skip forward to the packet asked for.
        repeat {
            guard try input.read(into: &packet) == .packet, let position = packet.position, position <= start.position else {
                return nil
            }
        } while packet.position != start.position
        record(packet)
        while try input.read(into: &packet) == .packet { record(packet) }
        sortTimes()
    }

    private mutating func record(_ packet: borrowing Packet) {
        packetCount += 1
        let shift = resetFinder?.shift(for: packet) ?? 0
        packets.append((packet.decodeTime.map { $0 + shift }, packet.hasPresentationTime ? packet.pts.map { $0 + shift } : nil,
                        packet.isKeyframe, packet.position))
        guard let pts = packet.pts.map({ $0 + shift }) else {
            // Neither time (Matroska blocks before their cluster's time, after a stream copy
            // that moved the times back): the frame has no place on the timeline. The ffmpeg
            // CLI guesses times that later frames undercut, so it never shows it either; the
            // decoders drop frames without a time.
            hiddenCount += 1
            untimedCount += 1
            return
        }
        if !packet.hasPresentationTime { everyPacketHadPresentationTime = false }
        if packet.isDiscarded {
            hiddenCount += 1
            if packet.isKeyframe {
                keyframes.append(pts)
                if let position = packet.position { keyframePositions[pts] = position }
            }
            return
        }
        frameTimes.append(pts)
        firstTime = min(firstTime, pts)
        endTime = max(endTime, pts + max(packet.duration, 0))
        lastTime = max(lastTime, pts)
        if packet.isKeyframe {
            keyframes.append(pts)
            if let position = packet.position { keyframePositions[pts] = position }
        }
    }

    private mutating func sortTimes() {
        keyframes.sort()
        frameTimes.sort()
    }

    /// Where some packets carry no presentation time (MPEG program streams, AVI), a decode time
    /// stood in for it, which is not that frame's display time when frames are reordered (a
    /// keyframe of an open GOP is shown after the B-frames that follow it), and may be another
    /// frame's. MPEG's reordering rule gives the display times instead: a frame the demuxer
    /// gave a presentation time equal to its decode time is a B-frame (libavformat's parser
    /// says so), shown as it is decoded; any other frame is a reference frame, shown at its own
    /// presentation time when it has one, else at the decode time of the next reference frame
    /// (the last one a frame after the last decode time). Without B-frame marks (H.264 in
    /// AVI) every frame counts as a reference: the times are then the decode times one frame
    /// later, which still number the frames in display order for closed GOPs.
    mutating func deriveTimesFromDecodeOrder() {
        guard !everyPacketHadPresentationTime, packets.count > 1, untimedCount == 0, packets.allSatisfy({ $0.dts != nil }) else { return }
        let decodeTimes = packets.map { $0.dts! }
        let frameDuration = max(1, decodeTimes[decodeTimes.count - 1] - decodeTimes[decodeTimes.count - 2])
        var display = [Int64](repeating: 0, count: packets.count)
        var waitingReference: Int?
        let marked = pictureMarks.count == packets.count
        if marked, let order = PictureOrderParser.displayOrder(of: pictureMarks, keyframes: packets.map(\.isKeyframe)) {
            // The frames' picture order counts give the display order: the n-th frame shown
            // takes the n-th smallest decode time, so the times number the frames in display
            // order, open GOPs' leading pictures and B-pyramids included.
            let slots = decodeTimes.sorted()
            for (rank, index) in order.enumerated() { display[index] = slots[rank] }
        } else if timesFromFrameRate && !marked {
            // Counted times number the frames in decode order, and there are as many display
            // slots: the frames shown at them are the same times sorted. A keyframe of a closed
            // GOP is shown after every frame decoded before it and before every frame decoded
            // after it, so at its own count (open GOPs' leading frames are not told apart here).
            display = decodeTimes
        } else {
            // MPEG's rule, with each picture's type read from its bytes where the parser could
            // (MPEG-4 Part 2: packed B-frames, once unpacked, carry no mark from the demuxer),
            // else from libavformat's marks.
            let typesRead = marked && pictureMarks.allSatisfy { $0 == .bidirectional || $0 == .reference }
            for (index, packet) in packets.enumerated() {
                let isBidirectional = typesRead ? pictureMarks[index] == .bidirectional
                    : packet.pts.map { $0 == packet.dts && !packet.isKeyframe } ?? false
                if isBidirectional {
                    display[index] = decodeTimes[index]
                    continue
                }
                if let waiting = waitingReference { display[waiting] = decodeTimes[index] }
                waitingReference = nil
                if !typesRead, let pts = packet.pts { display[index] = pts } else { waitingReference = index }
            }
        }
        if let waiting = waitingReference { display[waiting] = decodeTimes.last! + frameDuration }
        if keyedByPosition {
            displayTimesByPosition = Dictionary(zip(packets.map { $0.position ?? -1 }, display)) { first, _ in first }
        } else {
            displayTimesByDecodeTime = Dictionary(zip(decodeTimes, display)) { first, _ in first }
        }
        frameTimes = display.sorted()
        var keys: [(display: Int64, dts: Int64, position: Int64?)] = []
        for (index, packet) in packets.enumerated() where packet.isKeyframe { keys.append((display[index], decodeTimes[index], packet.position)) }
        keys.sort { $0.display < $1.display }
        keyframes = keys.map(\.display)
        keyframeDecodeTimes = keys.map(\.dts)
        keyframePositions = [:]
        for key in keys { if let position = key.position { keyframePositions[key.display] = position } }
        firstTime = frameTimes.first!
        lastTime = frameTimes.last!
        endTime = max(lastTime + frameDuration, endTime)
    }

    /// True when the packets' presentation times rise in decode order throughout although the
    /// stream reorders frames (`reorderDepth` > 0), and each packet has a byte position: times a
    /// remux rewrote as a ramp in decode order (the ffmpeg CLI 5.1's `setts=time_base=…`). They
    /// then say nothing of where a frame is shown; the decoder, seeing them go back in display
    /// order, would time frames by decode times instead, as the ffmpeg CLI does.
    func presentationTimesFollowDecodeOrder(reorderDepth: Int) -> Bool {
        guard reorderDepth > 0, everyPacketHadPresentationTime, hiddenCount == 0, packets.count > 2 * reorderDepth + 2 else { return false }
        var last = Int64.min
        for packet in packets {
            guard let pts = packet.pts, packet.position != nil, pts >= last else { return false }
            last = pts
        }
        return true
    }

    /// Takes the presentation times as decode times (`presentationTimesFollowDecodeOrder`), so that
    /// `deriveTimesFromDecodeOrder` works out display times from the picture marks; packets are
    /// then known by position, as the ramp may repeat a time.
    mutating func takePresentationTimesAsDecodeOrder() {
        packets = packets.map { (dts: $0.pts, pts: nil, isKeyframe: $0.isKeyframe, position: $0.position) }
        everyPacketHadPresentationTime = false
        keyedByPosition = true
    }

    /// Adds the packets read after these, by another reader, as if one reader had read them all.
    mutating func append(_ later: PacketTimeline) {
        keyframes += later.keyframes
        keyframePositions.merge(later.keyframePositions) { first, _ in first }
        packets += later.packets
        frameTimes += later.frameTimes
        packetCount += later.packetCount
        hiddenCount += later.hiddenCount
        untimedCount += later.untimedCount
        firstTime = min(firstTime, later.firstTime)
        endTime = max(endTime, later.endTime)
        lastTime = max(lastTime, later.lastTime)
        everyPacketHadPresentationTime = everyPacketHadPresentationTime && later.everyPacketHadPresentationTime
        sortTimes()
    }
}
