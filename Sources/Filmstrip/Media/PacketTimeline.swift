/// The video stream's packets as the demuxer hands them out, read for their timing only:
/// presentation times, keyframe flags and durations (no decoding).
struct PacketTimeline: Sendable {
    /// Presentation times of the keyframes, ascending (stream time base).
    var keyframes: [Int64] = []
    /// Byte position of each keyframe packet, by presentation time (absent when the demuxer does not say).
    var keyframePositions: [Int64: Int64] = [:]
    /// Presentation times of every packet that has one, ascending.
    var frameTimes: [Int64] = []
    var packetCount = 0
    /// The earliest presentation time, `Int64.max` when no packet had a time.
    var firstTime = Int64.max
    /// The latest `pts + duration` over the packets.
    var endTime = Int64.min
    /// The latest presentation time.
    var lastTime = Int64.min
    /// False when some packet had only a decode time, which then stood in for its presentation
    /// time. Such times are filled in by libavformat from what stream analysis learnt (the
    /// decoder's reorder delay), so they can differ between an analysed and an unanalysed file.
    var everyPacketHadPresentationTime = true
    /// True when reading stopped at the packet asked for rather than at the end of the data.
    var stoppedBeforeRequestedPacket = false

    /// Reads the packets of `input`'s video stream from its current position to the end of the
    /// data, or up to (not including) the packet at byte position `stopPosition`.
    init(scanning input: borrowing InputFile, stoppingAt stopPosition: Int64? = nil) throws(MediaError) {
        var packet = Packet()
        while try input.read(into: &packet) == .packet {
            if let stopPosition, packet.position == stopPosition {
                stoppedBeforeRequestedPacket = true
                break
            }
            record(packet)
        }
        sortTimes()
    }

    /// Reads from the packet at byte position `start.position` (a keyframe of the packet index,
    /// at index time `start.timestamp`) to the end of the data. Nil when seeking fails or that
    /// packet is not where seeking to its keyframe leads.
    init?(scanning input: borrowing InputFile, startingAt start: (position: Int64, timestamp: Int64)) throws(MediaError) {
        // A demuxer that cannot seek there says nothing about the file: the caller reads on instead.
        do { try input.seek(toKeyframeAtOrBefore: start.timestamp) } catch { return nil }
        var packet = Packet()
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
        if !packet.hasPresentationTime { everyPacketHadPresentationTime = false }
        guard let pts = packet.pts else { return }
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

    /// Adds the packets read after these, by another reader, as if one reader had read them all.
    mutating func append(_ later: PacketTimeline) {
        keyframes += later.keyframes
        keyframePositions.merge(later.keyframePositions) { first, _ in first }
        frameTimes += later.frameTimes
        packetCount += later.packetCount
        firstTime = min(firstTime, later.firstTime)
        endTime = max(endTime, later.endTime)
        lastTime = max(lastTime, later.lastTime)
        everyPacketHadPresentationTime = everyPacketHadPresentationTime && later.everyPacketHadPresentationTime
        sortTimes()
    }
}
