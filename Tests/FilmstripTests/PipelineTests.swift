import Filmstrip
import Foundation
import Testing

@Suite("Pipelines: every extractor with every composer")
struct PipelineTests {
    static let pairs = Extractors.all.flatMap { extractor in Composers.all.map { Pipeline(extractor: extractor, composer: $0).name } }

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
        for (target, rectangle) in zip(request.plan.targets, result.layout.destinations) {
            #expect(FrameIndexMarker.read(from: result.strip.cropped(to: rectangle)) == target.frameIndex)
        }
    }

    @Test("the default pipeline makes a correct strip of every quick reference video",
          arguments: ReferenceSuite.quick.specs.map(\.id))
    func everyReferenceVideo(id: String) async throws {
        let request = try Self.request(try TestSupport.video(id), count: 10)
        let result = try await Pipeline(named: "taskgroup+simd")!.run(request, options: StripOptions(gap: 2))
        #expect(result.strip.height == request.thumbnailPixels.height)
        for (target, rectangle) in zip(request.plan.targets, result.layout.destinations) {
            #expect(FrameIndexMarker.read(from: result.strip.cropped(to: rectangle)) == target.frameIndex, "\(id) slot \(target.slot)")
        }
    }

    @Test("fused rotated video: upright portrait cells")
    func fusedRotation() async throws {
        let request = try Self.request(try TestSupport.video("h264-180p-2s-rot90"), count: 4)
        let fused = try await Pipeline(named: "taskgroup+fused")!.run(request)
        let plain = try await Pipeline(named: "sequential+rowcopy")!.run(request)
        #expect(fused.strip == plain.strip)
        #expect(fused.strip.width == 4 * 36 && fused.strip.height == 64)
    }

    @Test("peak memory grows with N only by the thumbnails and the strip")
    func memoryDoesNotGrowWithFrames() throws {
        let path = try TestSupport.video("h264-360p-20s")
        func peak(_ count: Int) throws -> Double {
            let result = try TestSupport.runCLI(["strip", path, "-o", FileManager.default.temporaryDirectory
                .appendingPathComponent("memory-\(count)-\(UUID().uuidString).png").path,
                "--count", "\(count)", "--height", "32", "--extractor", "forward", "--stats"])
            #expect(result.status == 0, "\(result.standardError)")
            let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Double]
            return try #require(json?["peak_rss_bytes"])
        }
        let small = try peak(50), large = try peak(500)
        // 57x32 thumbnails: 32 rows of 256 aligned bytes each; the strip grows by 450 cells of 57x32 RGBA.
        let extraThumbnails = 450.0 * 32 * 256
        let extraStrip = Double(Image.alignedRowBytes(forWidth: 500 * 57) - Image.alignedRowBytes(forWidth: 50 * 57)) * 32
        let slack = 4.0 * 1024 * 1024
        // Keeping one decoded 640x360 frame per thumbnail would add about 450 x 345 KB = 155 MB.
        #expect(large - small <= extraThumbnails + extraStrip + slack, "peak \(small) -> \(large) bytes")
    }
}
