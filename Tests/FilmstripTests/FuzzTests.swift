import CLITestSupport
@testable import Filmstrip
import Foundation
import Testing

/// Mutated reference videos through `info` and `strip`, each a child process with a time
/// limit: no crash (death by a signal), no hang, no file left behind, and every failure one
/// line naming the file. CI runs `FILMSTRIP_FUZZ_CASES` mutants (default 40) from
/// `FILMSTRIP_FUZZ_SEED` (default 11), the same ones every time; `scripts/fuzz.sh` runs more.
@Suite("Fuzzing")
struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["FILMSTRIP_FUZZ_SEED"].flatMap { UInt64($0) } ?? 11
    static let caseCount = environment["FILMSTRIP_FUZZ_CASES"].flatMap { Int($0) } ?? 40
    /// `FILMSTRIP_FUZZ_VERBOSE=1` prints every error line (`fuzz-reason`) and every mutant
    /// `info` accepts but `strip` refuses, for `scripts/fuzz.sh` to summarise.
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

    @Test("mutated reference videos never crash, hang or leave files", arguments: 0..<caseCount)
    func mutant(caseNumber: Int) throws {
        let video = Self.videos[caseNumber % Self.videos.count]
        let original = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.video(video)))
        var mutator = FuzzMutator(seed: Self.seed, caseNumber: caseNumber)
        let (bytes, kind) = mutator.mutate(original)
        let folder = try TestSupport.scratchDirectory()
        let name = "mutant-\(caseNumber)-\(video)-\(kind.rawValue).\(URL(fileURLWithPath: try TestSupport.video(video)).pathExtension)"
        let path = folder.appendingPathComponent(name).path
        try bytes.write(to: URL(fileURLWithPath: path))
        let strip = folder.appendingPathComponent("strip.png").path
        let variant = Self.stripVariants[caseNumber % Self.stripVariants.count]
        let reproduce = "FILMSTRIP_FUZZ_SEED=\(Self.seed) case \(caseNumber) (\(video), \(kind.rawValue)); the mutant is kept at \(path)"
        var failed = false
        var statuses: [Int32] = []
        for arguments in [["info", path], ["strip", path, "-o", strip] + variant] {
            let outcome = try BoundedCLI.run(arguments, timeout: 60, executable: Self.executable)
            let errors = outcome.standardError.split(separator: "\n").filter { !$0.hasPrefix("filmstrip: warning:") }
            func check(_ condition: Bool, _ what: String) {
                if !condition { failed = true; Issue.record("\(arguments.first!): \(what). \(reproduce). stderr: \(outcome.standardError)") }
            }
            statuses.append(outcome.status)
            if Self.verbose, let reason = errors.first {
                print("fuzz-reason \(arguments[0]) \(kind.rawValue): \(reason.replacingOccurrences(of: path, with: "MUTANT"))")
            }
            check(!outcome.timedOut, "hung for 60 s")
            check(!outcome.crashed, "crashed (signal \(outcome.status))")
            if outcome.status == 0 {
                check(errors.isEmpty, "exit 0 with errors")
            } else {
                check(outcome.status == 1, "exit \(outcome.status), not 1")
                check(errors.count == 1 && errors[0].contains(path), "the error is not one line naming the file")
            }
            if arguments[0] == "strip" {
                check(FileManager.default.fileExists(atPath: strip) == (outcome.status == 0), "strip file present after exit \(outcome.status)")
            }
        }
        if Self.verbose, statuses == [0, 1] { print("fuzz-info-accepted-strip-refused case \(caseNumber) \(video) \(kind.rawValue)") }
        let left = BoundedCLI.leftovers(in: folder, besides: [name, "strip.png"])
        if !left.isEmpty { failed = true; Issue.record("left behind: \(left). \(reproduce)") }
        if !failed { try? FileManager.default.removeItem(at: folder) }
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
    }
}
