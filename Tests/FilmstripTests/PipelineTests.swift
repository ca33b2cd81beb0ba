import Filmstrip
import FilmstripFixtures
import FilmstripOpenMP
import Foundation
import Testing

@Suite("Pipelines: every extractor with every composer")
struct PipelineTests {
    /// Every pair (every composer and the canvas), the OpenMP composer registered first as the tool does, so that names resolve.
    static let pairs: [String] = {
        FilmstripOpenMP.register()
        return Extractors.all.flatMap { extractor in StripDestination.all.map { Pipeline(extractor: extractor, destination: $0).name } }
    }()

    static func request(_ path: String, count: Int, size: ThumbnailSize = .default) throws -> ExtractionRequest {
        let probe = try VideoProbe(path: path)
        return try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: count), size: size)
    }

    static let layouts: [StripOptions] = [
        StripOptions(),
        StripOptions(gap: 3, background: RGBAColor(red: 200, green: 30, blue: 90)),
        StripOptions(columns: 4, gap: 2, background: RGBAColor(red: 10, green: 200, blue: 40, alpha: 128)),
        StripOptions(gap: 1, selection: Rational(7, 10)..<Rational(19, 10)),
    ]

    @Test("byte-identical strips from every pair, with gaps, grids and dimming", arguments: pairs)
    func identicalStrips(pipelineName: String) async throws {
        let request = try Self.request(try TestSupport.video("h264-180p-3s"), count: 9)
        let pipeline = try #require(Pipeline(named: pipelineName))
        let reference = try #require(Pipeline(named: "sequential+naive"))
        for options in Self.layouts {
            let expected = try await reference.run(request, options: options)
            let actual = try await pipeline.run(request, options: options)
            #expect(actual.strip == expected.strip, "\(pipelineName) with \(options)")
            #expect(actual.thumbnails.map(\.frameIndex) == expected.thumbnails.map(\.frameIndex))
        }
    }

    @Test("each cell of the strip shows its planned frame")
    func stripCellsShowPlannedFrames() async throws {
        let request = try Self.request(try TestSupport.video("hevc-180p-2s"), count: 12)
        let result = try await Pipeline(named: "forward+fused")!.run(request, options: StripOptions(columns: 5, gap: 4))
        let strip = result.strip
        for (target, rectangle) in zip(request.plan.targets, result.layout.destinations) {
            #expect(FrameIndexMarker.read(from: strip.cropped(to: rectangle)) == target.frameIndex)
        }
    }

    @Test("the default pipeline, with its default options, makes the same bytes as naive composition of exact frames on every quick reference video",
          arguments: ReferenceSuite.quick.specs.map(\.id))
    func everyReferenceVideo(id: String) async throws {
        let path = try TestSupport.video(id)
        let plain = try Self.request(path, count: 10)
        let defaults = try ExtractionRequest(path: path, probe: plain.probe, plan: plain.plan, size: plain.size,
                                             options: ExtractionOptions(skipNonReferenceFrames: Pipeline.defaultSkipsNonReferenceFrames))
        let result = try await Pipeline.default.run(defaults, options: StripOptions(gap: 2))
        let naive = try await Pipeline(named: "sequential+naive")!.run(plain, options: StripOptions(gap: 2))
        let same = result.strip == naive.strip
        #expect(same, "\(id)")
        #expect(result.strip.height == plain.thumbnailPixels.height)
        for (target, rectangle) in zip(plain.plan.targets, result.layout.destinations) {
            #expect(FrameIndexMarker.read(from: result.strip.cropped(to: rectangle)) == target.frameIndex, "\(id) slot \(target.slot)")
        }
    }

    @Test("the fused pipeline's RGB canvas makes the same strip as RGBA thumbnails, on every quick reference video",
          arguments: ReferenceSuite.quick.specs.map(\.id))
    func fusedCanvasOnEveryReferenceVideo(id: String) async throws {
        let request = try Self.request(try TestSupport.video(id), count: 7)
        let fused = try await Pipeline(named: "taskgroup+fused")!.run(request, options: StripOptions(gap: 1))
        let plain = try await Pipeline(named: "sequential+rowcopy")!.run(request, options: StripOptions(gap: 1))
        #expect(fused.pixels.pixelFormat == .rgb)
        let same = fused.strip == plain.strip
        #expect(same, "\(id)")
    }

    @Test("fused rotated video: upright portrait cells")
    func fusedRotation() async throws {
        let request = try Self.request(try TestSupport.video("h264-180p-2s-rot90"), count: 4)
        let fused = try await Pipeline(named: "taskgroup+fused")!.run(request)
        let plain = try await Pipeline(named: "sequential+rowcopy")!.run(request)
        #expect(fused.strip == plain.strip)
        #expect(fused.strip.width == 4 * 36 && fused.strip.height == 64)
    }

    @Test("peak memory grows with N only by the thumbnails and the strip, writing included", arguments: ["simd", "fused"])
    func memoryDoesNotGrowWithFrames(composer: String) throws {
        let path = try TestSupport.video("h264-360p-20s")
        func peaks(_ count: Int) throws -> (pipeline: Double, written: Double) {
            let result = try TestSupport.runCLI(["strip", path, "-o", FileManager.default.temporaryDirectory
                .appendingPathComponent("memory-\(count)-\(UUID().uuidString).png").path,
                "--count", "\(count)", "--height", "32", "--extractor", "forward", "--composer", composer, "--stats"])
            #expect(result.status == 0, "\(result.standardError)")
            let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Double]
            return (try #require(json?["peak_rss_bytes"]), try #require(json?["peak_rss_written_bytes"]))
        }
        let small = try peaks(50), large = try peaks(500)
        // 57x32 thumbnails: 32 rows of 256 aligned bytes each. The fused pipeline keeps no thumbnails,
        // and its canvas is RGB (the video and the background are opaque).
        let extraThumbnails = composer == "fused" ? 0 : 450.0 * 32 * 256
        let format: PixelFormat = composer == "fused" ? .rgb : .rgba
        let extraStrip = Double(format.alignedRowBytes(forWidth: 500 * 57) - format.alignedRowBytes(forWidth: 50 * 57)) * 32
        // Allocator and decoder-pool noise between runs: a few 640x360 frames (345 KB each).
        let slack = 2.0 * 1024 * 1024
        // Keeping one decoded 640x360 frame per thumbnail would add about 450 x 345 KB = 155 MB; a writer
        // that copies the strip (as libavcodec's PNG encoder did) would add a strip or more.
        #expect(large.pipeline - small.pipeline <= extraThumbnails + extraStrip + slack, "peak \(small) -> \(large) bytes")
        #expect(large.written - small.written <= extraThumbnails + extraStrip + slack, "peak \(small) -> \(large) bytes")
        #expect(large.written - large.pipeline <= slack, "writing raised the peak from \(large.pipeline) to \(large.written) bytes")
    }
}
