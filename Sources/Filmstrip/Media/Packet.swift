import CFFmpeg

/// Owns one `AVPacket`, reused across reads: each read replaces the previous payload.
public struct Packet: ~Copyable {
    let pointer: UnsafeMutablePointer<AVPacket>

    /// An empty packet that reads fill.
    /// - Throws: `FFmpegError` (out of memory) when not even the packet's header can be allocated.
    public init() throws(FFmpegError) {
        guard let packet = av_packet_alloc() else { throw .outOfMemory(in: "av_packet_alloc") }
        pointer = packet
    }

    /// An empty packet for reading `path`; out of memory is an error about that file.
    static func reading(_ path: String) throws(MediaError) -> Packet {
        do { return try Packet() } catch { throw .ffmpeg(error, file: path) }
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// Presentation time in the stream's time base, falling back to the decode time when absent.
    public var pts: Int64? {
        let nopts = filmstrip_nopts_value()
        if pointer.pointee.pts != nopts { return pointer.pointee.pts }
        if pointer.pointee.dts != nopts { return pointer.pointee.dts }
        return nil
    }
    /// True when the packet carries its own presentation time (`pts` is not the decode time standing in).
    public var hasPresentationTime: Bool { pointer.pointee.pts != filmstrip_nopts_value() }
    /// Decode time in the stream's time base, or nil when the container gave none.
    public var decodeTime: Int64? { pointer.pointee.dts == filmstrip_nopts_value() ? nil : pointer.pointee.dts }
    /// How long the packet's frame is shown, in the stream's time base (0 when unknown).
    public var duration: Int64 { pointer.pointee.duration }
    /// Whether the demuxer marked the packet as starting a keyframe.
    public var isKeyframe: Bool { pointer.pointee.flags & filmstrip_packet_flag_key() != 0 }
    /// Whether the demuxer flagged the packet as damaged (`AV_PKT_FLAG_CORRUPT`).
    public var isCorrupt: Bool { pointer.pointee.flags & filmstrip_packet_flag_corrupt() != 0 }
    /// Whether the packet's frame is decoded but not shown (`AV_PKT_FLAG_DISCARD`): MP4's demuxer
    /// marks so the frames an edit list cuts off, such as the pre-roll from a keyframe before
    /// the edit's start; decoders drop their pictures, as players do.
    public var isDiscarded: Bool { pointer.pointee.flags & filmstrip_packet_flag_discard() != 0 }
    /// Payload size in bytes.
    public var size: Int { Int(pointer.pointee.size) }
    /// Byte position in the file, when the demuxer knows it.
    public var position: Int64? { pointer.pointee.pos >= 0 ? pointer.pointee.pos : nil }

    func unreference() { av_packet_unref(pointer) }

    /// Sets the presentation time the decoder passes on to the frame this packet makes, where
    /// the caller knows it and the container did not say (`VideoProbe.displayTimesByDecodeTime`).
    func stampPresentationTime(_ pts: Int64) { pointer.pointee.pts = pts }
}
