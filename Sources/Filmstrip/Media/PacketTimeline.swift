/// The video stream's packets as the demuxer hands them out, read for their timing only:
/// presentation times, keyframe flags and durations (no decoding).
struct PacketTimeline: Sendable {
    /// Presentation times of the keyframes, ascending (stream time base).
    var keyframes: [Int64] = []
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

    /// Reads every packet of `input`'s video stream from its current position to the end of the data.
    init(scanning input: borrowing InputFile) throws(MediaError) {
        var packet = Packet()
        var keyframesAreSorted = true
        while try input.read(into: &packet) == .packet {
            packetCount += 1
            if !packet.hasPresentationTime { everyPacketHadPresentationTime = false }
            guard let pts = packet.pts else { continue }
            frameTimes.append(pts)
            firstTime = min(firstTime, pts)
            endTime = max(endTime, pts + max(packet.duration, 0))
            if packet.isKeyframe {
                if let last = keyframes.last, pts < last { keyframesAreSorted = false }
                keyframes.append(pts)
            }
            lastTime = max(lastTime, pts)
        }
        if !keyframesAreSorted { keyframes.sort() }
        frameTimes.sort()
    }
}
