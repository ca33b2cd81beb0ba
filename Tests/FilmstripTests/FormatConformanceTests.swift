import Filmstrip
import FilmstripFixtures
import Foundation
import Testing

/// The container × codec matrix (the `formats` suite): every extractor in every accuracy on
/// every video, each run several times. Every thumbnail must show the planned frame (its
/// marker), be the same bytes on every run and from every extractor, and match the ffmpeg
/// CLI's own decode of that frame scaled the same way — an oracle that is not this project.
@Suite("Container and codec conformance", .enabled(if: FormatOracle.ffmpeg != nil, "needs the ffmpeg CLI (scripts/setup.sh)"))
struct FormatConformanceTests {
    static let videos = ReferenceSuite.formats.specs.map(\.id)
    static let accuracies: [Accuracy] = [.exact, .keyframe, .tolerance(before: Rational(1, 5), after: Rational(1, 5))]
    /// Runs of each cell, each with other options that must not change a byte: the default, then
    /// 3 workers with non-reference frames skipped, then 4 workers decoding every frame in keyframe mode.
    static let runOptions = [ExtractionOptions(),
                             ExtractionOptions(skipNonReferenceFrames: true, workers: 3),
                             ExtractionOptions(keyframeOnlyDecoding: false, workers: 4)]
    static let count = 8

    @Test("every extractor × accuracy shows the planned frames, the CLI's pixels, the same bytes every run", arguments: videos)
    func matrixCell(id: String) async throws {
        let path = try TestSupport.video(id)
        let probe = try VideoProbe(path: path)
        let spec = TestSupport.spec(id)
        #expect(probe.frameCount == spec.frameCount, "\(id): every frame counted")
        var oracle: FormatOracle?
        for accuracy in Self.accuracies {
            let plan = try SamplePlan(probe: probe, count: Self.count, accuracy: accuracy)
            var reference: [Image]?
            for extractor in Extractors.all {
                for (run, options) in Self.runOptions.enumerated() {
                    let request = try ExtractionRequest(path: path, probe: probe, plan: plan, options: options)
                    let cell = "\(id) \(accuracy) \(extractor.name) run \(run)"
                    let thumbnails = try await extractor.thumbnails(for: request).thumbnails
                    let images = thumbnails.map { $0.image! }
                    for (thumbnail, target) in zip(thumbnails, plan.targets) {
                        #expect(!thumbnail.substituted, "\(cell) slot \(target.slot): undamaged file")
                        #expect(thumbnail.frameIndex == target.frameIndex, "\(cell) slot \(target.slot)")
                        #expect(FrameIndexMarker.read(from: thumbnail.image!) == target.frameIndex, "\(cell) slot \(target.slot) marker")
                    }
                    if let reference {
                        #expect(images == reference, "\(cell): same bytes as sequential's first run")
                        continue
                    }
                    reference = images
                    if oracle == nil {
                        // HDR videos are compared with the SDR video they were made from (see HDRVideoTests).
                        oracle = try FormatOracle(path: spec.hdrTransfer == nil ? path : try TestSupport.video(HDRVideoTests.sdrOriginal),
                                                  width: images[0].width, height: images[0].height, interlaced: spec.fieldOrder != nil)
                    }
                    #expect(oracle!.frames.count == spec.frameCount, "\(id): the CLI decodes every frame")
                    for (image, target) in zip(images, plan.targets) {
                        let difference = oracle!.meanAbsoluteDifference(image, frame: target.frameIndex)
                        #expect(difference < (spec.hdrTransfer == nil ? FormatOracle.bound : HDRVideoTests.closeBound), "\(cell) slot \(target.slot) frame \(target.frameIndex): \(difference) from the CLI")
                    }
                }
            }
        }
    }
}

