import ArgumentParser
import Filmstrip
import FilmstripBench
import FilmstripFixtures

/// `bench`'s matrix on the command line: the suite, whose default matrix it starts from, and
/// the comma-separated lists that replace its parts. A table of lists, one option a line.
struct BenchMatrixOptions: ParsableArguments {
    @Option(help: "Suite whose default matrix and videos to use: quick (under 2 min), standard (under 10 min), full (long) (default: quick).",
            completion: .list(ReferenceSuite.allCases.map(\.rawValue)), transform: OptionValues.suite)
    var suite: ReferenceSuite = .quick

    @Option(help: "Extractors, e.g. sequential,forward (\(Extractors.all.map(\.name).joined(separator: ", "))).") var extractors: String?
    @Option(help: "Composers, e.g. rowcopy,simd (\(StripDestination.all.map(\.name).joined(separator: ", "))).") var composers: String?
    @Option(help: "Reference video ids (see `filmstrip fixtures --list --suite full`), video files and folders of them (scanned into subfolders), comma-separated; with --suite full the seed study runs only when one of its videos is listed.") var videos: String?
    @Option(help: "Thumbnail counts, e.g. 10,100,500.") var counts: String?
    @Option(help: "Thumbnail heights in pixels, e.g. 64,128.") var heights: String?
    @Option(help: "Accuracy modes: exact, keyframe, tolerance:SEC.") var accuracy: String?
    @Option(help: "Decoder threads per setting, e.g. 1,0 (0: one per core).") var threads: String?
    @Option(name: .customLong("skip-non-reference"), help: "Settings of 'skip non-reference frames' to sweep, e.g. 0,1.") var skipNonReference: String?
    @Option(help: "Worker counts for the extractors that take workers, e.g. 1,2,4 (default: one per core).") var workers: String?
    @Option(help: "Timed runs per configuration.") var repetitions: Int?
    @Option(help: "Untimed runs per configuration before the timed ones.") var warmup: Int?
    @Option(name: .customLong("time-limit"), help: "Seconds one run may take before it is killed and its configuration dropped.") var timeLimit: Double?

    /// The suite's default matrix with the given lists replacing its parts; `peers` adds the
    /// outside tools, `pipelinesOnly` leaves out the reference runs, and `oneRunEach` (instruction
    /// counts, which repeat to within 0.1 %) makes one run per configuration and build.
    func matrix(peers: Bool, pipelinesOnly: Bool, oneRunEach: Bool) throws -> BenchMatrix {
        var matrix = BenchMatrix.defaults(for: suite)
        if let chosen = try choices(extractors, "--extractors", kind: "extractor", among: Extractors.all.map { ($0.name, $0) }) { matrix.extractors = chosen }
        if let chosen = try choices(composers, "--composers", kind: "composer", among: StripDestination.all.map { ($0.name, $0) }) { matrix.composers = chosen }
        if let items = try list(videos, "--videos") {
            let resolution = UserVideos.resolve(items) { ReferenceSuite.spec(id: $0) != nil }
            guard resolution.unknown.isEmpty else {
                throw ValidationError("Unknown video(s) \(resolution.unknown.map(FileSystemName.display).joined(separator: ", ")): neither a reference video id (`filmstrip fixtures --list --suite full`) nor a file or folder.")
            }
            guard resolution.problems.isEmpty else { throw ValidationError(resolution.problems.map(FileSystemName.display).joined(separator: "; ")) }
            matrix.videoIDs = resolution.allIDs
            matrix.userVideos = Dictionary(uniqueKeysWithValues: resolution.videos.map { ($0.id, $0.path) })
            // The seed study (`full`) runs on its own 1080p videos: only when one is listed,
            // so a check of the full suite on one small video takes seconds.
            matrix.seedStudy = matrix.seedStudy && resolution.referenceIDs.contains { BenchMatrix.seedVideoIDs.contains($0) }
        }
        matrix.referenceRuns = !pipelinesOnly
        if let values = try numbers(counts, "--counts", minimum: 1) { matrix.counts = values }
        if let values = try numbers(heights, "--heights", minimum: 1) { matrix.heights = values }
        if let values = try numbers(threads, "--threads", minimum: 0) { matrix.decoderThreads = values }
        if let modes = try list(accuracy, "--accuracy") {
            let bad = modes.filter { Accuracy(parsing: $0) == nil }
            guard bad.isEmpty else {
                throw ValidationError("Unknown accuracy \(bad.joined(separator: ", ")): use exact, keyframe or tolerance:SEC."
                    + Suggestion.sentence(for: bad[0], among: ["exact", "keyframe", "tolerance"]))
            }
            matrix.accuracies = modes.compactMap(Accuracy.init(parsing:))
        }
        if peers { matrix.peers = true }
        if let values = try numbers(skipNonReference, "--skip-non-reference", minimum: 0) {
            guard values.allSatisfy({ $0 <= 1 }) else { throw ValidationError("--skip-non-reference takes 0 and/or 1.") }
            matrix.skipNonReference = values.map { $0 == 1 }
        }
        if let values = try numbers(workers, "--workers", minimum: 1) { matrix.workerCounts = values }
        // Instruction counts repeat to within 0.1 %: one run per configuration and build.
        if oneRunEach {
            matrix.repetitions = 1
            matrix.warmup = 0
        }
        if let repetitions {
            guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1.") }
            matrix.repetitions = repetitions
        }
        if let warmup {
            guard warmup >= 0 else { throw ValidationError("--warmup must not be negative.") }
            matrix.warmup = warmup
        }
        if let timeLimit {
            guard timeLimit > 0 else { throw ValidationError("--time-limit must be positive.") }
            matrix.timeLimitSeconds = timeLimit
        }
        return matrix
    }

    private func list(_ text: String?, _ flag: String) throws -> [String]? {
        guard let text else { return nil }
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw ValidationError("\(flag) needs at least one value.") }
        return items
    }

    /// The values a comma-separated list names, each among `values` (a mistyped one gets the closest name).
    private func choices<Value>(_ text: String?, _ flag: String, kind: String, among values: [(name: String, value: Value)]) throws -> [Value]? {
        guard let names = try list(text, flag) else { return nil }
        return try names.map { try OptionValues.choice($0, kind: kind, among: values) }
    }

    private func numbers(_ text: String?, _ flag: String, minimum: Int) throws -> [Int]? {
        guard let items = try list(text, flag) else { return nil }
        let values = items.compactMap { Int($0) }
        guard values.count == items.count, values.allSatisfy({ $0 >= minimum }) else {
            throw ValidationError("\(flag) takes whole numbers of at least \(minimum), comma-separated.")
        }
        return values
    }
}
