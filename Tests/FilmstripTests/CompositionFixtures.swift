@testable import Filmstrip

/// Deterministic test images for the composition tests.
enum CompositionFixtures {
    /// An image whose every byte, row padding included, comes from a xorshift generator
    /// seeded with `seed`: distinct per thumbnail, and garbage in the padding catches a
    /// composer that copies whole rows.
    static func noise(width: Int, height: Int, seed: UInt64) -> Image {
        var image = Image(width: width, height: height)
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        for index in image.pixels.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            image.pixels[index] = UInt8(truncatingIfNeeded: state >> 32)
        }
        return image
    }

    static func thumbnails(_ sizes: [PixelSize], seed: UInt64 = 1) -> [Image] {
        sizes.enumerated().map { index, size in
            noise(width: size.width, height: size.height, seed: seed &+ UInt64(index) &* 7919)
        }
    }

    /// True when every byte past the visible pixels of each row is zero.
    static func paddingIsZero(_ image: Image) -> Bool {
        let visible = image.width * Image.bytesPerPixel
        return (0..<image.height).allSatisfy { row in
            image.pixels[row * image.bytesPerRow + visible..<(row + 1) * image.bytesPerRow].allSatisfy { $0 == 0 }
        }
    }

    static func compose(_ composer: any StripComposer, _ thumbnails: [Image], _ layout: StripLayout) async throws -> Image {
        var strip = layout.makeStrip()
        try await composer.compose(thumbnails, layout: layout, into: &strip)
        return strip
    }
}
