import ArgumentParser
import Filmstrip
import FilmstripOpenMP
import Foundation

@main
struct FilmstripCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filmstrip",
        abstract: "Video thumbnail strips, and a benchmark of the ways to make them.",
        version: BuildInfo.versionText,
        subcommands: [Strip.self, Sprite.self, SpriteBenchCommand.self, Info.self, Fixtures.self, Bench.self, BenchRun.self, Compare.self, Plot.self, Export.self, Trend.self, Report.self]
    )

    /// Registers the composers built outside the library before any option is parsed, so help,
    /// completion, the bench matrix and the bench child all see one registry.
    static func main() async {
        FilmstripOpenMP.register()
        // Arguments with their exact bytes: a file name that is not UTF-8 names that file.
        await main(Array(FileSystemName.commandLineArguments.dropFirst()))
    }
}

/// Prints `message` as one line on stderr and returns the exit code to throw.
func failWithMessage(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("filmstrip: \(FileSystemName.display(message))\n".utf8))
    return ExitCode.failure
}

/// Prints `error` as one line on stderr and exits non-zero: bad input never gets a stack trace.
func failWithMessage(_ error: any Error) -> ExitCode { failWithMessage(oneLineMessage(error)) }

/// `error` as one line for people.
func oneLineMessage(_ error: any Error) -> String {
    let message: String
    switch error {
    case let error as MediaError: message = error.description
    case let error as FFmpegError: message = error.description
    case let error as OutputError: message = error.description
    case let error as CocoaError:
        let path = (error.userInfo[NSFilePathErrorKey] as? String).map { "\($0): " } ?? ""
        message = path + error.localizedDescription
    default: message = String(describing: error)
    }
    return message
}

extension String {
    /// This string followed by spaces up to `width` characters (never cut). Foundation's
    /// `padding(toLength:withPad:startingAt:)` goes through NSString, whose first use costs
    /// about half a millisecond; `strip`'s help text is built at every start.
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}

extension BuildInfo {
    /// The commit, with `-dirty` when the tree had uncommitted changes to tracked files.
    static var commitDescription: String { commit + (dirty ? "-dirty" : "") }

    #if DEBUG
    static let configuration = "debug"
    #else
    static let configuration = "release"
    #endif

    /// `filmstrip --version`: the commit and the build settings that change timings.
    static var versionText: String {
        "filmstrip \(commitDescription) (\(configuration) build, Swift runtime linked statically)"
    }
}
