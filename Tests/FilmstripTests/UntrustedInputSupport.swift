import CLITestSupport
import Foundation
import Testing

/// Runs the CLI as a child with a deadline, standard input an open pipe nothing is written
/// to (so a child that reads it blocks, as it would on a server), and reports how it ended.
enum BoundedCLI {
    struct Outcome {
        var status: Int32
        /// The child was killed by a signal (a crash) rather than exiting.
        var crashed: Bool
        var timedOut: Bool
        var standardOutput: String
        var standardError: String
    }

    static func run(_ arguments: [String], timeout: Double = 20, environment: [String: String]? = nil, in folder: URL? = nil,
                    executable: URL = CLIProcess.executable) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = ReadToEnd(output), errorData = ReadToEnd(error)
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return Outcome(status: process.terminationStatus, crashed: process.terminationReason == .uncaughtSignal && !timedOut,
                       timedOut: timedOut, standardOutput: String(decoding: outputData.wait(), as: UTF8.self),
                       standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// Names in `folder` that are not in `expected`: outputs or temporary files left behind.
    static func leftovers(in folder: URL, besides expected: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !expected.contains($0) }.sorted()
    }
}
