/// A point in a video's data where the container's timestamps go back: a transport stream
/// of two recordings joined end to end, or an encoder restarted mid-stream. Players and the
/// ffmpeg CLI carry on from where the times were (the CLI shifts every later time when a
/// decode time falls more than 0.1 s behind the last one), so the later part plays after the
/// earlier one instead of over it; filmstrip shifts the same way.
public struct TimestampReset: Sendable, Codable, Equatable {
    /// Byte position of the first packet after the reset.
    public var position: Int64
    /// Ticks (stream time base) added to every packet time from `position` on.
    public var shift: Int64
    /// The shifted decode time of that first packet: later times than this belong to this part.
    public var start: Int64

    /// The shift of the packet at byte position `position`, among `resets` (in data order).
    static func shift(at position: Int64, in resets: [TimestampReset]) -> Int64 {
        resets.last { $0.position <= position }?.shift ?? 0
    }

    /// The shift of the part that shifted time `time` falls in, among `resets` (in data order).
    static func shift(ofTime time: Int64, in resets: [TimestampReset]) -> Int64 {
        resets.last { $0.start <= time }?.shift ?? 0
    }
}

/// Finds the resets of a stream while its packets are read in order from the start, by the
/// CLI's rule: a decode time more than `tolerance` behind the last one starts a part shifted
/// to follow the last packet.
struct TimestampResetFinder: Sendable {
    /// 0.1 s in the stream's time base.
    let tolerance: Int64
    /// One frame, for a last packet that states no duration.
    let frameTicks: Int64
    private(set) var resets: [TimestampReset] = []
    private var last: (time: Int64, duration: Int64)?

    init(tolerance: Int64, frameTicks: Int64) {
        self.tolerance = tolerance
        self.frameTicks = frameTicks
    }

    /// The shift for `packet`, the next packet read.
    mutating func shift(for packet: borrowing Packet) -> Int64 {
        var shift = resets.last?.shift ?? 0
        guard let time = packet.decodeTime ?? packet.pts else { return shift }
        var shifted = time + shift
        if let last, shifted + tolerance < last.time, let position = packet.position {
            let expected = last.time + (last.duration > 0 ? last.duration : frameTicks)
            shift += expected - shifted
            shifted = expected
            resets.append(TimestampReset(position: position, shift: shift, start: expected))
        }
        last = (shifted, packet.duration)
        return shift
    }
}
