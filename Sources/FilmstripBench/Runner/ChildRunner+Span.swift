import FilmstripProcess
import FilmstripResults
import Foundation
import Glibc

extension ChildRunner {
    /// The span run (``InstructionSpan``): the child once more under callgrind with its threads
    /// counted apart. A second run because with separate threads a phase mark writes the marking
    /// thread's counts only, and the phases' totals need every thread's; it doubles an
    /// instruction run's time. Returns the parts, or why there are none.
    func spanParts(configurationJSON json: String, callgrind: Callgrind, timeLimit: Double,
                   interruption: Interruption) -> Result<[CallgrindPart], SpanRunFailure> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-callgrind-span-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var childPID: pid_t = 0
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let arguments = callgrind.commandLine(program: executable.path, arguments: ["bench-run", "--config", json],
                                                  folder: folder.path, separateThreads: true)
            let run = try ChildProcess.run(callgrind.valgrind, arguments, standardOutput: .capture, standardError: .capture,
                                           ownProcessGroup: true, timeLimit: timeLimit,
                                           onStart: { childPID = $0; interruption.childStarted($0) })
            interruption.childEnded(childPID)
            if interruption.signal != nil || [SIGINT, SIGTERM].contains(run.signal ?? 0) { return .failure(.interrupted) }
            if run.timedOut { return .failure(.timedOut) }
            guard run.signal == nil, run.exitStatus == 0 else {
                let how = run.signal.map { "killed by signal \($0)" } ?? "exit status \(run.exitStatus)"
                return .failure(.failed("span run (separate threads): child \(how): \(run.errors.split(separator: "\n").last ?? "")"))
            }
            return .success(try Callgrind.parts(in: folder))
        } catch {
            interruption.childEnded(childPID)
            return .failure(.failed("span run (separate threads): \(error)"))
        }
    }

    enum SpanRunFailure: Error {
        case interrupted, timedOut
        case failed(String)
    }
}
