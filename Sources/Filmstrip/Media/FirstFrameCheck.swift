import CFFmpeg

/// Decodes and scales the first good frame of a video, the way `strip` does for every
/// thumbnail, so that `info` reports a file it can describe but nothing can be drawn from
/// (a damaged codec header, data that never decodes) instead of calling it fine.
public enum FirstFrameCheck {
    /// Packets read looking for a first frame before giving up: a decoder that has taken this
    /// many without a picture is not going to produce one (H.264 needs at most 16 of delay).
    static let packetLimit = 512

    /// Throws the `MediaError` a strip of `path` would fail with when no frame decodes, within
    /// `limits` (the caller's, so that a probe and this check may share one deadline).
    public static func run(path: String, limits: InputLimits = InputLimits()) throws(MediaError) {
        let input = try InputFile(path: path, analyzeStreams: false, limits: limits)
        let decoder = try Decoder(for: input)
        var packet = try Packet.reading(path)
        var frame = try Frame.decoding(path)
        var scaler = Scaler()
        var lastDamage: (code: Int32, call: String)?
        var packets = 0, damaged = 0
        var sentEndOfStream = false
        decoding: while true {
            switch decoder.receive(into: &frame) {
            case .frame:
                if frame.isCorrupt { continue }
                var image = Image(width: 16, height: 16)
                do {
                    try scaler.scale(frame, into: &image)
                } catch {
                    throw .ffmpeg(error, file: path)
                }
                return
            case .damaged(let code):
                lastDamage = (code, "avcodec_receive_frame")
                damaged += 1
                if damaged > packetLimit { break decoding }
            case .endOfStream:
                break decoding
            case .needsInput:
                if sentEndOfStream { break decoding }
                if packets < packetLimit, try input.read(into: &packet) == .packet {
                    packets += 1
                    if case .damaged(let code) = decoder.send(packet) { lastDamage = (code, "avcodec_send_packet") }
                } else {
                    decoder.sendEndOfStream()
                    sentEndOfStream = true
                }
            }
        }
        if let lastDamage {
            throw MediaError(file: path, reason: .firstFrameFails(FFmpegError(code: lastDamage.code, call: lastDamage.call, file: path)))
        }
        throw MediaError(file: path, reason: .nothingDecodes)
    }
}
