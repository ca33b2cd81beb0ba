import Filmstrip
import FilmstripProcess
import FilmstripResults
import Foundation
import Glibc

/// Runs one configuration in a fresh `filmstrip bench-run` child process.
///
/// Why a child per run rather than a loop in this process:
/// - peak RSS (`ru_maxrss`) is a high-water mark for the whole process, so only a
///   fresh process gives each configuration its own peak instead of the largest so far;
/// - nothing carries over between configurations: no warm decoder or scaler state,
///   no allocator arenas sized by an earlier strategy, no thread pools already spun up,
///   so the order of configurations does not change their results;
/// - a crash, hang or runaway allocation in one strategy ends one run, not the session,
///   and a time limit can be enforced by killing it.
/// The cost is process start-up (tens of ms) outside every timed region.
///
/// The child leads its own process group (``becomeRunGroupLeader()``, the first thing
/// `bench-run` does) and the programs it launches (peers such as the ffmpeg CLI) stay in it,
/// so ``end(_:)`` at the time limit or on SIGINT/SIGTERM ends the whole run, peers included.
package struct ChildRunner: ConfigurationExecutor {
    /// Makes this `bench-run` process the leader of a new process group, its run's group.
    package static func becomeRunGroupLeader() { setpgid(0, 0) }

    /// Kills the run of child `pid`: its process group, and the child itself in case it has not
    /// made its group yet (then it has launched nothing either).
    static func end(_ pid: pid_t) {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }

    /// The `filmstrip` executable to launch (normally this very process's executable).
    package let executable: URL
    /// Runs each child under callgrind to count its instructions; nil runs it natively.
    package let callgrind: Callgrind?

    package init(executable: URL, callgrind: Callgrind? = nil) {
        self.executable = executable
        self.callgrind = callgrind
    }

    /// Runs `configuration` once in a `bench-run` child, waiting at most `timeLimit` seconds.
    package func run(_ configuration: BenchConfiguration, timeLimit: Double, interruption: Interruption) -> RunOutcome {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        } catch {
            return .failed("cannot encode the configuration: \(error)")
        }
        var program = executable.path, arguments = ["bench-run", "--config", json]
        var profileFolder: URL?
        if let callgrind {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-callgrind-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                return .failed("cannot make a folder for the profile: \(error)")
            }
            profileFolder = folder
            arguments = callgrind.commandLine(program: program, arguments: arguments, folder: folder.path)
            program = callgrind.valgrind
        }
        defer { if let profileFolder { try? FileManager.default.removeItem(at: profileFolder) } }
        let run: ChildProcess.Result
        var childPID: pid_t = 0
        do {
            // The child leads a new process group from its first instruction (it also asks for one
            // itself, `becomeRunGroupLeader()`, for runs started elsewhere).
            run = try ChildProcess.run(program, arguments,
                                       standardOutput: .capture, standardError: .capture,
                                       ownProcessGroup: true, timeLimit: timeLimit,
                                       onStart: { childPID = $0; interruption.childStarted($0) })
        } catch {
            interruption.childEnded(childPID)
            return .failed("cannot start \(program): \(error)")
        }
        interruption.childEnded(childPID)
        let stdout = run.output, stderr = run.errors

        // A SIGINT or SIGTERM sent to the child itself counts as the interruption, not a failure.
        if interruption.signal != nil || [SIGINT, SIGTERM].contains(run.signal ?? 0) { return .interrupted }
        if run.timedOut { return .timedOut }
        guard run.signal == nil, run.exitStatus == 0 else {
            if callgrind != nil, Callgrind.isDebugInfoFailure(stderr) { return .failed(Callgrind.debugInfoAdvice) }
            let how = run.signal.map { "killed by signal \($0)" } ?? "exit status \(run.exitStatus)"
            let message = stderr.split(separator: "\n").last.map(String.init) ?? ""
            return .failed("child \(how)\(message.isEmpty ? "" : ": \(message)")")
        }
        guard let line = stdout.split(separator: "\n").last,
              let measurement = try? JSONDecoder().decode(BenchMeasurement.self, from: Data(line.utf8)) else {
            return .failed("child printed no measurement")
        }
        guard let profileFolder, let callgrind else { return .measured(measurement, nil) }
        var profile: InstructionProfile
        do {
            profile = InstructionProfile(parts: try Callgrind.parts(in: profileFolder))
        } catch {
            return .failed("cannot read the child's instruction profile: \(error)")
        }
        switch spanParts(configurationJSON: json, callgrind: callgrind, timeLimit: timeLimit, interruption: interruption) {
        case .success(let parts): profile.addSpans(from: parts)
        case .failure(.interrupted): return .interrupted
        case .failure(.timedOut): return .timedOut
        case .failure(.failed(let reason)): return .failed(reason)
        }
        return .measured(measurement, profile)
    }
}
