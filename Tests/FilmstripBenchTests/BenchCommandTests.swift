import CLITestSupport
import Filmstrip
import FilmstripOpenMP
import Foundation
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// End-to-end tests of `filmstrip bench` and `filmstrip compare` through the built executable.
/// They never assert on timings: the machine is shared.
@Suite(.serialized) struct BenchCommandTests {
    static let tinyMatrix = CLISupport.tinyBenchMatrix

    @Test("bench --json: a progress object per run, then the result, each line parsed by JSONSerialization")
    func benchJSONLines() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("json").path
        let result = try CLISupport.run(["bench"] + Self.tinyMatrix + ["--out", name, "--fixtures-dir", CLISupport.fixturesDirectory, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let objects = try result.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let progress = objects.filter { $0["event"] as? String == "progress" }
        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        // One line per child run: two repetitions of every configuration (its phases are rows of one run).
        let runs = Set(rows.map { "\($0.pipeline) \($0.video.id) \($0.thumbnailCount) \($0.options.sorted { $0.key < $1.key }) \($0.repetition)" })
        #expect(progress.count == runs.count, "\(result.standardOutput)")
        #expect(progress.map { $0["done"] as? Int } == (0..<progress.count).map { $0 }, "in order, counting up")
        #expect(progress.allSatisfy { ($0["configuration"] as? String)?.isEmpty == false && $0["total"] as? Int == progress.count })
        #expect(objects.last?["event"] as? String == "done", "\(result.standardOutput)")
    }

    @Test func benchWritesParseableRawAndSummaryFiles() throws {
        let folder = try CLISupport.scratchDirectory()
        let name = folder.appendingPathComponent("tiny").path
        let arguments = ["bench"] + Self.tinyMatrix + ["--out", name, "--fixtures-dir", CLISupport.fixturesDirectory]
        let first = try CLISupport.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("fastest pipelines"))

        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        #expect(Set(rows.map(\.run.runID)).count == 1)
        #expect(rows.allSatisfy { $0.status == .ok && !$0.disagreement })
        #expect(rows.allSatisfy { ($0.wallSeconds ?? 0) > 0 && ($0.peakRSSBytes ?? 0) > 0 })
        let totals = rows.filter { $0.phase == .total }
        #expect(Set(totals.map(\.pipeline)) == ["sequential+rowcopy", "forward+rowcopy"])
        #expect(totals.count == 4)
        #expect(totals.allSatisfy { $0.thumbnailCount == 5 && $0.maxFrameError == 0 && ($0.framesDecoded ?? 0) >= 5 })
        #expect(Set(totals.map(\.checksum)).count == 1, "exact pipelines made different strips")
        for pipeline: PipelineName in ["sequential+rowcopy", "forward+rowcopy"] {
            let phases = rows.filter { $0.pipeline == pipeline }.map(\.phase)
            #expect(phases.filter { $0 == .extract }.count == 2 && phases.filter { $0 == .compose }.count == 2)
        }
        #expect(rows.contains { $0.phase == .calibration })
        #expect(rows.contains { $0.pipeline == "synthetic+memcpy" && $0.phase == .compose })
        #expect(Set(rows.map(\.repetition)) == [0, 1])

        let summary = try ResultsFileReader.read(SummaryRow.self, from: name + "-summary.csv")
        let wall = summary.filter { $0.metric == .wallSeconds }
        #expect(Set(wall.map(\.configurationKey)) == Set(rows.map(\.configurationKey)))
        #expect(wall.allSatisfy { $0.n == 2 && $0.min > 0 })

        // A second run appends under a new run id; the first run's rows stay.
        let second = try CLISupport.run(arguments)
        #expect(second.status == 0, "\(second.standardError)")
        let both = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        #expect(both.count == 2 * rows.count)
        #expect(Set(both.map(\.run.runID)).count == 2)
        #expect(Array(both.prefix(rows.count)) == rows)
    }

