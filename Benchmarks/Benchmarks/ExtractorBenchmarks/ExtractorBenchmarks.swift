import Benchmark
import BenchmarkSupport
import Filmstrip
import FilmstripFixtures

/// Every registered extractor taking 10 thumbnails (64 px high, exact accuracy) from the
/// quick suite's 3 s 320×180 H.264 reference video, generated into the fixture cache on
/// first use (`$FILMSTRIP_FIXTURES` or `fixtures-cache/` under the working directory).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 50,
        thresholds: FilmstripThresholds.tolerances
    )

    let videoID = "h264-180p-3s"
    let thumbnailCount = 10
    guard let spec = ReferenceSuite.spec(id: videoID) else { fatalError("no reference video \(videoID)") }

    // No spaces in names, so that `thresholds check` finds the files `thresholds update` wrote.
    for extractor in Extractors.all {
        Benchmark("extract_\(extractor.name)_\(videoID)_N=\(thumbnailCount)") { benchmark in
            // Generating and probing the video is setup, not extraction: both stay outside the measurement.
            let path = try ReferenceVideoCache().ensure(spec).url.path
            let probe = try VideoProbe(path: path)
            let request = try ExtractionRequest(path: path, probe: probe,
                                                plan: SamplePlan(probe: probe, count: thumbnailCount))
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try await extractor.thumbnails(for: request))
            }
            benchmark.stopMeasurement()
        }
    }
}
