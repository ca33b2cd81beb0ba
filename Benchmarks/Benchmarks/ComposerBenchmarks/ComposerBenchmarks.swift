import Benchmark
import Filmstrip

/// Every registered composer filling a strip of 500 thumbnails of 114×64 px (one row,
/// 57 000×64 px, about 14.6 MB of RGBA), plus the memcpy floor: one copy of as many bytes.
/// 500 frames is the seed's case; 114×64 is a 16:9 thumbnail at the default height.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 100
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

    for composer in Composers.all {
        Benchmark("compose \(composer.name) 500x114x64") { benchmark in
            var strip = layout.makeStrip()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try await composer.compose(thumbnails, layout: layout, into: &strip)
            }
            benchmark.stopMeasurement()
            blackHole(strip)
        }
    }

    Benchmark("compose memcpy 500x114x64") { benchmark in
        var strip = layout.makeStrip()
        // The floor copies a finished strip, so the source has the strip's exact byte count.
        var source = layout.makeStrip()
        try await Composers.all[0].compose(thumbnails, layout: layout, into: &source)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try memcpyFloor(from: source, into: &strip)
        }
        benchmark.stopMeasurement()
        blackHole(strip)
    }
}
