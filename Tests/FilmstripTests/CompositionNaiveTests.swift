import Testing
@testable import Filmstrip

/// `naive` against values worked out by hand, so the conformance suite compares the
/// other composers to something known to be right.
@Suite("Composition naive reference")
struct CompositionNaiveTests {
    // Two thumbnails, 4x2 and 2x1, gap 1: cells are 4x2, the strip 9x2, and the small
    // thumbnail sits at x = 5 + (4 - 2) / 2 = 6, y = (2 - 1) / 2 = 0.
    let sizes = [PixelSize(width: 4, height: 2), PixelSize(width: 2, height: 1)]
    let background = RGBAColor(red: 1, green: 2, blue: 3, alpha: 4)

    func thumbnails() -> [Image] {
        [Image(width: 4, height: 2, fill: (10, 20, 30, 255)), Image(width: 2, height: 1, fill: (200, 100, 0, 77))]
    }

    @Test func backgroundAndCentring() async throws {
        let layout = try StripLayout(thumbnailSizes: sizes, gap: 1, background: background)
        #expect(layout.width == 9 && layout.height == 2)
        #expect(layout.destinations == [PixelRect(x: 0, y: 0, width: 4, height: 2), PixelRect(x: 6, y: 0, width: 2, height: 1)])
        let strip = try await CompositionFixtures.compose(NaiveComposer(), thumbnails(), layout)
        #expect(strip.pixel(x: 0, y: 1) == (10, 20, 30, 255))
        #expect(strip.pixel(x: 4, y: 0) == (1, 2, 3, 4))   // gap
        #expect(strip.pixel(x: 5, y: 0) == (1, 2, 3, 4))   // left margin of the small thumbnail
        #expect(strip.pixel(x: 6, y: 0) == (200, 100, 0, 77))
        #expect(strip.pixel(x: 7, y: 0) == (200, 100, 0, 77))
        #expect(strip.pixel(x: 8, y: 0) == (1, 2, 3, 4))   // right margin
        #expect(strip.pixel(x: 6, y: 1) == (1, 2, 3, 4))   // below the small thumbnail
        #expect(CompositionFixtures.paddingIsZero(strip))
    }

    @Test func dimmingFormula() async throws {
        let layout = try StripLayout(thumbnailSizes: sizes, gap: 1, background: background,
                                     dimming: Dimming(selectedFromX: 0, selectedToX: 7))
        let strip = try await CompositionFixtures.compose(NaiveComposer(), thumbnails(), layout)
        #expect(strip.pixel(x: 6, y: 0) == (200, 100, 0, 77))   // selected: untouched
        // (200 * 153 + 128) >> 8 = 120, (100 * 153 + 128) >> 8 = 60; alpha kept.
        #expect(strip.pixel(x: 7, y: 0) == (120, 60, 0, 77))
        // Background (1, 2, 3): (153 + 128) >> 8 = 1, (306 + 128) >> 8 = 1, (459 + 128) >> 8 = 2.
        #expect(strip.pixel(x: 8, y: 1) == (1, 1, 2, 4))
        #expect(strip.pixel(x: 0, y: 0) == (10, 20, 30, 255))
    }

    @Test func formulaEndpoints() {
        for channel in UInt8.min...UInt8.max {
            #expect(Dimming.dim(channel, factor256: 256) == channel)
            #expect(Dimming.dim(channel, factor256: 0) == 0)
            #expect(Dimming.dim(channel, factor256: 153) == UInt8((Int(channel) * 153 + 128) / 256))
        }
        #expect(Dimming.defaultFactor256 == 153)
    }
}
