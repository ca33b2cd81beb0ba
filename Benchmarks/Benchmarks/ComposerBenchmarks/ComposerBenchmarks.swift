import Benchmark
import BenchmarkSupport
import Filmstrip

/// Every registered composer filling a strip of 500 thumbnails of 114×64 px (one row,
/// 57 000×64 px, about 14.6 MB of RGBA), plus the memcpy floor: one copy of as many bytes.
/// 500 frames is the seed's case; 114×64 is a 16:9 thumbnail at the default height.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        // A composition takes about a millisecond: microseconds keep the tables' digits meaningful.
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 100,
        thresholds: FilmstripThresholds.composerTolerances
    )

    let thumbnailCount = 500
    let size = PixelSize(width: 114, height: 64)
    // Distinct fills per thumbnail so a composer that copied the wrong source would still
    // touch every byte; the pattern itself does not matter for copy speed.
    let thumbnails = (0..<thumbnailCount).map { index in
        let shade = UInt8(truncatingIfNeeded: index)
        return Image(width: size.width, height: size.height, fill: (shade, shade &+ 85, shade &+ 170, 255))
    }
    let layout = try! StripLayout(thumbnailSizes: Array(repeating: size, count: thumbnailCount))

    // Names without spaces: `thresholds update` writes `Thresholds/TARGET.NAME.p90.json` with
    // spaces turned into `_`, but `thresholds check` (1.38.1) looks for the name unchanged.
    for composer in Composers.all {
        Benchmark("compose_\(composer.name)_500x114x64") { benchmark in
            var strip = layout.makeStrip()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try await composer.compose(thumbnails, layout: layout, into: &strip)
            }
            benchmark.stopMeasurement()
            blackHole(strip)
        }
    }

    // The floor copies an image of the strip's exact byte count. A filled one, so that every
    // source page is really mapped; the bytes themselves do not matter to a copy.
    let floorSource = Image(width: layout.width, height: layout.height, fill: (90, 160, 230, 255))
    Benchmark("compose_memcpy_500x114x64") { benchmark in
        var strip = layout.makeStrip()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try memcpyFloor(from: floorSource, into: &strip)
        }
        benchmark.stopMeasurement()
        blackHole(strip)
    }
}
