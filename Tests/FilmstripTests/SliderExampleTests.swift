import Filmstrip
import Testing

// The DocC article "Driving a trimming slider" shows this code; it is kept here so it compiles and runs.

/// A slider's row of thumbnails, as an app's view model would keep it.
actor SliderRow {
    var shown: [Int: (image: Image, final: Bool)] = [:]

    func show(_ image: Image, inSlot slot: Int, final: Bool) { shown[slot] = (image, final) }
}

/// Fills `row` as images arrive, then follows a drag: each step supersedes the last.
func showStrip(of path: String, drag: [Rational], row: SliderRow) async throws {
    let generator = try ThumbnailGenerator(
        path: path, options: ThumbnailGeneratorOptions(strategy: CoarseThenExactStrategy()))
    defer { generator.close() }

    // Open the clip: 20 thumbnails across it, each fitted to 160×90, upright.
    let opening = ThumbnailRequest(times: generator.evenlySpacedTimes(count: 20),
                                   box: .fitting(width: 160, height: 90))
    for try await thumbnail in try generator.thumbnails(for: opening) {
        // Coarse images (the nearest keyframe) come first; the exact frame replaces each.
        await row.show(thumbnail.image, inSlot: thumbnail.slot, final: thumbnail.isFinal)
    }

    // A drag: every step's request supersedes the one before, whose decoders stop within a
    // packet and go back to the pool; none of its images arrive after this point.
    var latest: ThumbnailResults?
    for handle in drag {
        latest = try generator.thumbnails(for: ThumbnailRequest(times: [handle], box: .height(90)),
                                          superseding: true)
    }
    // Only the last position's image is shown.
    if let latest {
        for try await thumbnail in latest where thumbnail.isFinal {
            await row.show(thumbnail.image, inSlot: 0, final: true)
        }
    }
}

@Suite("DocC example: driving a trimming slider")
struct SliderExampleTests {
    @Test("the article's example fills the row, then shows the drag's last position")
    func example() async throws {
        let row = SliderRow()
        let drag = (1...20).map { Rational(Int64($0), 2) }
        try await showStrip(of: TestSupport.video("h264-360p-20s"), drag: drag, row: row)
        let shown = await row.shown
        #expect(shown.count == 20)
        #expect(shown.values.allSatisfy { $0.final })
        #expect(shown[0]?.image.height == 90)
    }
}
