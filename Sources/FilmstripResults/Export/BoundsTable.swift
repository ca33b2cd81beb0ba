import Filmstrip
import Foundation

/// The default pipeline's figures beside their bound (`export --format bounds`): per video,
/// count, height and accuracy, filmstrip's whole process (the `cli:` peer rows) and its in-process
/// `total`, each with the median of its repetitions' `bound_s` and wall / bound, and the ffmpeg
/// CLI doing the same job with its ratio to the whole process. Only configurations that run what
/// `filmstrip strip` runs by default: ``Pipeline/default``, one codec thread, workers from the
/// cost model, the loop filter kept, and in exact mode non-reference frames skipped.
enum BoundsTable {
    /// Whether `key` names what `strip` runs with no options, in process (`total`) or as a whole process.
    static func isDefault(_ key: ConfigurationKey, wholeProcess: Bool) -> Bool {
        let inProcess = PipelineName.stripDefault
        guard wholeProcess
            ? (key.pipeline == .commandLine(extractor: inProcess.extractor, composer: inProcess.composer) && key.phase == .peer)
            : (key.pipeline == inProcess && key.phase == .total)
        else { return false }
        let skipsNonReference = key.options[.skipNonReference].map { $0 == "1" } ?? Pipeline.defaultSkipsNonReferenceFrames
        return key.options.areStripDefaults
            && (key.accuracy.mode != .exact || skipsNonReference == Pipeline.defaultSkipsNonReferenceFrames)
    }

    /// The ffmpeg CLI peer doing the same job in `accuracy`.
    static func cliPeer(for accuracy: RowAccuracy) -> Peer? {
        switch accuracy.mode {
        case .exact: .ffmpegExact
        case .keyframe: .ffmpegKeyframes
        case .tolerance, nil: nil
        }
    }

    static func markdown(_ configurations: [ExportedConfiguration]) -> String {
        var whole: [StripRequest: ExportedConfiguration] = [:], inProcess: [StripRequest: ExportedConfiguration] = [:]
        var cli: [StripRequest: ExportedConfiguration] = [:]
        for configuration in configurations {
            let key = configuration.key, request = StripRequest(key)
            if isDefault(key, wholeProcess: true) { whole[request] = whole[request] ?? configuration }
            if isDefault(key, wholeProcess: false) { inProcess[request] = inProcess[request] ?? configuration }
            if key.phase == .peer, let peer = cliPeer(for: key.accuracy), key.pipeline == .peer(peer) { cli[request] = configuration }
        }
        // By video, then mode, count and height.
        let requests = Set(whole.keys).union(inProcess.keys).sorted {
            ($0.videoID, $0.accuracy, $0.thumbnailCount, $0.thumbHeight, $0.thumbWidth) < ($1.videoID, $1.accuracy, $1.thumbnailCount, $1.thumbHeight, $1.thumbWidth)
        }
        var lines = [
            "| video | N | mode | whole process (s) | bound (s) | × bound | in process (s) | bound (s) | × bound | ffmpeg CLI (s) | CLI / whole process |",
            "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for request in requests {
            let wholeRun = whole[request], inProcessRun = inProcess[request]
            let cliMedian = cli[request]?.statistics.median
            let wholeMedian = wholeRun?.statistics.median
            lines.append("| \(MarkdownText.escaped(request.videoID)) | \(request.thumbnailCount) | \(MarkdownText.escaped(request.accuracy.description)) | "
                + "\(figure(wholeMedian)) | \(figure(wholeRun?.medianBoundSeconds)) | \(ratio(wholeMedian, wholeRun?.medianBoundSeconds)) | "
                + "\(figure(inProcessRun?.statistics.median)) | \(figure(inProcessRun?.medianBoundSeconds)) | "
                + "\(ratio(inProcessRun?.statistics.median, inProcessRun?.medianBoundSeconds)) | "
                + "\(figure(cliMedian)) | \(ratio(cliMedian, wholeMedian)) |")
        }
        if requests.isEmpty { lines.append("| (no default-pipeline rows in the file) | | | | | | | | | | |") }
        lines.append("")
        lines.append("Medians of each configuration's latest run; bound = start-up CPU (whole process only) + the larger of "
            + "the CPU time over the cores and the busiest worker's CPU time (`results/README.md`); × bound = wall / bound.")
        return lines.joined(separator: "\n") + "\n"
    }

    static func figure(_ value: Double?) -> String { value.map { String(format: $0 < 1 ? "%.3f" : "%.2f", $0) } ?? "—" }

    package static func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
        guard let numerator, let denominator, denominator > 0 else { return "—" }
        return String(format: "%.2f×", numerator / denominator)
    }
}
