@testable import Filmstrip
import Foundation
import Testing

@Suite("PNG writer: files FFmpeg's PNG decoder reads back exactly")
struct PNGWriterTests {
    /// A `width`x`height` image of varied bytes; alpha 255 everywhere unless `transparent`.
    static func pattern(width: Int, height: Int, transparent: Bool) -> Image {
        var image = Image(width: width, height: height)
        var state: UInt32 = 0x9E37_79B9 &* UInt32(width &+ 31 &* height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let offset = y * image.bytesPerRow + x * 4
                // Smooth ramps plus noise, so both the filter and the compressor have work to do.
                image.pixels[offset] = UInt8(truncatingIfNeeded: x &+ Int(state >> 29))
                image.pixels[offset + 1] = UInt8(truncatingIfNeeded: y &* 3 &+ x / 7)
                image.pixels[offset + 2] = UInt8(truncatingIfNeeded: state >> 24)
                image.pixels[offset + 3] = transparent ? UInt8(truncatingIfNeeded: x &* 5 &+ y) : 255
            }
        }
        return image
    }

    /// The single picture of the PNG file at `path`, decoded by FFmpeg, with its pixel format name.
    static func decode(_ path: String) throws -> (image: Image, pixelFormat: String) {
        let input = try InputFile(path: path, containers: InputPolicy.stillImageContainers)
        let decoder = try Decoder(for: input)
        var packet = try Packet()
        var frame = try Frame()
        while try input.read(into: &packet) == .packet {
            _ = decoder.send(packet)
            if case .frame = decoder.receive(into: &frame) { break }
        }
        if !frame.hasPicture {
            decoder.sendEndOfStream()
            _ = decoder.receive(into: &frame)
        }
        let decodedPicture = frame.hasPicture
        try #require(decodedPicture, "\(path): no picture decoded")
        let format = frame.pixelFormatName
        let channels = try #require(["rgb24": 3, "rgba": 4][format], "\(path): unexpected pixel format \(format)")
        var image = Image(width: frame.width, height: frame.height)
        frame.withPlane(0, rows: frame.height) { plane, stride in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    for channel in 0..<4 {
                        image.pixels[y * image.bytesPerRow + x * 4 + channel] = channel < channels
                            ? plane.load(fromByteOffset: y * stride + x * channels + channel, as: UInt8.self) : 255
                    }
                }
            }
        }
        return (image, format)
    }

    /// Writes `pixels` as PNG into a fresh folder and decodes the file.
    static func roundTrip(_ pixels: some PixelRows) throws -> (image: Image, pixelFormat: String) {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("strip.png").path
        try StripWriter.write(pixels, to: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["strip.png"])
        return try decode(path)
    }

    @Test("images decode to exactly their pixels: RGB when opaque, RGBA otherwise", arguments: [
        (1, 1, false), (1, 1, true), (2, 3, false), (7, 5, true), (113, 64, false), (113, 64, true),
        (57_000, 64, false), (57_000, 64, true),
    ])
    func images(width: Int, height: Int, transparent: Bool) throws {
        let image = Self.pattern(width: width, height: height, transparent: transparent)
        let decoded = try Self.roundTrip(image)
        #expect(decoded.pixelFormat == (transparent ? "rgba" : "rgb24"))
        let same = decoded.image.hasSamePixels(as: image)
        #expect(same)
    }

    /// Three different thumbnails, the second shown twice, a gap of 3 and dimming, on `background`.
    static func canvas(_ format: PixelFormat, background: RGBAColor, thumbnailWidth: Int) throws -> StripCanvas {
        let thumbnails = (0..<4).map { Self.pattern(width: thumbnailWidth, height: 9 + $0 % 2, transparent: false) }
        let layout = try StripLayout(thumbnails: thumbnails, gap: 3, background: background,
                                     dimming: Dimming(selectedFromX: 1, selectedToX: 2 * thumbnailWidth + 3))
        let canvas = try StripCanvas(layout: layout, pixelFormat: format)
        for slot in [0, 1, 3] { canvas.place(thumbnails[slot], inSlot: slot) }
        canvas.duplicate(slot: 1, into: 2)
        canvas.dim(layout.dimming)
        return canvas
    }

    @Test("an RGB canvas holds the same strip as an RGBA one and writes it exactly", arguments: [1, 4, 57])
    func canvases(thumbnailWidth: Int) throws {
        let background = RGBAColor(red: 200, green: 30, blue: 90)
        let rgb = try Self.canvas(.rgb, background: background, thumbnailWidth: thumbnailWidth)
        let rgba = try Self.canvas(.rgba, background: background, thumbnailWidth: thumbnailWidth)
        #expect(rgb.bytesPerRow == PixelFormat.rgb.alignedRowBytes(forWidth: rgb.width))
        let expected = rgba.rgbaImage()
        let sameStrip = rgb.rgbaImage() == expected
        #expect(sameStrip)
        #expect(rgb.isOpaque && rgba.isOpaque)
        let decoded = try Self.roundTrip(rgb)
        #expect(decoded.pixelFormat == "rgb24")
        let sameFile = decoded.image.hasSamePixels(as: expected)
        #expect(sameFile)
    }

    @Test("a canvas with a transparent background is written as RGBA")
    func transparentCanvas() throws {
        let canvas = try Self.canvas(.rgba, background: RGBAColor(red: 10, green: 200, blue: 40, alpha: 128), thumbnailWidth: 11)
        #expect(!canvas.isOpaque)
        let decoded = try Self.roundTrip(canvas)
        #expect(decoded.pixelFormat == "rgba")
        let same = decoded.image.hasSamePixels(as: canvas.rgbaImage())
        #expect(same)
    }

    @Test("raw output of an RGB canvas is its RGBA pixels without padding")
    func rawCanvas() throws {
        let canvas = try Self.canvas(.rgb, background: .black, thumbnailWidth: 5)
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("strip.rgba").path
        try StripWriter.write(canvas, to: path)
        let image = canvas.rgbaImage()
        let expected = (0..<image.height).flatMap { row in image.pixels[row * image.bytesPerRow..<row * image.bytesPerRow + image.width * 4] }
        let same = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected
        #expect(same)
    }

    @Test("a file dropped before commit leaves nothing; a JPEG it cannot encode is never opened")
    func failedWrite() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("strip.png").path
        do {
            let file = try AtomicFile(path: path)
            try file.write([1, 2, 3])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(throws: OutputError.self) {
            try StripWriter.write(Self.pattern(width: 70_000, height: 1, transparent: false), to: folder.appendingPathComponent("wide.jpg").path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
