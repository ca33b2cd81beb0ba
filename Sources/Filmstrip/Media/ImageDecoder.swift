/// Reads a still image file (JPEG, WebP, PNG: anything FFmpeg's image demuxers open) into
/// an RGBA `Image` at its own size: how tests and the sprite benchmark look at written sheets.
public enum ImageDecoder {
    /// Decodes the first picture of the image at `path` into an RGBA image; throws `MediaError` when it is not an image
    /// FFmpeg reads.
    public static func decode(path: String) throws -> Image {
        var decoded: Image?
        let input = try InputFile(path: path, containers: InputPolicy.stillImageContainers)
        let decoder = try Decoder(for: input)
        var packet = try Packet()
        var frame = try Frame()
        var scaler = Scaler(filter: .point)
        func drain() throws {
            while decoded == nil, case .frame = decoder.receive(into: &frame) {
                var image = Image(width: frame.width, height: frame.height)
                try scaler.scale(frame, into: &image)
                decoded = image
            }
        }
        while decoded == nil, try input.read(into: &packet) == .packet {
            while decoder.send(packet) == .full { try drain() }
            try drain()
        }
        if decoded == nil {
            decoder.sendEndOfStream()
            try drain()
        }
        guard let decoded else { throw MediaError(file: path, reason: .nothingDecodes) }
        return decoded
    }
}
