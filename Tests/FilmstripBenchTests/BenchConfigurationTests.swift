import Filmstrip
import Foundation
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults

/// The `bench-run` JSON is also read by older baseline builds (`bench --baseline-rev`): every kind
/// keeps the flat keys and strings of the struct the enum replaced, and reads back unchanged.
struct BenchConfigurationTests {
    static let flatKeys: Set<String> = ["kind", "extractor", "composer", "videoID", "videoPath", "frameCount", "thumbHeight",
                                        "accuracy", "decoderThreads", "skipNonReference", "skipLoopFilter", "workers", "peer"]

    static func sortedJSON(_ configuration: BenchConfiguration) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(configuration), as: UTF8.self)
    }

    @Test func everyConfigurationOfTheFullMatrixReadsBackFromItsFlatJSON() throws {
        var matrix = BenchMatrix.defaults(for: .full)
        matrix.peers = true
        matrix.workerCounts = [2]
        let paths = Dictionary(uniqueKeysWithValues: matrix.requiredVideoIDs.map { ($0, "/videos/\($0).mp4") })
        let configurations = matrix.configurations(videoPaths: paths)
        #expect(Set(configurations.map(\.kind)) == [.pipeline, .syntheticComposition, .memcpyFloor, .calibrationCopy, .calibrationDecode, .peer, .wholeProcess])
        for configuration in configurations {
            let json = try JSONEncoder().encode(configuration)
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            #expect(Set(object.keys).isSubset(of: Self.flatKeys), "\(configuration.label)")
            #expect(try JSONDecoder().decode(BenchConfiguration.self, from: json) == configuration, "\(configuration.label)")
        }
    }

    /// The JSON the struct before the enum wrote for each kind (keys sorted), byte for byte.
    @Test func eachKindWritesTheKeysAndStringsOfEarlierBuilds() throws {
        let composer = Composers.all[0], extractor = Pipeline.default.extractor, destination = Pipeline.default.destination
        let run = BenchConfiguration.PipelineRun(extractor: extractor, destination: destination, videoID: "v", videoPath: "/v.mp4",
                                                 thumbnailCount: 20, thumbHeight: 64, accuracy: .keyframe, decoderThreads: 0,
                                                 skipNonReference: true, workers: 3)
        let pipelineFields = #""composer":"\#(destination.name)","decoderThreads":0,"extractor":"\#(extractor.name)","frameCount":20,"#
        let expected: [(BenchConfiguration, String)] = [
            (.pipeline(run), #"{"accuracy":"keyframe",\#(pipelineFields)"kind":"pipeline","skipLoopFilter":false,"#
                + #""skipNonReference":true,"thumbHeight":64,"videoID":"v","videoPath":"/v.mp4","workers":3}"#),
            (.commandLine(run), #"{"accuracy":"keyframe",\#(pipelineFields)"kind":"peer","peer":"filmstrip-cli","skipLoopFilter":false,"#
                + #""skipNonReference":true,"thumbHeight":64,"videoID":"v","videoPath":"/v.mp4","workers":3}"#),
            (.calibrationDecode(run), #"{"accuracy":"keyframe",\#(pipelineFields)"kind":"calibrationDecode","skipLoopFilter":false,"#
                + #""skipNonReference":true,"thumbHeight":64,"videoID":"v","videoPath":"/v.mp4","workers":3}"#),
            (.peer(.ffmpegKeyframes, videoID: "v", videoPath: "/v.mp4", thumbnailCount: 20, thumbHeight: 64),
             #"{"accuracy":"keyframe","composer":"ffmpeg-keyframes","decoderThreads":1,"extractor":"peer","frameCount":20,"kind":"peer","#
                + #""peer":"ffmpeg-keyframes","skipLoopFilter":false,"skipNonReference":false,"thumbHeight":64,"videoID":"v","videoPath":"/v.mp4"}"#),
            (.composeSynthetic(.init(composer), thumbnailCount: 500, thumbHeight: 64),
             #"{"accuracy":"exact","composer":"\#(composer.name)","decoderThreads":1,"extractor":"synthetic","frameCount":500,"#
                + #""kind":"composeSynthetic","skipLoopFilter":false,"skipNonReference":false,"thumbHeight":64}"#),
            (.memcpySynthetic(thumbnailCount: 500, thumbHeight: 64),
             #"{"accuracy":"exact","composer":"memcpy","decoderThreads":1,"extractor":"synthetic","frameCount":500,"#
                + #""kind":"memcpySynthetic","skipLoopFilter":false,"skipNonReference":false,"thumbHeight":64}"#),
            (.calibrationCopy,
             #"{"accuracy":"exact","composer":"memcpy","decoderThreads":1,"extractor":"calibration","frameCount":1,"#
                + #""kind":"calibrationCopy","skipLoopFilter":false,"skipNonReference":false,"thumbHeight":0}"#),
        ]
        for (configuration, json) in expected {
            #expect(try Self.sortedJSON(configuration) == json)
            #expect(try JSONDecoder().decode(BenchConfiguration.self, from: Data(json.utf8)) == configuration)
        }
    }

    @Test func unknownNamesAreRejectedWhenTheJSONIsRead() {
        let json = #"{"kind":"pipeline","extractor":"no-such-extractor","composer":"memcpy","videoID":"v","frameCount":1,"#
            + #""thumbHeight":64,"accuracy":"exact","decoderThreads":1,"skipNonReference":false,"skipLoopFilter":false}"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode(BenchConfiguration.self, from: Data(json.utf8)) }
    }
}
