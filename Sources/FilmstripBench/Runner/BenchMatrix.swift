import FilmstripFixtures
import Foundation
import Filmstrip

/// What a benchmark run measures, before it is expanded into configurations.
///
/// Not every extractor is paired with every composer on every video: that product
/// grows fast and mostly measures the same thing twice. Instead
/// - the **extractor sweep** runs every extractor with one composer (``sweepComposer``)
///   over every video × count × height × accuracy × decoder-thread setting;
/// - the **composer sweep** runs every other composer with one extractor
///   (``sweepExtractor``) on the first video, height, accuracy and thread setting, at the
///   largest count;
/// - every composer (not the canvas destination, which has no separate composition) is also timed on
///   ``syntheticCount`` synthetic thumbnails beside `memcpyFloor`, without a video;
/// - two **calibration** workloads (a 64 MiB copy and a fixed decode of
///   ``calibrationVideoID``) let runs on different machines be compared as ratios.
package struct BenchMatrix: Sendable {
    /// Extractors from the registry.
    package var extractors: [any ThumbnailExtractor]
    /// Destinations: registered composers, or the canvas.
    package var composers: [StripDestination]
    /// Videos by id, in order: reference ids and the ids of ``userVideos``.
    package var videoIDs: [String]
    /// Paths of the user's own videos (`bench --videos FILE|FOLDER`) by id; every other id names a reference video.
    package var userVideos: [String: String] = [:]
    /// Thumbnails per strip.
    package var counts: [Int]
    /// Thumbnail heights in pixels.
    package var heights: [Int]
    package var accuracies: [Accuracy]
    /// Decoder threads (0: one per core, FFmpeg's choice).
    package var decoderThreads: [Int]
    /// Timed runs of every configuration.
    package var repetitions: Int
    /// Untimed runs of every configuration before the timed ones.
    package var warmup: Int
    /// Seconds one run may take before its child is killed and the configuration dropped.
    package var timeLimitSeconds: Double
    /// Settings of "skip non-reference frames" to sweep the extractors over.
    package var skipNonReference: [Bool] = [false]
    /// Worker counts for the extractors whose settings include `.workers` (empty: one per core).
    package var workerCounts: [Int] = []
    /// Add rows for real tools doing the same job (``Peer``), where they are installed.
    package var peers = false
    /// Add the seed study: the 4 min 4 s 1080p H.264 case at 20, 50 and 500 thumbnails (see ``seedStudy``).
    package var seedStudy = false
    /// `false` leaves out the composition-alone, memcpy-floor and calibration runs: a two-build
    /// gate on a few pipelines then spends every child run on the pairs it judges (without
    /// calibration rows, the file can only be compared paired, not with another run).
    package var referenceRuns = true
    /// What the configurations run: strips (the extractor and composer sweeps), interactive
    /// sessions, or sprites.
    package var workload: Workload = .strips

    /// The kind of work a suite's configurations do.
    package enum Workload: Sendable {
        /// Strips: the extractor and composer sweeps, peers and the seed study.
        case strips
        /// Scripted slider sessions (and a soak) per video × count × height.
        case interactive(InteractiveSweep)
        /// Every contender's sprite of every video.
        case sprite([SpriteBench.Contender])
    }

    /// The interactive configurations: every strategy with the generator's default pool and
    /// the cache on; the standard strategy also over `decoderCounts` and with the cache off
    /// (the settings swept as the extractors' are); a soak per video.
    package struct InteractiveSweep: Sendable {
        package var strategies: [any InteractiveStrategy]
        /// Pool sizes the standard strategy is also run with.
        package var decoderCounts: [Int]
        /// Also run the standard strategy with the cache off.
        package var cacheOff: Bool
        /// Superseding requests of the soak run per video (0: none).
        package var soakRequests: Int

        package init(strategies: [any InteractiveStrategy] = InteractiveStrategies.all, decoderCounts: [Int] = [1, 4],
                    cacheOff: Bool = true, soakRequests: Int = 1000) {
            self.strategies = strategies
            self.decoderCounts = decoderCounts
            self.cacheOff = cacheOff
            self.soakRequests = soakRequests
        }

        func configurations(videoID: String, path: String?, count: Int, height: Int) -> [BenchConfiguration] {
            typealias Run = BenchConfiguration.InteractiveRun
            var runs = strategies.map { Run(strategy: $0, videoID: videoID, videoPath: path, thumbnailCount: count, thumbHeight: height) }
            if let standard = strategies.first(where: { $0.name == InteractiveStrategies.standard.name }) {
                runs += decoderCounts.map { Run(strategy: standard, videoID: videoID, videoPath: path, thumbnailCount: count,
                                                thumbHeight: height, decoders: $0) }
                if cacheOff {
                    runs.append(Run(strategy: standard, videoID: videoID, videoPath: path, thumbnailCount: count, thumbHeight: height,
                                    cacheBytes: 0))
                }
                if soakRequests > 0 {
                    runs.append(Run(strategy: standard, script: .soak(requests: soakRequests), videoID: videoID, videoPath: path,
                                    thumbnailCount: 1, thumbHeight: height, cacheBytes: 0))
                }
            }
            return runs.map(BenchConfiguration.interactive)
        }
    }

    package static let syntheticCount = 500
    package static let syntheticHeight = 64
    package static let calibrationVideoID = "h264-180p-3s"
    /// Every frame of the 3 s, 30 fps calibration video.
    package static let calibrationCount = 90

    package init(extractors: [any ThumbnailExtractor], composers: [StripDestination], videoIDs: [String], counts: [Int], heights: [Int],
                accuracies: [Accuracy], decoderThreads: [Int], repetitions: Int, warmup: Int, timeLimitSeconds: Double) {
        self.extractors = extractors
        self.composers = composers
        self.videoIDs = videoIDs
        self.counts = counts
        self.heights = heights
        self.accuracies = accuracies
        self.decoderThreads = decoderThreads
        self.repetitions = repetitions
        self.warmup = warmup
        self.timeLimitSeconds = timeLimitSeconds
    }

    /// The default matrix of `suite`: `quick` finishes in well under two minutes on a
    /// 2-core machine in release mode, `standard` in under ten, `full` takes long.
    /// Six repetitions because fewer give no 95 % order-statistic interval of the median
    /// (the summary flags `few_samples`) and make the regression gate warn.
    /// `standard` skips the warm-up: every run is a fresh process anyway, and the
    /// reference files are in the page cache from being probed just before.
    package static func defaults(for suite: ReferenceSuite) -> BenchMatrix {
        let extractors = Extractors.all, composers = StripDestination.all
        switch suite {
        case .quick:
            return BenchMatrix(extractors: extractors, composers: composers, videoIDs: [calibrationVideoID, "hevc-180p-2s", "vp9-180p-2s"],
                               counts: [10, 50], heights: [64], accuracies: [.exact], decoderThreads: [1],
                               repetitions: 6, warmup: 1, timeLimitSeconds: 60)
        case .standard:
            return BenchMatrix(extractors: extractors, composers: composers,
                               videoIDs: ["h264-360p-5s", "h264-720p-60s", "h264-360p-244s", "hevc-360p-5s",
                                          "vp9-360p-5s", "av1-360p-5s", "mpeg4-360p-5s"],
                               counts: [10, 100], heights: [64], accuracies: [.exact], decoderThreads: [1],
                               repetitions: 6, warmup: 0, timeLimitSeconds: 120)
        case .full:
            // The standard sweep plus the seed study on the 1080p videos; three repetitions keep
            // it to about half an hour on 2 cores (the summary flags few_samples).
            var matrix = defaults(for: .standard)
            matrix.repetitions = 3
            matrix.timeLimitSeconds = 900
            matrix.seedStudy = true
            return matrix
        case .interactive:
            // Sessions take a few seconds each and the strategies are the comparison: six
            // interleaved repetitions give the summary its interval.
            var matrix = BenchMatrix(extractors: extractors, composers: composers, videoIDs: ReferenceSuite.interactive.specs.map(\.id),
                                     counts: [20], heights: [64], accuracies: [.exact], decoderThreads: [1],
                                     repetitions: 6, warmup: 0, timeLimitSeconds: 300)
            matrix.workload = .interactive(InteractiveSweep())
            return matrix
        case .sprite:
            // Whole libraries of minutes of video per contender: three repetitions, as `sprite-bench` always ran.
            var matrix = BenchMatrix(extractors: extractors, composers: composers, videoIDs: ReferenceSuite.sprite.specs.map(\.id),
                                     counts: [1], heights: [0], accuracies: [.exact], decoderThreads: [1],
                                     repetitions: 3, warmup: 0, timeLimitSeconds: 900)
            matrix.workload = .sprite(SpriteBench.Contender.allCases)
            return matrix
        case .formats:
            // Every container and codec of the formats suite, in exact and keyframe mode: the
            // agreement check then covers them (wrong frames or pixels show as disagreements).
            return BenchMatrix(extractors: extractors, composers: [.thumbnails(Composers.extractorSweepPartner)], videoIDs: ReferenceSuite.formats.specs.map(\.id),
                               counts: [10], heights: [64], accuracies: [.exact, .keyframe], decoderThreads: [1],
                               repetitions: 3, warmup: 0, timeLimitSeconds: 60)
        }
    }

    /// The composer every extractor runs with: the registry's partner when it is in the list.
    package var sweepComposer: StripDestination {
        let partner = StripDestination.thumbnails(Composers.extractorSweepPartner)
        return composers.contains(partner) ? partner : composers[0]
    }
    /// The extractor every other composer runs with: the registry's partner when it is in the list.
    package var sweepExtractor: any ThumbnailExtractor {
        let partner = Extractors.composerSweepPartner
        return extractors.first { $0.name == partner.name } ?? extractors[0]
    }

    /// Every reference video the configurations read, calibration video included.
    package var requiredVideoIDs: [String] {
        let all = videoIDs + [Self.calibrationVideoID] + (seedStudy ? Self.seedVideoIDs : [])
        return all.enumerated().filter { all.firstIndex(of: $0.element) == $0.offset }.map(\.element)
    }

    /// The seed's case (4 min 4 s, 1080p, 30 fps H.264) and its short- and long-GOP variants.
    package static let seedVideoID = "h264-1080p-244s"
    package static let seedVideoIDs = [seedVideoID, "h264-1080p-244s-gop30", "h264-1080p-244s-gop600-open"]

    /// The configurations, in a fixed order that the session rotates per repetition.
    /// - Parameter videoPaths: file of every id in ``requiredVideoIDs``.
    package func configurations(videoPaths: [String: String]) -> [BenchConfiguration] {
        var result: [BenchConfiguration] = []
        switch workload {
        case .strips:
            result = stripConfigurations(videoPaths: videoPaths)
        case .interactive(let sweep):
            for videoID in videoIDs {
                for count in counts {
                    for height in heights {
                        result += sweep.configurations(videoID: videoID, path: videoPaths[videoID], count: count, height: height)
                    }
                }
            }
        case .sprite(let contenders):
            for videoID in videoIDs {
                result += contenders.map { .sprite(.init(contender: $0, videoID: videoID, videoPath: videoPaths[videoID])) }
            }
        }
        guard referenceRuns else { return result }
        if case .strips = workload {
            for case .thumbnails(let composer) in composers {
                result.append(.composeSynthetic(.init(composer), thumbnailCount: Self.syntheticCount, thumbHeight: Self.syntheticHeight))
            }
            result.append(.memcpySynthetic(thumbnailCount: Self.syntheticCount, thumbHeight: Self.syntheticHeight))
        }
        result.append(.calibrationCopy)
        // The calibration decode runs the sweeps' two partners, which must stay what they are
        // for the calibration rows of different days to compare.
        result.append(.calibrationDecode(.init(
            extractor: Extractors.composerSweepPartner, destination: .thumbnails(Composers.extractorSweepPartner),
            videoID: Self.calibrationVideoID, videoPath: videoPaths[Self.calibrationVideoID],
            thumbnailCount: Self.calibrationCount, thumbHeight: 64)))
        return result
    }

    /// The strip sweeps, peers and seed study, without the reference runs.
    func stripConfigurations(videoPaths: [String: String]) -> [BenchConfiguration] {
        var result: [BenchConfiguration] = []
        for videoID in videoIDs {
            for count in counts {
                for height in heights {
                    for accuracy in accuracies {
                        for threads in decoderThreads {
                            for extractor in extractors {
                                for skip in skipNonReference {
                                    for workers in extractor.settings.contains(.workers) && !workerCounts.isEmpty ? workerCounts.map(Optional.some) : [nil] {
                                        result.append(.pipeline(.init(
                                            extractor: extractor, destination: sweepComposer, videoID: videoID,
                                            videoPath: videoPaths[videoID], thumbnailCount: count, thumbHeight: height,
                                            accuracy: accuracy, decoderThreads: threads, skipNonReference: skip, workers: workers)))
                                    }
                                }
                            }
                            if let defaultRun = defaultPipelineRun(videoID: videoID, path: videoPaths[videoID], count: count,
                                                                   height: height, accuracy: accuracy, threads: threads) {
                                result.append(.pipeline(defaultRun))
                            }
                        }
                    }
                }
            }
        }
        if peers {
            for videoID in videoIDs {
                result += peerConfigurations(videoID: videoID, path: videoPaths[videoID], counts: counts, height: heights[0],
                                             accuracies: accuracies)
            }
        }
        if seedStudy { result += seedStudyConfigurations(videoPaths: videoPaths) }
        for composer in composers where composer != sweepComposer {
            result.append(.pipeline(.init(
                extractor: sweepExtractor, destination: composer, videoID: videoIDs[0],
                videoPath: videoPaths[videoIDs[0]], thumbnailCount: counts.max()!, thumbHeight: heights[0],
                accuracy: accuracies[0], decoderThreads: decoderThreads[0])))
        }
        return result
    }

    /// The default pipeline (`Pipeline.default` with its frame skipping), so that every
    /// comparison of a video and count has it beside the sweep, wherever it ranks: added when its
    /// extractor and destination are both in the lists and the sweep does not already run it.
    func defaultPipelineRun(videoID: String, path: String?, count: Int, height: Int, accuracy: Accuracy, threads: Int) -> BenchConfiguration.PipelineRun? {
        let pipeline = Pipeline.default, skip = Pipeline.defaultSkipsNonReferenceFrames
        guard let extractor = extractors.first(where: { $0.name == pipeline.extractor.name }),
              composers.contains(pipeline.destination), threads == decoderThreads[0],
              !(sweepComposer == pipeline.destination && skipNonReference.contains(skip) && workerCounts.isEmpty) else { return nil }
        return .init(extractor: extractor, destination: pipeline.destination, videoID: videoID, videoPath: path,
                     thumbnailCount: count, thumbHeight: height, accuracy: accuracy, decoderThreads: threads, skipNonReference: skip)
    }

    /// Peers of one video: the ffmpeg CLI strips per count and accuracy, ffmpegthumbnailer up to
    /// 100 thumbnails (one process per thumbnail makes larger counts take minutes), and the
    /// decode floors once per video (they do not depend on the count; recorded at the largest).
    /// Peers whose program is not installed are left out (`filmstrip bench` says so).
    func peerConfigurations(videoID: String, path: String?, counts: [Int], height: Int, accuracies: [Accuracy]) -> [BenchConfiguration] {
        var result: [BenchConfiguration] = []
        for count in counts {
            if accuracies.contains(.exact) {
                result.append(.peer(.ffmpegExact, videoID: videoID, videoPath: path, thumbnailCount: count, thumbHeight: height))
                if count <= 100 {
                    result.append(.peer(.ffmpegthumbnailer, videoID: videoID, videoPath: path, thumbnailCount: count, thumbHeight: height))
                }
            }
            if accuracies.contains(.keyframe) {
                result.append(.peer(.ffmpegKeyframes, videoID: videoID, videoPath: path, thumbnailCount: count, thumbHeight: height))
            }
        }
        let largest = counts.max() ?? 1
        if accuracies.contains(.exact) {
            result.append(.peer(.decodeAll, videoID: videoID, videoPath: path, thumbnailCount: largest, thumbHeight: height))
        }
        if accuracies.contains(.keyframe) {
            result.append(.peer(.decodeKeyframes, videoID: videoID, videoPath: path, thumbnailCount: largest, thumbHeight: height))
        }
        // filmstrip's own command line beside them, with the pipeline the CLI uses by default
        // (scaling straight into the strip, keyframe-only decoding in keyframe mode).
        for count in counts {
            for accuracy in accuracies where accuracy == .exact || accuracy == .keyframe {
                result.append(.commandLine(.init(extractor: Pipeline.default.extractor, destination: Pipeline.default.destination,
                                                 videoID: videoID, videoPath: path, thumbnailCount: count, thumbHeight: height,
                                                 accuracy: accuracy, skipNonReference: accuracy == .exact)))
            }
        }
        return result.filter { configuration in
            guard case .peer(let peer, _) = configuration else { return true }
            return ExternalProcess.find(peer.program) != nil
        }
    }

    /// The questions the seed's case asks, on the 1080p videos at 64 px high, of the extractors
    /// by what they declare (`ExtractorSetting`), with thumbnails scaled straight into the strip:
    /// - exact, 500 thumbnails: those that take workers with their decoder options and over
    ///   `workerSweep` (single-threaded codec) for the scaling chart; those whose parallelism is
    ///   the codec's threads with and without them; the rest that do not seek per thumbnail;
    /// - exact, 50 thumbnails: the best candidates again, for peak memory against 500;
    /// - exact and keyframe, 20 thumbnails, and keyframe at 500: every extractor;
    /// - with `peers`, the ffmpeg CLI, ffmpegthumbnailer and the decode floors beside them,
    ///   and filmstrip's command line at 500 exact with the loop filter skipped;
    /// - the short- and long-GOP variants with the default pipeline's extractor only.
    /// Worker counts of the scaling curve: 1, 2, 4, 8, 16 up to the cores, and twice the cores
    /// (more workers than cores even out the GOP runs' tail by time slicing).
    static func workerSweep(cores: Int) -> [Int] {
        [1, 2, 4, 8, 16].filter { $0 <= cores } + [2 * max(1, cores)]
    }

    func seedStudyConfigurations(videoPaths: [String: String]) -> [BenchConfiguration] {
        func pipeline(_ extractor: any ThumbnailExtractor, _ videoID: String, _ count: Int, _ accuracy: Accuracy, threads: Int = 1,
                      skip: Bool = false, loopFilter: Bool = false, workers: Int? = nil) -> BenchConfiguration {
            .pipeline(.init(extractor: extractor, destination: .canvas, videoID: videoID,
                            videoPath: videoPaths[videoID], thumbnailCount: count, thumbHeight: 64, accuracy: accuracy,
                            decoderThreads: threads, skipNonReference: skip, skipLoopFilter: loopFilter, workers: workers))
        }
        let seed = Self.seedVideoID
        let all = Extractors.all
        let withWorkers = all.filter { $0.settings.contains(.workers) }
        let withCodecThreads = all.filter { $0.settings.contains(.codecThreads) }
        let others = all.filter { extractor in
            ![ExtractorSetting.workers, .codecThreads, .seeksPerThumbnail].contains { extractor.settings.contains($0) }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var result: [BenchConfiguration] = []
        for extractor in withWorkers {
            result += [
                pipeline(extractor, seed, 500, .exact),
                pipeline(extractor, seed, 500, .exact, skip: true),
                pipeline(extractor, seed, 500, .exact, skip: true, loopFilter: true),
            ] + Self.workerSweep(cores: cores).map { pipeline(extractor, seed, 500, .exact, workers: $0) }
        }
        for extractor in withCodecThreads {
            result += [
                pipeline(extractor, seed, 500, .exact),
                pipeline(extractor, seed, 500, .exact, threads: 0),
                pipeline(extractor, seed, 500, .exact, threads: 0, skip: true),
            ]
        }
        result += others.map { pipeline($0, seed, 500, .exact, skip: true) }
        for extractor in withWorkers {
            result += [pipeline(extractor, seed, 50, .exact), pipeline(extractor, seed, 50, .exact, skip: true)]
        }
        result += withCodecThreads.map { pipeline($0, seed, 50, .exact, threads: 0, skip: true) }
        for extractor in all {
            result.append(pipeline(extractor, seed, 20, .exact, skip: true))
            result.append(pipeline(extractor, seed, 20, .keyframe))
            result.append(pipeline(extractor, seed, 500, .keyframe))
        }
        let leading = Pipeline.default.extractor
        if peers {
            result += peerConfigurations(videoID: seed, path: videoPaths[seed], counts: [20, 50, 500], height: 64,
                                         accuracies: [.exact, .keyframe])
            // The same frames with the loop filter skipped (a mode the options column names),
            // as a whole process beside the ffmpeg CLI.
            result.append(pipeline(leading, seed, 500, .exact, skip: true, loopFilter: true).asCommandLine())
        }
        for variant in Self.seedVideoIDs.dropFirst() {
            result += [
                pipeline(leading, variant, 500, .exact, skip: true),
                pipeline(leading, variant, 500, .keyframe),
                pipeline(leading, variant, 20, .keyframe),
            ]
            if peers {
                result += peerConfigurations(videoID: variant, path: videoPaths[variant], counts: [20, 500], height: 64,
                                             accuracies: [.exact, .keyframe])
                    .filter { $0.peer != .ffmpegthumbnailer && !($0.peer == .ffmpegExact && $0.thumbnailCount == 20) }
            }
        }
        return result
    }
}
