import CLITestSupport
@testable import Filmstrip
@testable import FilmstripFixtures
import FilmstripProcess
import Foundation
import Testing

/// Mutated reference videos through `info`, `strip` and `sprite` (its three formats in turn),
/// each a child process with a time limit: no crash (death by a signal), no hang, no peak RSS of
/// 1 GB or more, no file left behind, and every failure one line naming the file. Two cases in
/// three damage the bytes (``FuzzMutator``), the third the timestamps (``TimestampMutation``:
/// gaps, jumps back, 33-bit wraps, durations of decades). CI runs `FILMSTRIP_FUZZ_CASES` mutants
/// (default 40) from `FILMSTRIP_FUZZ_SEED` (default 11), the same ones every time;
/// `scripts/fuzz.sh` runs more.
@Suite("Fuzzing")
struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["FILMSTRIP_FUZZ_SEED"].flatMap { UInt64($0) } ?? 11
    static let caseCount = environment["FILMSTRIP_FUZZ_CASES"].flatMap { Int($0) } ?? 40
    /// `FILMSTRIP_FUZZ_VERBOSE=1` prints every error line (`fuzz-reason`), every run's peak RSS
    /// (`fuzz-rss`) and every mutant `info` accepts but `strip` refuses, for `scripts/fuzz.sh` to summarise.
    static let verbose = environment["FILMSTRIP_FUZZ_VERBOSE"] == "1"
    /// `FILMSTRIP_FUZZ_EXECUTABLE` runs another build's `filmstrip` on the same mutants, to compare versions.
    static let executable = environment["FILMSTRIP_FUZZ_EXECUTABLE"].map { URL(fileURLWithPath: $0) } ?? CLIProcess.executable
    /// The quick suite's videos, but the 20-second one, whose mutants take longest to decode.
    static let videos = ReferenceSuite.quick.specs.map(\.id).filter { $0 != "h264-360p-20s" }
    static let stripVariants: [[String]] = [
        ["--count", "5"],
        ["--count", "4", "--accuracy", "keyframe", "--extractor", "sequential"],
        ["--count", "6", "--extractor", "scan", "--composer", "fused"],
        ["--count", "3", "--extractor", "forward", "--accuracy", "tolerance:0.5"],
    ]
    /// The most memory any run may take on an input under 1 MB.
    static let peakRSSLimit = 1 << 30
    /// Address space each run may reserve: a memory bomb fails there (and is reported as a
    /// crash or an RSS over the limit) instead of taking a shared machine's memory.
    /// `FILMSTRIP_FUZZ_ADDRESS_SPACE_KIB` lowers it (`scripts/fuzz.sh --ulimit-v KIB`), so that
    /// the same mutants also run short of memory: that must be an error naming the file (exit 1),
    /// never a crash.
    static let addressSpaceKiB = environment["FILMSTRIP_FUZZ_ADDRESS_SPACE_KIB"].flatMap { Int($0) } ?? 4 << 20

    /// How one run ended, with the child's own peak RSS (`wait4`).
    struct Outcome {
        var status: Int32
        var crashed: Bool
        var timedOut: Bool
        var standardError: String
        var peakRSSBytes: Int
    }

    static func run(_ arguments: [String]) throws -> Outcome {
        // bash sets the limit and `exec`s, so the pid, its exit and its usage are filmstrip's own.
        let run = try ChildProcess.run("/bin/bash", ["-c", "ulimit -v \(addressSpaceKiB) && exec \"$0\" \"$@\"", executable.path] + arguments,
                                       standardOutput: .discard, standardError: .capture, timeLimit: 60)
        return Outcome(status: run.signal ?? run.exitStatus, crashed: run.signal != nil && !run.timedOut, timedOut: run.timedOut,
                       standardError: run.errors, peakRSSBytes: run.peakRSSBytes)
    }

    /// Writes the mutant of case `caseNumber` of `video` into `folder`: its file name, kind, and
    /// nil when ffmpeg could not make a timestamp mutant (a muxer refusing the times).
    static func makeMutant(caseNumber: Int, video: String, in folder: URL) throws -> (name: String, kind: String)? {
        let source = try TestSupport.video(video)
        if caseNumber % 3 == 2 {
            let mutation = TimestampMutation(seed: seed, caseNumber: caseNumber)
            let kind = "timestamp-\(mutation.kind.rawValue)"
            let name = "mutant-\(caseNumber)-\(video)-\(kind).\(mutation.fileExtension)"
            let ffmpeg = try #require(ChildProcess.find("ffmpeg"), "the ffmpeg CLI makes the timestamp mutants (scripts/setup.sh)")
            let made = try ChildProcess.run(ffmpeg, mutation.ffmpegArguments(input: source, output: folder.appendingPathComponent(name).path),
                                            standardError: .capture, timeLimit: 60)
            if !made.succeeded {
                if verbose { print("fuzz-unmade case \(caseNumber) \(video) \(kind): \(made.errors.split(separator: "\n").first ?? "")") }
                return nil
            }
            return (name, kind)
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        var mutator = FuzzMutator(seed: seed, caseNumber: caseNumber)
        let (bytes, kind) = mutator.mutate(original)
        let name = "mutant-\(caseNumber)-\(video)-\(kind.rawValue).\(URL(fileURLWithPath: source).pathExtension)"
        try bytes.write(to: folder.appendingPathComponent(name))
        return (name, kind.rawValue)
    }

    @Test("mutated reference videos never crash, hang, bloat or leave files", arguments: 0..<caseCount)
    func mutant(caseNumber: Int) throws {
        let video = Self.videos[caseNumber % Self.videos.count]
        let folder = try TestSupport.scratchDirectory()
        guard let (name, kind) = try Self.makeMutant(caseNumber: caseNumber, video: video, in: folder) else {
            try? FileManager.default.removeItem(at: folder)
            return
        }
        let path = folder.appendingPathComponent(name).path
        let strip = folder.appendingPathComponent("strip.png").path
        let sprites = folder.appendingPathComponent("sprite")
        let thumbnails = folder.appendingPathComponent("thumbnails")
        let variant = Self.stripVariants[caseNumber % Self.stripVariants.count]
        let format = SpriteFormat.allCases[caseNumber / 3 % SpriteFormat.allCases.count].rawValue
        let reproduce = "FILMSTRIP_FUZZ_SEED=\(Self.seed) case \(caseNumber) (\(video), \(kind)); the mutant is kept at \(path)"
        var failed = false
        var statuses: [Int32] = []
        for arguments in [["info", path], ["strip", path, "-o", strip] + variant,
                          ["sprite", path, "-o", sprites.path, "--format", format, "--interval", "0.5"],
                          ["thumbnails", path, "--count", "4", "--out-dir", thumbnails.path]] {
            let outcome = try Self.run(arguments)
            let errors = outcome.standardError.split(separator: "\n").filter { !$0.hasPrefix("filmstrip: warning:") }
            let command = arguments[0] == "sprite" ? "sprite --format \(format)" : arguments[0]
            func check(_ condition: Bool, _ what: String, class failure: String = "other") {
                guard !condition else { return }
                failed = true
                if Self.verbose { print("fuzz-failure \(failure) \(command) case \(caseNumber) \(video) \(kind)") }
                let message = Comment(rawValue: "\(command): \(what). \(reproduce). stderr: \(outcome.standardError)")
                Issue.record(message)
            }
            statuses.append(outcome.status)
            if Self.verbose {
                if let reason = errors.first { print("fuzz-reason \(arguments[0]) \(kind): \(reason.replacingOccurrences(of: path, with: "MUTANT"))") }
                print("fuzz-exit \(command) \(outcome.crashed ? "signal" : "exit") \(outcome.status) case \(caseNumber)")
                print("fuzz-rss \(outcome.peakRSSBytes) \(command) case \(caseNumber) \(video) \(kind)")
            }
            check(!outcome.timedOut, "hung for 60 s", class: "hang")
            check(!outcome.crashed, "crashed (signal \(outcome.status))", class: "crash")
            check(outcome.peakRSSBytes < Self.peakRSSLimit, "peak RSS \(outcome.peakRSSBytes >> 20) MiB for a \(try Self.size(path) >> 10) KiB input", class: "rss")
            if outcome.status == 0 {
                check(errors.isEmpty, "exit 0 with errors")
            } else if !outcome.crashed && !outcome.timedOut {
                check(outcome.status == 1, "exit \(outcome.status), not 1")
                check(errors.count == 1 && errors[0].contains(path), "the error is not one line naming the file")
            }
            if arguments[0] == "strip" {
                check(FileManager.default.fileExists(atPath: strip) == (outcome.status == 0), "strip file present after exit \(outcome.status)")
            }
            if arguments[0] == "sprite" || arguments[0] == "thumbnails" {
                let output = arguments[0] == "sprite" ? sprites : thumbnails
                let all = FileManager.default.enumerator(atPath: output.path)?.allObjects.compactMap { $0 as? String } ?? []
                let temporaries = all.filter { $0.hasSuffix(".tmp") || $0.hasSuffix(".partial") }
                check(temporaries.isEmpty, "temporary files left: \(temporaries)")
            }
        }
        if Self.verbose, statuses.prefix(2) == [0, 1] { print("fuzz-info-accepted-strip-refused case \(caseNumber) \(video) \(kind)") }
        let left = BoundedCLI.leftovers(in: folder, besides: [name, "strip.png", "sprite", "thumbnails"])
        if !left.isEmpty { failed = true; Issue.record("left behind: \(left). \(reproduce)") }
        if !failed { try? FileManager.default.removeItem(at: folder) }
    }

    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    @Test("the mutator is deterministic and does every kind of damage")
    func mutatorIsDeterministic() {
        let original = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }) + Data("moov\0\0\0\0stsz".utf8) + Data(count: 5000)
        var kinds = Set<FuzzMutator.Kind>()
        for caseNumber in 0..<200 {
            var first = FuzzMutator(seed: 7, caseNumber: caseNumber), second = FuzzMutator(seed: 7, caseNumber: caseNumber)
            let a = first.mutate(original), b = second.mutate(original)
            #expect(a.bytes == b.bytes && a.kind == b.kind)
            kinds.insert(a.kind)
        }
        #expect(kinds == Set(FuzzMutator.Kind.allCases))
        var timestampKinds = Set<TimestampMutation.Kind>()
        for caseNumber in 0..<100 {
            let first = TimestampMutation(seed: 7, caseNumber: caseNumber), second = TimestampMutation(seed: 7, caseNumber: caseNumber)
            #expect(first.ffmpegArguments(input: "a", output: "b") == second.ffmpegArguments(input: "a", output: "b"))
            timestampKinds.insert(first.kind)
        }
        #expect(timestampKinds == Set(TimestampMutation.Kind.allCases))
    }
}