/// Every frame of a video as the ffmpeg CLI decodes and scales it (RGBA, in decode output
/// order, which is presentation order), for comparison with thumbnails.
struct FormatOracle {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Mean absolute difference per colour byte: different scalers round differently (about 1
    /// here); the neighbouring frame of these moving pictures differs by 5 or more.
    static let bound = 3.0

    let width: Int
    let height: Int
    let frames: [[UInt8]]

    /// - Parameters:
    ///   - interlaced: deinterlace with yadif (one frame per frame) before scaling.
    ///   - inputMatrix: the colour matrix the CLI's scaler assumes, instead of the stream's tag.
    init(path: String, width: Int, height: Int, interlaced: Bool, inputMatrix: String? = nil) throws {
        let filters = (interlaced ? "yadif=mode=send_frame:parity=auto:deint=all," : "") + "scale=\(width):\(height):flags=\(ScalingFilter.area.ffmpegCLIFlags)"
            + (inputMatrix.map { ":in_color_matrix=\($0)" } ?? "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.ffmpeg!)
        process.arguments = ["-v", "error", "-i", path, "-vf", filters, "-fps_mode", "passthrough",
                             "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let frameBytes = width * height * 4
        let bytes = [UInt8](data)
        frames = stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { Array(bytes[$0..<($0 + frameBytes)]) }
        self.width = width
        self.height = height
    }

    func meanAbsoluteDifference(_ image: Image, frame index: Int) -> Double {
        guard index < frames.count, image.width == width, image.height == height else { return .infinity }
        let packed = frames[index]
        var total = 0
        for y in 0..<height {
            for x in 0..<width * 4 where x % 4 != 3 {
                total += abs(Int(image.pixels[y * image.bytesPerRow + x]) - Int(packed[y * width * 4 + x]))
            }
        }
        return Double(total) / Double(width * height * 3)
    }
}

/// The stream's colour matrix tag is honoured: an SD video tagged BT.709 comes out as the CLI
/// decodes it (which follows the tag), much closer than to the BT.601 that untagged SD video gets.
@Suite("Colour matrix", .enabled(if: FormatOracle.ffmpeg != nil, "needs the ffmpeg CLI (scripts/setup.sh)"))
struct ColourMatrixTests {
    @Test("an SD video tagged BT.709 is converted with BT.709's matrix")
    func taggedMatrix() async throws {
        let path = try TestSupport.video("mp4-h264-bt709")
        let probe = try VideoProbe(path: path)
        let request = try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: 4))
        let thumbnails = try await ForwardExtractor().thumbnails(for: request).thumbnails
        let width = thumbnails[0].image!.width, height = thumbnails[0].image!.height
        let tagged = try FormatOracle(path: path, width: width, height: height, interlaced: false)
        let bt601 = try FormatOracle(path: path, width: width, height: height, interlaced: false, inputMatrix: "bt601")
        for thumbnail in thumbnails {
            let right = tagged.meanAbsoluteDifference(thumbnail.image!, frame: thumbnail.frameIndex)
            let wrong = bt601.meanAbsoluteDifference(thumbnail.image!, frame: thumbnail.frameIndex)
            // Measured: 1.1 from BT.709, 2.9–3.1 from BT.601 (the picture is not very saturated).
            #expect(right * 2 < wrong, "frame \(thumbnail.frameIndex): \(right) from BT.709, \(wrong) from BT.601")
        }
    }
}

/// Interlaced video: thumbnails at the picture's full height, where weaving two fields from
/// different moments would show as combs on the moving bar's edges.
@Suite("Interlaced video", .enabled(if: FormatOracle.ffmpeg != nil, "needs the ffmpeg CLI (scripts/setup.sh)"))
struct InterlacedVideoTests {
    /// Combing: the mean of |2·row(y) − row(y−1) − row(y+1)| over the picture's luma (green
    /// channel), which alternating field lines make large and smooth pictures keep small.
    static func combing(_ rgba: [UInt8], width: Int, height: Int, bytesPerRow: Int) -> Double {
        var total = 0
        for y in 1..<(height - 1) {
            for x in 0..<width {
                let at = { (row: Int) in Int(rgba[row * bytesPerRow + x * 4 + 1]) }
                total += abs(2 * at(y) - at(y - 1) - at(y + 1))
            }
        }
        return Double(total) / Double(width * (height - 2))
    }

