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
    func shardsEqualOneRun() throws {
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/scale-out-test.sh").path
        let run = try ChildProcess.run("/bin/bash", [script, "--binary", CLIProcess.executable.path, "--shards", "3"],
                                       standardOutput: .capture, standardError: .capture, ownProcessGroup: true, timeLimit: 300)
        #expect(run.exitStatus == 0 && run.signal == nil, "\(run.output)\(run.errors)")
        for engine in ["GNU parallel:", "GNU parallel ({#} - 1):", "Slurm sbatch --array:"] {
            #expect(run.output.contains("scale-out-test: \(engine)"), "\(run.output)")
        }
    }
}
