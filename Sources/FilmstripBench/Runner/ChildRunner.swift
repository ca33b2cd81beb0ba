import Foundation
import Glibc
import Synchronization

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
public struct ChildRunner: Sendable {
    /// Makes this `bench-run` process the leader of a new process group, its run's group.
    public static func becomeRunGroupLeader() { setpgid(0, 0) }

    /// Kills the run of child `pid`: its process group, and the child itself in case it has not
    /// made its group yet (then it has launched nothing either).
    static func end(_ pid: pid_t) {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }

    /// The `filmstrip` executable to launch (normally this very process's executable).
    public let executable: URL

    public init(executable: URL) {
        self.executable = executable
    }

    public enum Outcome: Sendable {
        case measured(BenchMeasurement)
        case failed(String)
        case timedOut
        case interrupted
    }

    /// Runs `configuration` once, waiting at most `timeLimit` seconds.
    public func run(_ configuration: BenchConfiguration, timeLimit: Double, interruption: Interruption) -> Outcome {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        } catch {
            return .failed("cannot encode the configuration: \(error)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["bench-run", "--config", json]
        let output = PipeCollector(), errors = PipeCollector()
        process.standardOutput = output.pipe
        process.standardError = errors.pipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            return .failed("cannot start \(executable.path): \(error)")
        }
        interruption.childStarted(process.processIdentifier)
        output.startReading()
        errors.startReading()
        var timedOut = false
        if exited.wait(timeout: .now() + timeLimit) == .timedOut {
            timedOut = true
            Self.end(process.processIdentifier)
            exited.wait()
        }
        interruption.childEnded()
        let stdout = output.finish(), stderr = errors.finish()

        // A SIGINT or SIGTERM sent to the child itself counts as the interruption, not a failure.
        let killedBySignal = process.terminationReason == .uncaughtSignal
        if interruption.signal != nil
            || (killedBySignal && [SIGINT, SIGTERM].contains(process.terminationStatus)) { return .interrupted }
        if timedOut { return .timedOut }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = killedBySignal ? "killed by signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
            let message = stderr.split(separator: "\n").last.map(String.init) ?? ""
            return .failed("child \(how)\(message.isEmpty ? "" : ": \(message)")")
        }
        guard let line = stdout.split(separator: "\n").last,
              let measurement = try? JSONDecoder().decode(BenchMeasurement.self, from: Data(line.utf8)) else {
            return .failed("child printed no measurement")
        }
        return .measured(measurement)
    }
}

/// Drains one pipe on a background queue, so a chatty child can never block on a full pipe.
private final class PipeCollector: Sendable {
    let pipe = Pipe()
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    func startReading() {
        DispatchQueue.global().async { [self] in
            let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
            data.withLock { $0 = bytes }
            done.signal()
        }
    }

    /// Waits for end of file (the child has exited, so it comes at once) and returns the text.
    func finish() -> String {
        done.wait()
        try? pipe.fileHandleForReading.close()
        return String(decoding: data.withLock { $0 }, as: UTF8.self)
    }
}