    @Test func interruptedBenchKeepsCompleteRowsOnly() async throws {
        let folder = try CLISupport.scratchDirectory()
        let name = folder.appendingPathComponent("interrupted").path
        let rawPath = name + "-raw.csv"
        let (process, output, error) = try CLISupport.start(
            ["bench", "--videos", "h264-180p-3s", "--counts", "5,10,20,40", "--repetitions", "50", "--warmup", "0",
             "--out", name, "--fixtures-dir", CLISupport.fixturesDirectory])
        let errorText = ReadToEnd(error), outputText = ReadToEnd(output)

        // Wait (without a deadline on speed: generous, only to avoid hanging forever) for the first row.
        var rowsBefore = 0
        for _ in 0..<1200 where process.isRunning {
            if let rows = try? ResultsFileReader.read(RawResultRow.self, from: rawPath), !rows.isEmpty {
                rowsBefore = rows.count
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(process.isRunning, "bench ended before it could be interrupted: \(String(decoding: errorText.wait(), as: UTF8.self))")
        process.interrupt()
        process.waitUntilExit()
        _ = outputText.wait()
        let stderr = String(decoding: errorText.wait(), as: UTF8.self)

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("interrupted"))
        let rows = try ResultsFileReader.read(RawResultRow.self, from: rawPath)
        #expect(rows.count >= max(1, rowsBefore))
        #expect(rows.allSatisfy { $0.status == .ok })
        // Rows come in whole runs: a pipeline run's extract, compose and total rows together.
        let pipelineRows = rows.filter { $0.kind == .pipeline }
        #expect(pipelineRows.count % 3 == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["interrupted-raw.csv"], "unexpected files: \(leftovers)")
        let partials = (try? FileManager.default.contentsOfDirectory(atPath: CLISupport.fixturesDirectory)) ?? []
        #expect(!partials.contains { $0.hasSuffix(".partial") && $0.contains(".\(process.processIdentifier).") })
    }

    /// `-q` means nothing but errors: a successful run printed where its rows went (2 lines).
    @Test func quietBenchPrintsNothing() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLISupport.run(["bench", "--videos", "h264-180p-3s", "--extractors", "forward", "--composers", "rowcopy", "--counts", "3",
                                         "--repetitions", "1", "--warmup", "0", "--pipelines-only", "-q",
                                         "--out", folder.appendingPathComponent("q").path, "--fixtures-dir", CLISupport.fixturesDirectory])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
        #expect(try !ResultsFileReader.read(RawResultRow.self, from: folder.appendingPathComponent("q-raw.csv").path).isEmpty)
    }

