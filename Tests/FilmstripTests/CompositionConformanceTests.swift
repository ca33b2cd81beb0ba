import FilmstripOpenMP
import Testing
@testable import Filmstrip

/// One composition problem every composer must solve exactly like `naive`.
struct CompositionScenario: Sendable, CustomTestStringConvertible {
    let name: String
    let sizes: [PixelSize]
    let columns: Int?
    let gap: Int
    let background: RGBAColor
    let dimming: Dimming?

    var testDescription: String { name }

    func make() throws -> (thumbnails: [Image], layout: StripLayout) {
        let layout = try StripLayout(thumbnailSizes: sizes, columns: columns, gap: gap,
                                     background: background, dimming: dimming)
        return (CompositionFixtures.thumbnails(sizes, seed: UInt64(name.utf8.count)), layout)
    }

    static func sizes(_ pairs: [(Int, Int)]) -> [PixelSize] { pairs.map { PixelSize(width: $0.0, height: $0.1) } }

    static let teal = RGBAColor(red: 10, green: 200, blue: 180, alpha: 255)

    static let all: [CompositionScenario] = [
        .init(name: "500 equal 114x64", sizes: Array(repeating: PixelSize(width: 114, height: 64), count: 500),
              columns: nil, gap: 0, background: .black, dimming: nil),
        .init(name: "unequal sizes centred", sizes: sizes([(10, 6), (13, 9), (8, 8), (13, 5), (1, 1), (12, 9), (3, 7)]),
              columns: nil, gap: 0, background: teal, dimming: nil),
        .init(name: "gaps and background", sizes: Array(repeating: PixelSize(width: 17, height: 11), count: 20),
              columns: nil, gap: 3, background: RGBAColor(red: 250, green: 20, blue: 30, alpha: 128), dimming: nil),
        .init(name: "grid 5 columns, 23 thumbnails", sizes: (0..<23).map { PixelSize(width: 9 + $0 % 4, height: 5 + $0 % 3) },
              columns: 5, gap: 2, background: teal, dimming: nil),
        .init(name: "dimming mid-thumbnail", sizes: Array(repeating: PixelSize(width: 40, height: 24), count: 30),
              columns: nil, gap: 1, background: teal, dimming: Dimming(selectedFromX: 3 * 41 + 17, selectedToX: 17 * 41 + 29)),
        .init(name: "dimmed grid, unequal, factor 0", sizes: (0..<11).map { PixelSize(width: 5 + $0 % 5, height: 3 + $0 % 4) },
              columns: 4, gap: 1, background: teal, dimming: Dimming(selectedFromX: 7, selectedToX: 23, factor256: 0)),
        .init(name: "tiny 1x1 grid", sizes: Array(repeating: PixelSize(width: 1, height: 1), count: 9),
              columns: 4, gap: 1, background: teal, dimming: Dimming(selectedFromX: 2, selectedToX: 5)),
        .init(name: "odd row widths", sizes: sizes([(1, 5), (3, 5), (5, 5), (7, 5), (15, 5), (17, 5), (31, 5), (33, 5)]),
              columns: nil, gap: 0, background: teal, dimming: Dimming(selectedFromX: 13, selectedToX: 71, factor256: 200)),
        .init(name: "wide rows, odd widths, gaps", sizes: (0..<12).map { PixelSize(width: 61 + 2 * $0, height: 4 + $0 % 2) },
              columns: nil, gap: 5, background: teal, dimming: Dimming(selectedFromX: 100, selectedToX: 601, factor256: 77)),
        .init(name: "everything dimmed", sizes: Array(repeating: PixelSize(width: 19, height: 3), count: 6),
              columns: nil, gap: 2, background: teal, dimming: Dimming(selectedFromX: 50, selectedToX: 50)),
        .init(name: "selection beyond the strip", sizes: [PixelSize(width: 300, height: 7)],
              columns: nil, gap: 0, background: teal, dimming: Dimming(selectedFromX: -20, selectedToX: 5000)),
    ]
}

/// A composer under test with the configuration shown in the test name.
struct ComposerCase: Sendable, CustomTestStringConvertible {
    let label: String
    let composer: any StripComposer

    var testDescription: String { label }

    /// Every composer (the library's and the OpenMP one), plus non-default settings that move band and tile edges.
    static let all: [ComposerCase] = (Composers.builtIn + [OpenMPComposer()]).map { ComposerCase(label: $0.name, composer: $0) } + [
        ComposerCase(label: "tiled 3 rows x 100 bytes", composer: TiledComposer(tileRows: 3, tileBytes: 100)),
        ComposerCase(label: "tiled 1 row x 4 bytes", composer: TiledComposer(tileRows: 1, tileBytes: 4)),
        ComposerCase(label: "taskgroup 3 workers", composer: TaskGroupComposer(workers: 3, bandsPerWorker: 1)),
        ComposerCase(label: "taskgroup 1 worker", composer: TaskGroupComposer(workers: 1)),
        ComposerCase(label: "openmp 1 thread", composer: OpenMPComposer(threads: 1)),
        ComposerCase(label: "openmp 3 threads", composer: OpenMPComposer(threads: 3)),
        ComposerCase(label: "stream without AVX2", composer: StreamComposer(allowsAVX2: false)),
        ComposerCase(label: "stream 3 cells per call", composer: StreamComposer(cellsPerCall: 3)),
    ]
}

@Suite("Composition conformance")
struct CompositionConformanceTests {
    @Test("every composer matches naive byte for byte", arguments: ComposerCase.all, CompositionScenario.all)
    func matchesNaive(_ subject: ComposerCase, _ scenario: CompositionScenario) async throws {
        let (thumbnails, layout) = try scenario.make()
        let expected = try await CompositionFixtures.compose(NaiveComposer(), thumbnails, layout)
        let strip = try await CompositionFixtures.compose(subject.composer, thumbnails, layout)
        #expect(strip.width == layout.width && strip.height == layout.height)
        #expect(strip.hasSamePixels(as: expected))
        #expect(CompositionFixtures.paddingIsZero(strip))
        #expect(strip.pixels == expected.pixels)
    }

    @Test("composing twice into the same strip gives the same bytes", arguments: ComposerCase.all)
    func reusesStrip(_ subject: ComposerCase) async throws {
        let (thumbnails, layout) = try CompositionScenario.all[4].make()
        var strip = layout.makeStrip()
        try await subject.composer.compose(thumbnails, layout: layout, into: &strip)
        let first = strip
        try await subject.composer.compose(thumbnails, layout: layout, into: &strip)
        #expect(strip == first)
    }

    @Test("mismatched inputs throw", arguments: ComposerCase.all)
    func rejectsMismatches(_ subject: ComposerCase) async throws {
        let sizes = [PixelSize(width: 4, height: 2), PixelSize(width: 2, height: 1)]
        let layout = try StripLayout(thumbnailSizes: sizes)
        let thumbnails = CompositionFixtures.thumbnails(sizes)
        var strip = layout.makeStrip()
        await #expect(throws: CompositionError.thumbnailCount(expected: 2, actual: 1)) {
            try await subject.composer.compose(Array(thumbnails.prefix(1)), layout: layout, into: &strip)
        }
        await #expect(throws: CompositionError.self) {
            try await subject.composer.compose(thumbnails.reversed(), layout: layout, into: &strip)
        }
        var wrongStrip = Image(width: layout.width + 1, height: layout.height)
        await #expect(throws: CompositionError.self) {
            try await subject.composer.compose(thumbnails, layout: layout, into: &wrongStrip)
        }
    }
}
