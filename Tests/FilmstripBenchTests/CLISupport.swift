import CLITestSupport
import Foundation

/// Runs the built `filmstrip` executable, which sits next to the test bundle.
enum CLISupport {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The reference video cache the other test targets use too, so videos are made once.
    static let fixturesDirectory = ProcessInfo.processInfo.environment["FILMSTRIP_FIXTURES"]
        ?? packageRoot.appendingPathComponent("fixtures-cache").path

    typealias Result = CLIProcess.Result

    static func start(_ arguments: [String]) throws -> (process: Process, output: Pipe, error: Pipe) {
        try CLIProcess.start(arguments)
    }

    static func run(_ arguments: [String]) throws -> Result { try CLIProcess.run(arguments) }

    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
