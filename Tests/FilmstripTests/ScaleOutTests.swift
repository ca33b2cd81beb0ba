import CLITestSupport
import FilmstripProcess
@testable import Filmstrip
import Foundation
import Testing

/// `sprite --shard I/N` run by real engines (scripts/scale-out-test.sh): GNU parallel's local
/// slots and a one-node Slurm cluster the script starts, each shard into a folder of its own
/// (disjoint, union byte-identical to one unsharded run) and all into one folder.
@Suite("Scale-out on real engines")
struct ScaleOutTests {
    static let engines = ["parallel", "sbatch", "slurmctld", "slurmd", "munged"]
    static var enginesInstalled: Bool { engines.allSatisfy { CLIProcess.program(named: $0) != nil } }
    static var isRoot: Bool { getuid() == 0 }

    @Test("GNU parallel and Slurm: every shard's files disjoint, their union identical to one run",
          .enabled(if: enginesInstalled && isRoot, "needs root and GNU parallel, slurm-wlm and munge (scripts/setup.sh installs them)"))
    /// The binary is given by a relative path with a space from another folder (GNU parallel
    /// split it: exit 126/127), and the run leaves no work folder behind (its cleanup raced
    /// slurmctld's shutdown: exit 1 after "passed" in 1 of 2 runs, the folder left).
    func shardsEqualOneRun() throws {
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/scale-out-test.sh").path
        let caller = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: caller) }
        try FileManager.default.createDirectory(at: caller.appendingPathComponent("my tools"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: caller.appendingPathComponent("my tools/film strip").path,
                                                   withDestinationPath: CLIProcess.executable.path)
        let before = Self.workFolders()
        let run = try ChildProcess.run("/bin/bash", ["-c", "cd \"$1\" && exec /bin/bash \"$2\" --binary 'my tools/film strip' --shards 3",
                                                     "scale-out", caller.path, script],
                                       standardOutput: .capture, standardError: .capture, ownProcessGroup: true, timeLimit: 300)
        #expect(run.exitStatus == 0 && run.signal == nil, "\(run.output)\(run.errors)")
        for engine in ["GNU parallel:", "GNU parallel ({#} - 1):", "Slurm sbatch --array:"] {
            #expect(run.output.contains("scale-out-test: \(engine)"), "\(run.output)")
        }
        #expect(run.output.hasSuffix("scale-out-test: passed\n"), "\(run.output)")
        #expect(Self.workFolders().subtracting(before).isEmpty, "work folder left: \(Self.workFolders().subtracting(before))")
    }

    static func workFolders() -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("filmstrip-scale-out.") })
    }

    /// A `--binary` that does not exist is an error before anything runs (it silently tested
    /// .build/release/filmstrip instead, and passed). Needs no engine.
    @Test func missingBinaryIsRefused() throws {
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/scale-out-test.sh").path
        let missing = "/nonexistent/folder/filmstrip"
        let run = try ChildProcess.run("/bin/bash", [script, "--binary", missing], standardOutput: .capture, standardError: .capture,
                                       ownProcessGroup: true, timeLimit: 60)
        #expect(run.exitStatus == 64, "\(run.output)\(run.errors)")
        #expect(run.errors == "scale-out-test: --binary \(missing): not an executable file\n", "\(run.errors)")
    }
}
