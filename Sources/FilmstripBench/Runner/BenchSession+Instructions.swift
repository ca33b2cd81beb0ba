import Dispatch
import Filmstrip
import FilmstripResults
import Foundation
import Synchronization

extension BenchSession {
    /// Runs finished by worker threads, waiting for the session's thread to write them.
    private final class Finished: Sendable {
        let items = Mutex<[(job: Int, outcome: RunOutcome)]>([])
        let signal = DispatchSemaphore(value: 0)

        /// The runs finished since the last call.
        func take() -> [(job: Int, outcome: RunOutcome)] {
            items.withLock { items in
                defer { items.removeAll() }
                return items
            }
        }
    }

    /// One child run of an instruction session.
    private struct Job {
        var position: Int
        var buildIndex: Int
        var repetition: Int
    }

    /// `bench --measure instructions`: every configuration once per build (or `repetitions`
    /// times) under callgrind, `parallel` children at a time: instruction counts do not depend
    /// on the machine's load, so runs may share the cores. Peers are left out (they count other
    /// programs' instructions). Rows get `instructions` per phase plus a `startup` and a
    /// `process` row per run, and each run's profile is kept beside the results file.
    func runInstructions(configurations all: [BenchConfiguration], videos: [String: PreparedVideo], parallel: Int,
                         interruption: Interruption, progress: BenchProgress) throws -> Result {
        let configurations = all.filter { $0.peer == nil }
        if configurations.count < all.count {
            progress.note("bench: \(all.count - configurations.count) peer configuration(s) left out: instruction counts are filmstrip's own")
        }
        let writer = try ResultsFileWriter<RawResultRow>(path: files.raw)
        for repair in writer.repairs { progress.note("filmstrip: warning: \(repair)") }
        let profileFolder = files.profiles(runID: context.runID)
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: profileFolder), withIntermediateDirectories: true)

        let jobs = instructionJobs(configurations: configurations.count)
        progress.milestone("bench: \(configurations.count) configurations × \(matrix.repetitions) repetition(s)"
            + (builds.count > 1 ? " × \(builds.count) builds" : "") + " = \(jobs.count) runs under callgrind, \(parallel) at a time")

        var checker = AgreementChecker()
        var rows: [RawResultRow] = []
        var failures = 0, next = 0, running = 0, done = 0
        let finished = Finished()
        let start = ContinuousClock.now
        // Callgrind runs about 50× slower than the child alone.
        let timeLimit = matrix.timeLimitSeconds * 50
        while next < jobs.count || running > 0 {
            while running < parallel, next < jobs.count, interruption.signal == nil {
                let index = next, job = jobs[next]
                let configuration = configurations[job.position], runner = builds[job.buildIndex].runner
                next += 1
                running += 1
                DispatchQueue.global().async {
                    let outcome = runner.run(configuration, timeLimit: timeLimit, interruption: interruption)
                    finished.items.withLock { $0.append((index, outcome)) }
                    finished.signal.signal()
                }
            }
            guard running > 0 else { break }
            finished.signal.wait()
            for (index, outcome) in finished.take() {
                running -= 1
                done += 1
                let job = jobs[index], configuration = configurations[job.position], build = builds[job.buildIndex]
                let label = configuration.label + (build.role.map { " [\($0.rawValue)]" } ?? "")
                let elapsed = (ContinuousClock.now - start).seconds
                progress.running(label, round: "instructions", done: done, total: jobs.count,
                                 eta: elapsed / Double(done) * Double(jobs.count - done))
                if case .interrupted = outcome { continue }
                let recorded = try record(outcome, of: configuration, build: build, video: videos[configuration.videoID ?? ""],
                                          repetition: job.repetition, timeLimit: "\(Self.number(timeLimit)) s under callgrind",
                                          into: writer, checker: &checker, progress: progress) { measured, profile in
                    try keepProfile(profile, of: measured, job: job, label: configuration.label, build: build, folder: profileFolder)
                }
                if let reason = recorded.failure {
                    failures += 1
                    progress.note("filmstrip: \(label): \(reason)")
                }
                rows += recorded.rows
            }
        }
        progress.clear()
        if let signal = interruption.signal {
            return Result(rows: rows, summary: [], interruptedBy: signal, disagreements: checker.problemCount, failures: failures)
        }
        progress.milestone("bench: \(jobs.count) instruction runs done after \(BenchProgress.clock((ContinuousClock.now - start).seconds))")
        let summary = try writeSummary(rows, metrics: [.instructions])
        return Result(rows: rows, summary: summary, interruptedBy: nil, disagreements: checker.problemCount, failures: failures)
    }

    /// Writes a run's profile into `folder` and gives its rows their instruction counts, with the
    /// profile's path relative to the results file.
    private func keepProfile(_ profile: InstructionProfile, of measured: [RawResultRow], job: Job, label: String, build: Build,
                             folder: String) throws -> [RawResultRow] {
        let path = folder + "/" + Self.profileName(position: job.position, label: label, build: build.role, repetition: job.repetition)
        try StripWriter.writeAtomically(Array(profile.fileText.utf8), to: path)
        return Self.instructionRows(measured, profile: profile, relativePath: Self.relativePath(path, toFolderOf: files.raw))
    }

    /// Every configuration `repetitions` times under each build; the builds' order alternates as
    /// in a time run, though counts do not care.
    private func instructionJobs(configurations: Int) -> [Job] {
        (0..<matrix.repetitions).flatMap { repetition in
            (0..<configurations).flatMap { position in
                let order = (position + repetition) % 2 == 0 ? Array(builds.indices) : builds.indices.reversed()
                return order.map { Job(position: position, buildIndex: $0, repetition: repetition) }
            }
        }
    }

    /// The measured rows with their instructions and no times (the instrumented run's times
    /// are not the program's), plus a `startup` and a `process` row.
    static func instructionRows(_ rows: [RawResultRow], profile: InstructionProfile, relativePath: String) -> [RawResultRow] {
        guard let first = rows.first else { return rows }
        var result = rows
        for phase in [Phase.startup, .process] {
            var row = first
            row.phase = phase
            // The counters belong to the measured phases; these rows count instructions only.
            row.framesDecoded = nil
            row.packetsRead = nil
            row.seeks = nil
            row.bytesRead = nil
            row.videoBytes = nil
            row.heapAllocations = nil
            row.maxFrameError = nil
            result.append(row)
        }
        for index in result.indices {
            result[index].instructions = profile.instructions(for: result[index].phase)
            result[index].spanInstructions = profile.span(for: result[index].phase)
            result[index].profile = relativePath
            result[index].wallSeconds = nil
            result[index].cpuUserSeconds = nil
            result[index].cpuSysSeconds = nil
            result[index].thumbnailsPerSecond = nil
            result[index].waiting = nil
            result[index].peakRSSBytes = nil
            result[index].bound = nil
            // `rchar` under valgrind counts valgrind's own reading of the libraries' symbol tables.
            result[index].bytesRead = nil
        }
        // A phase the profile has no part for (an executable built before the marks) has no row.
        return result.filter { $0.instructions != nil }
    }

    /// `007-forward+rowcopy_h264-180p-3s_x10-candidate-r0.tsv`: position first, so a listing keeps the run's order.
    static func profileName(position: Int, label: String, build: BuildRole?, repetition: Int) -> String {
        let safe = String(label.map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || "+-.".contains($0) ? $0 : "_" }).prefix(120)
        return String(format: "%03d", position) + "-" + safe + "-" + (build?.rawValue ?? "run") + "-r\(repetition).tsv"
    }

    /// `path` relative to the folder holding `file` when inside it, else absolute.
    static func relativePath(_ path: String, toFolderOf file: String) -> String {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
        let full = URL(fileURLWithPath: path).standardizedFileURL.path
        return full.hasPrefix(folder + "/") ? String(full.dropFirst(folder.count + 1)) : full
    }
}
