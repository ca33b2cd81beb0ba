import CKernels
import Testing
@testable import Filmstrip

/// The `stream` kernel's own edge cases: runs that start and end at every position within
/// a 64-byte line, lines shared by two runs, by two batches of cells or by two rows, and
/// both instruction sets.
@Suite("Composition stream kernel")
struct CompositionStreamTests {
    static let teal = RGBAColor(red: 10, green: 200, blue: 180, alpha: 255)

    /// Layouts whose runs are shorter than a line, exactly a line, or just longer; one-row
    /// strips; long background and dimmed runs that take the whole-line paths; cells taller
    /// than the kernel's band of rows.
    static let scenarios: [CompositionScenario] = [
        .init(name: "one 1x1 thumbnail", sizes: [PixelSize(width: 1, height: 1)],
              columns: nil, gap: 0, background: teal, dimming: nil),
        .init(name: "one 3x1 thumbnail", sizes: [PixelSize(width: 3, height: 1)],
              columns: nil, gap: 0, background: teal, dimming: Dimming(selectedFromX: 1, selectedToX: 2)),
        .init(name: "one 17x2 thumbnail", sizes: [PixelSize(width: 17, height: 2)],
              columns: nil, gap: 0, background: teal, dimming: Dimming(selectedFromX: 5, selectedToX: 16, factor256: 99)),
        .init(name: "1-row strip of 1 px thumbnails", sizes: Array(repeating: PixelSize(width: 1, height: 1), count: 97),
              columns: nil, gap: 0, background: teal, dimming: Dimming(selectedFromX: 13, selectedToX: 50)),
        .init(name: "1-row strip, widths 1 to 33", sizes: (1...33).map { PixelSize(width: $0, height: 1) },
              columns: nil, gap: 1, background: teal, dimming: Dimming(selectedFromX: 40, selectedToX: 300, factor256: 200)),
        .init(name: "runs of 15, 16 and 17 px (60, 64, 68 bytes)",
              sizes: (0..<24).map { PixelSize(width: 15 + $0 % 3, height: 2 + $0 % 2) },
              columns: nil, gap: 0, background: teal, dimming: nil),
        .init(name: "long gaps and dimmed background", sizes: Array(repeating: PixelSize(width: 3, height: 2), count: 9),
              columns: nil, gap: 45, background: RGBAColor(red: 250, green: 20, blue: 30, alpha: 128),
              dimming: Dimming(selectedFromX: 101, selectedToX: 203, factor256: 77)),
        .init(name: "cells taller than a band of 64 rows", sizes: [PixelSize(width: 3, height: 150), PixelSize(width: 5, height: 131),
                                                                   PixelSize(width: 4, height: 70)],
              columns: 2, gap: 2, background: teal, dimming: Dimming(selectedFromX: 2, selectedToX: 7)),
        .init(name: "wide dimmed thumbnails", sizes: Array(repeating: PixelSize(width: 131, height: 3), count: 5),
              columns: 2, gap: 3, background: teal, dimming: Dimming(selectedFromX: 7, selectedToX: 7)),
    ]

    static let composers: [ComposerCase] = [
        ComposerCase(label: "stream", composer: StreamComposer()),
        ComposerCase(label: "stream without AVX2", composer: StreamComposer(allowsAVX2: false)),
        ComposerCase(label: "stream 1 cell per call", composer: StreamComposer(cellsPerCall: 1)),
        ComposerCase(label: "stream 2 cells per call, no AVX2", composer: StreamComposer(allowsAVX2: false, cellsPerCall: 2)),
    ]

    @Test("matches naive byte for byte", arguments: composers, scenarios)
    func matchesNaive(_ subject: ComposerCase, _ scenario: CompositionScenario) async throws {
        let (thumbnails, layout) = try scenario.make()
        let expected = try await CompositionFixtures.compose(NaiveComposer(), thumbnails, layout)
        let strip = try await CompositionFixtures.compose(subject.composer, thumbnails, layout)
        #expect(strip.pixels == expected.pixels)
    }

    /// Runs the kernel on a strip that starts `shift` bytes into a buffer of guard bytes,
    /// for every shift within a line: the strip's bytes must match `naive`, and not one byte
    /// outside them (before, after, row padding) may change, whatever the line alignment.
    @Test("writes only the strip's bytes at any alignment", arguments: [true, false])
    func keepsNeighbouringBytes(allowAVX2: Bool) async throws {
        let guardByte: UInt8 = 0xA5
        for scenario in [Self.scenarios[1], Self.scenarios[4], Self.scenarios[6], CompositionScenario.all[4]] {
            let (thumbnails, layout) = try scenario.make()
            let expected = try await CompositionFixtures.compose(NaiveComposer(), thumbnails, layout)
            for shift in 0..<64 {
                var strip = layout.makeStrip()
                var buffer = [UInt8](repeating: guardByte, count: shift + strip.pixels.count + 64)
                try CellKernel.compose(thumbnails, layout: layout, into: &strip, cellsPerCall: 3) { _, geometry, destinations, sources, strides, first, count in
                    buffer.withUnsafeMutableBufferPointer { bytes in
                        filmstrip_stream_compose_cells(bytes.baseAddress! + shift, geometry, destinations, sources, strides,
                                                       first, count, allowAVX2 ? 1 : 0)
                    }
                }
                let visible = layout.width * Image.bytesPerPixel
                var outside = Array(buffer[..<shift]) + buffer[(shift + strip.pixels.count)...]
                var matches = true
                for row in 0..<layout.height {
                    let start = shift + row * strip.bytesPerRow
                    matches = matches && buffer[start..<start + visible] == expected.pixels[row * strip.bytesPerRow..<row * strip.bytesPerRow + visible]
                    outside += buffer[start + visible..<start + strip.bytesPerRow]
                }
                #expect(matches, "\(scenario.name), shifted by \(shift) bytes")
                #expect(outside.allSatisfy { $0 == guardByte }, "\(scenario.name), shifted by \(shift) bytes")
            }
        }
    }
}