    @Test("no combing: thumbnails comb no more than the CLI's yadif, far less than the woven frame",
          arguments: ["ts-h264-tff", "mkv-h264-bff"])
    func noCombing(id: String) async throws {
        let path = try TestSupport.video(id)
        let probe = try VideoProbe(path: path)
        let request = try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: 4),
                                            size: .height(probe.height))
        let thumbnails = try await ForwardExtractor().thumbnails(for: request).thumbnails
        let width = thumbnails[0].image!.width, height = thumbnails[0].image!.height
        let deinterlaced = try FormatOracle(path: path, width: width, height: height, interlaced: true)
        let woven = try FormatOracle(path: path, width: width, height: height, interlaced: false)
        for thumbnail in thumbnails {
            let image = thumbnail.image!
            let ours = Self.combing(image.pixels, width: width, height: height, bytesPerRow: image.bytesPerRow)
            let yadif = Self.combing(deinterlaced.frames[thumbnail.frameIndex], width: width, height: height, bytesPerRow: width * 4)
            let weave = Self.combing(woven.frames[thumbnail.frameIndex], width: width, height: height, bytesPerRow: width * 4)
            #expect(ours <= yadif * 1.25 + 0.5 && ours < weave / 2, "\(id) frame \(thumbnail.frameIndex): combing \(ours), yadif \(yadif), woven \(weave)")
        }
    }
}

/// HDR: the PQ and HLG videos are mkv-hevc-10bit's SDR picture converted to HDR. Tone-mapped,
/// a thumbnail must look like the SDR original as the CLI decodes it; a plain conversion (the
/// CLI's, which ignores the transfer) must not.
@Suite("HDR video", .enabled(if: FormatOracle.ffmpeg != nil, "needs the ffmpeg CLI (scripts/setup.sh)"))
struct HDRVideoTests {
    static let sdrOriginal = "mkv-hevc-10bit"
    /// Mean absolute difference per colour byte from the SDR original: the highlight knee
    /// (white 255 comes out 250), 4:2:0 chroma taken per block, and HEVC's coding noise, which
    /// weighs more in PQ (SDR's range fills only 58 % of its code values). Measured: PQ 5.0–7.1,
    /// HLG 3.2–4.2; the plain conversion 22–31.
    static let closeBound = 8.0
    /// A plain conversion of the same HDR frames is at least this far from the SDR original.
    static let farBound = 15.0

    @Test("tone-mapped thumbnails are close to the SDR original, a plain conversion is far", arguments: ["mkv-hevc-pq", "mkv-hevc-hlg"])
    func toneMapping(id: String) async throws {
        let path = try TestSupport.video(id)
        let probe = try VideoProbe(path: path)
        let request = try ExtractionRequest(path: path, probe: probe, plan: try SamplePlan(probe: probe, count: 5))
        let thumbnails = try await ForwardExtractor().thumbnails(for: request).thumbnails
        let width = thumbnails[0].image!.width, height = thumbnails[0].image!.height
        let original = try FormatOracle(path: try TestSupport.video(Self.sdrOriginal), width: width, height: height, interlaced: false)
        let plain = try FormatOracle(path: path, width: width, height: height, interlaced: false)
        for thumbnail in thumbnails {
            let toneMapped = original.meanAbsoluteDifference(thumbnail.image!, frame: thumbnail.frameIndex)
            let plainImage = Image(width: width, height: height, bytesPerRow: width * 4, pixels: plain.frames[thumbnail.frameIndex])
            let untoned = original.meanAbsoluteDifference(plainImage, frame: thumbnail.frameIndex)
            #expect(toneMapped < Self.closeBound, "\(id) frame \(thumbnail.frameIndex): \(toneMapped) from the SDR original")
            #expect(untoned > Self.farBound, "\(id) frame \(thumbnail.frameIndex): plain conversion \(untoned) from the SDR original")
        }
    }
}
