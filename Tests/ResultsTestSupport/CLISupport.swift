import CLITestSupport
import Foundation

/// Runs the built `filmstrip` executable, which sits next to the test bundle.
package enum CLISupport {
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The reference video cache the other test targets use too, so videos are made once.
    package static let fixturesDirectory = ProcessInfo.processInfo.environment["FILMSTRIP_FIXTURES"]
        ?? packageRoot.appendingPathComponent("fixtures-cache").path

    package typealias Result = CLIProcess.Result

    /// The smallest `bench` matrix worth running: two extractors, one video, five thumbnails.
    package static let tinyBenchMatrix = ["--videos", "h264-180p-3s", "--extractors", "sequential,forward", "--composers", "rowcopy",
                                          "--counts", "5", "--repetitions", "2", "--warmup", "0"]

    package static func start(_ arguments: [String]) throws -> (process: Process, output: Pipe, error: Pipe) {
        try CLIProcess.start(arguments)
    }

    package static func run(_ arguments: [String]) throws -> Result { try CLIProcess.run(arguments) }

    package static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
