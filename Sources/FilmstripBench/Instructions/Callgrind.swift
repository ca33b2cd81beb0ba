import Filmstrip
import FilmstripProcess
import FilmstripResults
import Foundation

/// Counts a `bench-run` child's instructions by running it under valgrind's callgrind
/// (`bench --measure instructions`).
///
/// Why instructions: they do not depend on the machine's load or speed. One run per
/// configuration and build is enough, runs may share the cores, and a 1 % change is visible
/// where a time gate needs dozens of pairs. Why callgrind and not cachegrind: valgrind 3.19's
/// cachegrind cannot start and stop counting, while callgrind's `--dump-before=FUNCTION`
/// writes the counts so far as one profile part each time the child enters a mark function
/// (`CInstructionMarks`), which gives per-phase counts from one run. Costs about 50× the
/// native time (2–3 s for a quick-suite run).
///
/// Valgrind 3.19 cannot read the DWARF 5 debug information Swift 6.3 writes ("debuginfo
/// reader: Possibly corrupted debuginfo file … Giving up"), so executables are run from copies
/// made with `strip --strip-debug` (the symbol table stays, so functions keep their names). A
/// wrapper script given as an executable cannot be stripped from outside: the binary it
/// starts must have been stripped already; the failure says so.
package struct Callgrind: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Absolute path of `valgrind`.
    package let valgrind: String

    /// Valgrind on PATH, or the reason it cannot be used. Also sets, for the children this
    /// process starts, what would otherwise make counts depend on the scheduling, not on the work:
    /// - OpenMP's idle threads sleep at once: its default spins for a while (measured A/A: the
    ///   OpenMP composer's count moved by 2.2 % between identical runs);
    /// - the dynamic loader binds every symbol at start-up (`LD_BIND_NOW`): bound lazily, a
    ///   function is looked up by the first thread to call it, and threads that race to call it
    ///   first each look it up (measured A/A: the OpenMP composer's phase moved by up to 0.95 %,
    ///   all of it `strcmp` and `do_lookup_x` in the loader);
    /// - the task group deals each worker its share of the plan before decoding
    ///   (`fixedWorkerSharesVariable`): valgrind runs one thread at a time, and with the shared
    ///   queue one worker could drain it before another started (a two-worker `extract` read
    ///   parallelism 1.04 in one run and about 2 in another), so the span depended on scheduling.
    package static func find() throws(Failure) -> Callgrind {
        guard let path = ChildProcess.find("valgrind") else {
            throw Failure(description: "valgrind is not installed: `--measure instructions` runs every configuration under it (apt-get install valgrind; scripts/setup.sh installs it)")
        }
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1)
        setenv("KMP_BLOCKTIME", "0", 1)
        setenv("LD_BIND_NOW", "1", 1)
        setenv(fixedWorkerSharesVariable, "1", 1)
        return Callgrind(valgrind: path)
    }

    /// Set to 1 for the children of an instruction run: a `bench-run` child then sets
    /// `ExtractionOptions.fixedWorkerShares`. An environment variable, not an argument, so that a
    /// baseline build from before it still runs (with the shared queue).
    static let fixedWorkerSharesVariable = "FILMSTRIP_FIXED_WORKER_SHARES"

    /// Whether this process is a child of an instruction run (``fixedWorkerSharesVariable``).
    static var dealsFixedWorkerShares: Bool { ProcessInfo.processInfo.environment[fixedWorkerSharesVariable] == "1" }

    /// The command line that runs `program arguments` under callgrind, writing its parts into `folder`.
    /// `separateThreads`: the span run (``InstructionSpan``): each thread's counts apart, and a part
    /// written when each thread ends.
    func commandLine(program: String, arguments: [String], folder: String, separateThreads: Bool = false) -> [String] {
        let spanOptions = separateThreads ? ["--separate-threads=yes", "--dump-before=\(InstructionSpan.threadEnds)"] : []
        return [
            "--tool=callgrind", "--quiet",
            // Threads take turns in a fixed order. With valgrind's default lock, which worker got
            // which parts of a taskgroup plan varied (one decoder and scaler more or fewer), and
            // identical runs' extract phases moved by up to 1.33 % (3 of 8 runs over 0.45 %);
            // with turns, by at most 0.30 % in 6 runs (each 36 taskgroup configurations × 2 builds).
            "--fair-sched=yes",
            // A wrapper script (`LD_PRELOAD=… exec filmstrip "$@"`) is followed into the program it starts.
            "--trace-children=yes",
            "--callgrind-out-file=\(folder)/callgrind.%p",
            // Full names on every line, so each part parses on its own.
            "--compress-strings=no", "--compress-pos=no",
        ] + spanOptions + InstructionProfile.marks.map { "--dump-before=\($0)" } + [program] + arguments
    }

    /// Every part written into `folder` by one run.
    static func parts(in folder: URL) throws -> [CallgrindPart] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("callgrind.") }
        return try names.compactMap { name in
            let path = folder.appendingPathComponent(name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            // With separate threads callgrind also leaves the process's own file name empty.
            if text.isEmpty { return nil }
            return try CallgrindPart(text: text, file: path)
        }
    }

    /// What valgrind printed when it could not read the program's debug information.
    static func isDebugInfoFailure(_ errors: String) -> Bool {
        errors.contains("debuginfo reader") || errors.contains("unhandled dwarf2 abbrev form")
    }

    static let debugInfoAdvice = "valgrind cannot read the executable's DWARF 5 debug information: a wrapper script must start a copy stripped with `strip --strip-debug` (filmstrip strips the executables it is given itself)"

    /// A copy of `executable` valgrind can read: an ELF file stripped of its debug information
    /// into `folder`; anything else (a wrapper script) is returned as it is.
    package static func instrumentable(_ executable: URL, into folder: URL) throws(Failure) -> URL {
        guard isELF(executable.path) else { return executable }
        guard let strip = ChildProcess.find("strip") else {
            throw Failure(description: "`strip` (binutils) is not installed: it makes the copy of \(executable.path) valgrind can read")
        }
        // Its own folder keeps the executable's name, which profiles show as the object's name:
        // the same in both builds, so their functions can be matched.
        let copy = folder.appendingPathComponent(UUID().uuidString).appendingPathComponent(executable.lastPathComponent)
        let result: ChildProcess.Result
        do {
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            result = try ChildProcess.run(strip, ["--strip-debug", "-o", copy.path, executable.path], standardError: .capture)
        } catch {
            throw Failure(description: "cannot strip a copy of \(executable.path): \(error)")
        }
        guard result.succeeded else {
            throw Failure(description: "strip --strip-debug \(executable.path) failed: \(result.errors.split(separator: "\n").last ?? "status \(result.exitStatus)")")
        }
        return copy
    }

    private static func isELF(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data([0x7f, 0x45, 0x4c, 0x46])
    }
}
