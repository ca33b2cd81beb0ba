import Filmstrip
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults

struct BenchRunnerTests {
    @Test(arguments: [(7, 3), (23, 6), (1, 5), (5, 1)])
    func everyRoundRunsEveryConfigurationOnceInRotatedOrder(count: Int, rounds: Int) {
        let orders = (0..<rounds).map { BenchSession.order(count: count, round: $0, rounds: rounds) }
        for order in orders { #expect(order.sorted() == Array(0..<count)) }
        if count > 1, rounds > 1 { #expect(orders[0].first != orders[1].first) }
    }

    @Test func checksumCoversVisiblePixelsOnly() {
        var image = Image(width: 3, height: 2)
        let before = StripChecksum.of(image)
        image.pixels[image.bytesPerRow - 1] = 99 // row padding
        #expect(StripChecksum.of(image) == before)
        image.pixels[0] = 1
        #expect(StripChecksum.of(image) != before)
        #expect(before.count == 16)
    }

    @Test func matrixSweepsExtractorsAndComposersSeparately() {
        let matrix = BenchMatrix(extractors: ["sequential", "forward"].compactMap(Extractors.named),
                                 composers: ["rowcopy", "simd", "fused"].compactMap(StripDestination.named),
                                 videoIDs: ["h264-180p-3s"], counts: [5, 10], heights: [64], accuracies: [.exact],
                                 decoderThreads: [1], repetitions: 1, warmup: 0, timeLimitSeconds: 1)
        let configurations = matrix.configurations(videoPaths: ["h264-180p-3s": "/v.mp4"])
        let pipelines = configurations.filter { $0.kind == .pipeline }
        #expect(pipelines.filter { $0.pipeline.composer == "rowcopy" }.count == 4)
        #expect(pipelines.filter { $0.pipeline.composer != "rowcopy" }.map(\.pipeline) == ["forward+simd", "forward+fused"])
        #expect(pipelines.filter { $0.pipeline.composer != "rowcopy" }.allSatisfy { $0.thumbnailCount == 10 })
        #expect(configurations.filter { $0.kind == .syntheticComposition }.map(\.pipeline.composer) == ["rowcopy", "simd"])
        #expect(configurations.filter { $0.kind == .memcpyFloor }.count == 1)
        #expect(configurations.filter { $0.phases == [.calibration] }.count == 2)
    }

    @Test func agreementCheckerFlagsDifferentStripsAndWrongFrames() {
        var checker = AgreementChecker()
        let run = BenchConfiguration.PipelineRun(extractor: Extractors.named("sequential")!, destination: StripDestination.named("rowcopy")!,
                                                 videoID: "v", videoPath: nil, thumbnailCount: 5, thumbHeight: 64)
        let a = BenchConfiguration.pipeline(run)
        var forwardRun = run
        forwardRun.extractor = Extractors.named("forward")!
        let b = BenchConfiguration.pipeline(forwardRun)
        func measurement(_ checksum: String, error: Int? = 0) -> BenchMeasurement {
            BenchMeasurement(phases: [], checksum: checksum, maxFrameError: error)
        }
        #expect(checker.check(a, measurement("aa")).isEmpty)
        #expect(checker.check(b, measurement("aa")).isEmpty)
        #expect(checker.check(b, measurement("bb")).count == 1)
        #expect(checker.check(a, measurement("aa", error: 2)).count == 1)
        var keyframeRun = run
        keyframeRun.accuracy = .keyframe
        let keyframe = BenchConfiguration.pipeline(keyframeRun)
        #expect(checker.check(keyframe, measurement("cc", error: 3)).isEmpty)
        #expect(checker.problemCount == 2)
    }
}
