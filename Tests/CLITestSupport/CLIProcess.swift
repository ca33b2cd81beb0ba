import Foundation

/// Runs the built `filmstrip` executable, which sits next to the test bundle; shared by
/// both test targets.
public enum CLIProcess {
    /// The `filmstrip` executable built next to the test bundle.
    public static var executable: URL {
        var folder = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("filmstrip").path), folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("filmstrip")
    }

    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// Starts the CLI with `arguments`; output goes to the returned pipes.
    public static func start(_ arguments: [String]) throws -> (process: Process, output: Pipe, error: Pipe) {
        try start(executable, arguments)
    }

    /// Runs another program (a reference tool such as python3's HTML parser) the same way.
    public static func run(program: URL, _ arguments: [String]) throws -> Result {
        try wait(start(program, arguments))
    }

    /// The first executable called `name` on `PATH`, or nil.
    public static func program(named name: String) -> URL? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static func start(_ program: URL, _ arguments: [String]) throws -> (process: Process, output: Pipe, error: Pipe) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        return (process, output, error)
    }

    /// Runs the CLI with `arguments` and waits for it, draining both pipes at once (a child
    /// that fills one pipe while the other is being read would otherwise never finish).
    public static func run(_ arguments: [String]) throws -> Result {
        try wait(start(arguments))
    }

    private static func wait(_ started: (process: Process, output: Pipe, error: Pipe)) -> Result {
        let (process, output, error) = started
        let errorData = ReadToEnd(error)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }
}

/// Reads a pipe to its end on another thread, so two pipes can be drained without deadlock.
public final class ReadToEnd: @unchecked Sendable {
    // Safe: `data` is written once by the reading thread before `done` is signalled and
    // read only after `wait()` has seen that signal, so the accesses never overlap.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    public init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    public func wait() -> Data {
        done.wait()
        return data
    }
}
