import CKernels
import COpenMPKernels
import FilmstripOpenMP
import Testing
@testable import Filmstrip

@Suite("Composition registry, floor and OpenMP kernel")
struct CompositionRegistryTests {
    @Test func registryListsEveryComposerOnce() {
        // Derived from the registry, so adding a composer is one file and one registry line.
        let builtIn = Composers.builtIn.map(\.name)
        #expect(!builtIn.isEmpty && Set(builtIn).count == builtIn.count)
        #expect(!builtIn.contains(StripDestination.canvasName))
        // The tool's registration, twice: the OpenMP composer is listed once, after the library's.
        FilmstripOpenMP.register()
        FilmstripOpenMP.register()
        let names = Composers.names
        #expect(names == builtIn + ["openmp"])
        #expect(Composers.named("openmp") is OpenMPComposer)
        #expect(Set(names).count == names.count)
        #expect(Composers.named("simd")?.name == "simd")
        // `fused` is the canvas destination, not a composer; the name still selects it.
        #expect(Composers.named(StripDestination.canvasName) == nil)
        #expect(StripDestination.named("fused") == .canvas && StripDestination.canvas.name == "fused")
        #expect(Composers.named("magic") == nil)
        #expect(Composers.all.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") })
    }

    @Test func memcpyFloorCopiesEveryByte() throws {
        let source = CompositionFixtures.noise(width: 33, height: 7, seed: 5)
        var strip = Image(width: 33, height: 7)
        try memcpyFloor(from: source, into: &strip)
        #expect(strip.pixels == source.pixels)
        var other = Image(width: 34, height: 9)
        #expect(throws: CompositionError.self) { try memcpyFloor(from: source, into: &other) }
    }

    /// Calls the C kernel directly: two 3x2 thumbnails with a 1-pixel gap, only the
    /// second cell composed, columns from 5 on dimmed by half.
    @Test func openMPKernelComposesCells() {
        #expect(filmstrip_openmp_max_threads() > 0)
        let thumbnail = Image(width: 3, height: 2, fill: (100, 50, 201, 9))
        var strip = Image(width: 7, height: 2)
        var geometry = filmstrip_strip_geometry(
            width: 7, height: 2, bytesPerRow: strip.bytesPerRow, cellWidth: 3, cellHeight: 2, gap: 1,
            gridColumns: 2, thumbnailCount: 2, background: RGBAColor(red: 7, green: 7, blue: 7).word,
            undimmedFromX: 0, undimmedToX: 5, factor256: 128)
        let destinations: [Int32] = [0, 0, 3, 2, 4, 0, 3, 2]
        let strides = [thumbnail.bytesPerRow, thumbnail.bytesPerRow]
        thumbnail.pixels.withUnsafeBufferPointer { source in
            strip.pixels.withUnsafeMutableBufferPointer { destination in
                let sources: [UnsafePointer<UInt8>?] = [source.baseAddress]
                filmstrip_openmp_compose_cells(destination.baseAddress!, &geometry, destinations, sources, strides,
                                               1, 1, 2)
            }
        }
        #expect(strip.pixel(x: 0, y: 0) == (0, 0, 0, 0))   // the first cell (and its gap) was not asked for
        #expect(strip.pixel(x: 3, y: 1) == (0, 0, 0, 0))
        #expect(strip.pixel(x: 4, y: 1) == (100, 50, 201, 9))
        // (100 * 128 + 128) >> 8 = 50, (50 * 128 + 128) >> 8 = 25, (201 * 128 + 128) >> 8 = 101.
        #expect(strip.pixel(x: 5, y: 0) == (50, 25, 101, 9))
        #expect(strip.pixel(x: 6, y: 1) == (50, 25, 101, 9))
    }
}
