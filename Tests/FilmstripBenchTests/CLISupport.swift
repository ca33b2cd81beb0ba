import Foundation

/// Runs the built `filmstrip` executable, which sits next to the test bundle.
enum CLISupport {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The reference video cache the other test targets use too, so videos are made once.
    static let fixturesDirectory = ProcessInfo.processInfo.environment["FILMSTRIP_FIXTURES"]
        ?? packageRoot.appendingPathComponent("fixtures-cache").path

    static var executable: URL {
        var folder = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("filmstrip").path), folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("filmstrip")
    }

    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Starts the CLI with `arguments`; output goes to the returned pipes.
    static func start(_ arguments: [String]) throws -> (process: Process, output: Pipe, error: Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        return (process, output, error)
    }

    /// Runs the CLI with `arguments` and waits for it.
    static func run(_ arguments: [String]) throws -> Result {
        let (process, output, error) = try start(arguments)
        let errorData = ReadToEnd(error)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }

    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Reads a pipe to its end on another thread, so two pipes can be drained without deadlock.
final class ReadToEnd: @unchecked Sendable {
    // Safe: `data` is written once by the reading thread before `done` is signalled and
    // read only after `wait()` has seen that signal, so the accesses never overlap.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
