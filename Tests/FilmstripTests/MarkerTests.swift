import Filmstrip
import FilmstripFixtures
import Testing

@Suite("Frame-index marker")
struct MarkerTests {
    @Test("every index survives the bit layout", arguments: [0, 1, 2, 255, 256, 4095, 7319, 65535])
    func bitsRoundTrip(index: Int) {
        var image = Image(width: 114, height: 64)
        paintMarker(index, into: &image)
        #expect(FrameIndexMarker.read(from: image) == index)
    }

    @Test func blankPictureHasNoIndex() {
        #expect(FrameIndexMarker.read(from: Image(width: 114, height: 64, fill: (0, 0, 0, 255))) == nil)
        #expect(FrameIndexMarker.read(from: Image(width: 114, height: 64, fill: (128, 128, 128, 255))) == nil)
    }

    @Test("encode, decode, scale to 64 px high, read back every frame's index",
          arguments: ["h264-180p-3s", "hevc-180p-2s", "vp9-180p-2s", "av1-180p-2s", "mpeg4-180p-2s", "vp9-179p-2s-odd"])
    func roundTripThroughCodec(id: String) throws {
        let spec = TestSupport.spec(id)
        var indices: [Int?] = []
        try TestSupport.forEachFrame(of: try TestSupport.video(id), scaledToHeight: 64) { _, thumbnail in
            indices.append(FrameIndexMarker.read(from: thumbnail))
        }
        #expect(indices == (0..<spec.frameCount).map { Optional($0) })
    }

    @Test func fullSizeFrameReadsToo() throws {
        var first: Int?
        try TestSupport.forEachFrame(of: try TestSupport.video("h264-180p-3s"), scaledToHeight: 180) { _, image in
            if first == nil { first = FrameIndexMarker.read(from: image) }
        }
        #expect(first == 0)
    }

    private func paintMarker(_ index: Int, into image: inout Image) {
        let bits = FrameIndexMarker.bits(for: index)
        let bandTop = image.height * 3 / 4
        for y in bandTop..<image.height {
            for x in 0..<image.width {
                let row = (y - bandTop) * 2 / (image.height - bandTop), column = x * 10 / image.width
                let value: UInt8 = bits[row * 10 + column] ? 235 : 16
                let offset = y * image.bytesPerRow + x * 4
                image.pixels[offset] = value; image.pixels[offset + 1] = value
                image.pixels[offset + 2] = value; image.pixels[offset + 3] = 255
            }
        }
    }
}