    /// `bench --baseline-rev` stopped by a signal while the baseline builds: the build's whole
    /// process group dies with it and its worktree is removed (a timeout's SIGTERM left the
    /// compiler writing into .build-baselines/ for about 90 s, and a prunable worktree).
    /// `swift` is a stand-in here (the real build takes minutes): a script that starts a
    /// child of its own writing into the worktree, as the compiler jobs do.
    @Test func interruptedBaselineBuildLeavesNothing() async throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let repository = folder.appendingPathComponent("repo"), tools = folder.appendingPathComponent("tools")
        for url in [repository, tools] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        try "// swift-tools-version:6.0\n".write(to: repository.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let pids = folder.appendingPathComponent("build-pids").path
        let fakeSwift = tools.appendingPathComponent("swift")
        try """
            #!/bin/bash
            package=${@: -1}
            ( while :; do date +%s%N >> "$package/compiling"; sleep 0.05; done ) &
            echo $! >> '\(pids)'
            wait
            """.write(to: fakeSwift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakeSwift.path)
        func git(_ arguments: [String]) throws -> String {
            let process = Process(), output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", repository.path, "-c", "user.name=t", "-c", "user.email=t@t"] + arguments
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        _ = try git(["init", "-q"])
        _ = try git(["add", "Package.swift"])
        _ = try git(["commit", "-qm", "base"])
        let commit = try git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)

        let bench = Process(), error = Pipe()
        bench.executableURL = CLIProcess.executable
        bench.arguments = ["bench", "--baseline-rev", "HEAD", "--videos", "h264-180p-3s", "--extractors", "forward", "--composers", "rowcopy",
                           "--counts", "3", "--repetitions", "1", "--warmup", "0", "--pipelines-only",
                           "--out", folder.appendingPathComponent("b").path, "--fixtures-dir", CLISupport.fixturesDirectory]
        bench.currentDirectoryURL = repository
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = tools.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        bench.environment = environment
        bench.standardOutput = FileHandle.nullDevice
        bench.standardError = error
        try bench.run()
        let errorText = ReadToEnd(error)
        let worktree = repository.appendingPathComponent(".build-baselines/\(commit)")
        for _ in 0..<600 where bench.isRunning && !FileManager.default.fileExists(atPath: worktree.appendingPathComponent("compiling").path) {
            try await Task.sleep(for: .milliseconds(100))
        }
        guard bench.isRunning else {
            Issue.record("bench ended before the build: \(String(decoding: errorText.wait(), as: UTF8.self))")
            return
        }
        bench.terminate()
        bench.waitUntilExit()
        let stderr = String(decoding: errorText.wait(), as: UTF8.self)
        #expect(bench.terminationStatus == 128 + SIGTERM, "\(stderr)")
        #expect(stderr.contains("interrupted by signal \(SIGTERM) while building the baseline"), "\(stderr)")
        // The build's own child is gone (no one writes into the worktree any more) ...
        let children = try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
        #expect(!children.isEmpty)
        try await Task.sleep(for: .milliseconds(300))
        // Gone or a zombie: its parent was killed, and whoever adopted it may reap it late.
        func running(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
        }
        for child in children { #expect(!running(child), "build child \(child) still running") }
        // ... and the worktree with git's record of it.
        #expect(!FileManager.default.fileExists(atPath: worktree.path))
        let worktrees = try git(["worktree", "list", "--porcelain"])
        #expect(!worktrees.contains(".build-baselines") && !worktrees.contains("prunable"), "\(worktrees)")
    }

    @Test func compareExitsZeroTwoThreeOrOne() throws {
        let folder = try CLISupport.scratchDirectory()
        func write(_ rows: [RawResultRow], _ file: String) throws -> String {
            let path = folder.appendingPathComponent(file).path
            let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
            for row in rows { try writer.append(row) }
            return path
        }
        let steady = (0..<8).map { 1.0 + Double($0 % 3) * 0.001 }
        let baseline = try write(Fixtures.rows(steady), "baseline.csv")
        let same = try write(Fixtures.rows(steady.reversed()), "same.csv")
        let slower = try write(Fixtures.rows(steady.map { $0 * 1.5 }), "slower.csv")
        let garbage = folder.appendingPathComponent("garbage.csv").path
        try "not,a,results\nfile,at,all\n".write(toFile: garbage, atomically: true, encoding: .utf8)

        let passed = try CLISupport.run(["compare", baseline, same])
        #expect(passed.status == 0, "\(passed.standardOutput)")
        #expect(passed.standardOutput.contains("passed"))

        let regressed = try CLISupport.run(["compare", baseline, slower, "--threshold", "10%", "--format", "markdown"])
        #expect(regressed.status == 2, "\(regressed.standardOutput)")
        #expect(regressed.standardOutput.contains("| configuration |"))

        // JSON on stdout for every outcome, read back with a real parser.
        let json = try CLISupport.run(["compare", baseline, slower, "--threshold", "10%", "--format", "json", "--only-changed"])
        #expect(json.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "regressed" && object["only_changed"] as? Bool == true)
        #expect((object["configurations"] as? [[String: Any]])?.first?["verdict"] as? String == "slower")
        let unreadable = try CLISupport.run(["compare", baseline, garbage, "--format", "json"])
        #expect(unreadable.status == 1 && !unreadable.standardError.isEmpty)
        let error = try #require(try JSONSerialization.jsonObject(with: Data(unreadable.standardOutput.utf8)) as? [String: Any])
        #expect(error["outcome"] as? String == "bad_input" && error["error"] is String)

        #expect(try CLISupport.run(["compare", baseline, garbage]).status == 1)
        #expect(try CLISupport.run(["compare", baseline, folder.appendingPathComponent("missing.csv").path]).status == 1)
        // Argument errors are not gate outcomes: ArgumentParser's usage error.
        #expect(try CLISupport.run(["compare", baseline, same, "--threshold", "lots"]).status == 64)
        // A file compared with itself (here through a link) shows nothing: a usage error, not a pass.
        let link = folder.appendingPathComponent("link.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: baseline)
        let itself = try CLISupport.run(["compare", baseline, link])
        #expect(itself.status == 64 && itself.standardError.contains("same file"))
    }

    /// A two-build run: every configuration under both executables in every repetition,
    /// rows marked with the build and the commit each executable recorded when it was built,
    /// work counters filled in, and `compare FILE` judging it pair by pair.
    @Test func twoBuildRunPairsEveryRepetition() throws {
        let folder = try CLISupport.scratchDirectory()
        let name = folder.appendingPathComponent("ab").path
        let executable = CLIProcess.executable.path
        let matrix = ["--videos", "h264-180p-3s", "--extractors", "sequential,forward", "--composers", "rowcopy",
                      "--counts", "5", "--repetitions", "1", "--warmup", "0", "--no-until-decided"]
        let result = try CLISupport.run(["bench"] + matrix
            + ["--out", name, "--fixtures-dir", CLISupport.fixturesDirectory, "--baseline-binary", executable])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("filmstrip compare \(name)-raw.csv"))
        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        let version = try CLISupport.run(["--version"]).standardOutput
        let commit = try #require(rows.first?.executableCommit)
        #expect(commit.count >= 40 && commit != "unknown" && version.contains(commit), "\(version)")
        for role in BuildRole.allCases {
            let built = rows.filter { $0.build == role }
            #expect(Set(built.map(\.configurationKey)) == Set(rows.map(\.configurationKey)))
            #expect(built.filter { $0.phase == .total }.count == 2)
        }
        let totals = rows.filter { $0.phase == .total }
        #expect(totals.allSatisfy { ($0.packetsRead ?? 0) >= 5 && ($0.seeks ?? -1) >= 0 && ($0.videoBytes ?? 0) > 0 && ($0.heapAllocations ?? 0) > 0 })
        // Work counters of single-threaded decoding do not depend on the run: equal in every repetition and build.
        for pipeline: PipelineName in ["sequential+rowcopy", "forward+rowcopy"] {
            let runs = totals.filter { $0.pipeline == pipeline }
            let counts = Set(runs.map { [$0.framesDecoded, $0.packetsRead, $0.videoBytes, $0.seeks, $0.heapAllocations] })
            #expect(counts.count == 1, "\(pipeline): \(counts)")
        }
        // One pair is too few for any verdict: undecided, exit 3, never a pass.
        let compare = try CLISupport.run(["compare", name + "-raw.csv"])
        #expect(compare.status == 3, "\(compare.standardOutput)\(compare.standardError)")
        #expect(compare.standardOutput.contains("paired:") && compare.standardOutput.hasPrefix("undecided: "))
    }

    /// Allocation counts are the micro-benchmark gate that a shared machine cannot make noisy:
    /// no composer may allocate per thumbnail or per tile (tiled once made 781 allocations per
    /// 500-thumbnail strip, an array per tile; it makes 1; openmp's threads make about 130).
    /// Measured by the bench child's counter.
    @Test func composersDoNotAllocatePerThumbnail() throws {
        FilmstripOpenMP.register()
        for composer in Composers.all {
            let configuration = BenchConfiguration.composeSynthetic(.init(composer), thumbnailCount: BenchMatrix.syntheticCount,
                                                                    thumbHeight: BenchMatrix.syntheticHeight)
            let json = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
            let result = try CLISupport.run(["bench-run", "--config", json])
            #expect(result.status == 0, "\(result.standardError)")
            let line = try #require(result.standardOutput.split(separator: "\n").last)
            let measurement = try JSONDecoder().decode(BenchMeasurement.self, from: Data(line.utf8))
            let allocations = try #require(measurement.phases.first?.heapAllocations)
            #expect(allocations < BenchMatrix.syntheticCount, "\(composer.name): \(allocations) allocations")
        }
    }

    /// The error-rate experiment in miniature (scripts/gate-error-rates.sh): both two-build runs,
    /// the slower candidate through the LD_PRELOAD shim, the split into gates, both metrics.
    /// Only the mechanics are checked: two pairs per gate are too few for any verdict (undecided).
    @Test func gateErrorRateExperimentRunsEndToEnd() throws {
        let folder = try CLISupport.scratchDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [CLISupport.packageRoot.appendingPathComponent("scripts/gate-error-rates.sh").path,
                             "--binary", CLIProcess.executable.path, "--gates", "2", "--pairs", "2", "--slowdown", "1.0",
                             "--out", folder.path, "--fixtures-dir", CLISupport.fixturesDirectory,
                             "--", "--videos", "h264-180p-3s", "--extractors", "forward", "--composers", "rowcopy", "--counts", "5", "--pipelines-only"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        for metric in ["wall_s", "cpu_s"] {
            #expect(text.contains("\(metric) A/A:  false alarms 0/2 (passed 0, undecided 2, could not compare 0)"), "\(text)")
            #expect(text.contains("\(metric) A/B': caught 0/2 (passed 0, undecided 2, could not compare 0)"), "\(text)")
        }
        // The shim was loaded: the slower candidate's rows exist and came from the same commit.
        let rows = try ResultsFileReader.read(RawResultRow.self, from: folder.appendingPathComponent("ab-raw.csv").path)
        #expect(Set(rows.compactMap(\.build)) == [.baseline, .candidate])
        #expect(Set(rows.map(\.executableCommit)).count == 1)
    }

    @Test func benchRejectsBadMatrices() throws {
        for arguments in [["--extractors", "teleport"], ["--counts", "0"], ["--accuracy", "roughly"], ["--videos", "nope"],
                          ["--repetitions", "0"], ["--max-pairs", "1"], ["--max-minutes", "0"], ["--baseline-binary", "/nonexistent"], ["--candidate-binary", "/bin/true"]] {
            let result = try CLISupport.run(["bench"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
        }
    }
}
