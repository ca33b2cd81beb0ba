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
        subcommands: [Strip.self, Thumbnails.self, BenchInteractive.self, Sprite.self, SpriteBenchCommand.self, Info.self, Fixtures.self, Bench.self, BenchRun.self, Compare.self, Plot.self, Export.self, Trend.self, Report.self]
    )

    /// Registers the composers built outside the library before any option is parsed, so help,
    /// completion, the bench matrix and the bench child all see one registry.
    ///
    /// argument-parser's own `main` is not used because it prints help and errors with stdio,
    /// whose failures are never seen: here they go through `Console`, and a failed write to
    /// standard output anywhere ends the run with one line on stderr, the temporary files
    /// removed, and exit status 1.
    static func main() async {
        Console.ignoreBrokenPipes()
        FilmstripOpenMP.register()
        do {
            // Arguments with their exact bytes: a file name that is not UTF-8 names that file.
            var command = try await parse(Array(FileSystemName.commandLineArguments.dropFirst()))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as StandardOutputFailed {
            TemporaryFiles.removeAllForExit()
            Console.err("filmstrip: \(failure)")
            Console.exit(ExitCode.failure.rawValue)
        } catch {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let unknown = UnknownSubcommand.message(arguments: arguments) ?? UnknownOption.message(instead: error, arguments: arguments) {
                Console.err(TerminalText.visible(unknown))
                Console.exit(ExitCode.validationFailure.rawValue)
            }
            // argument-parser's messages are several lines (the error, the usage), so only what a
            // line holds is escaped here; a name in a message is escaped where it is put in.
            let message = TerminalText.visible(OptionValueMessages.withReason(fullMessage(for: error))), code = exitCode(for: error)
            if !message.isEmpty {
                if code == .success {
                    do { try Console.out(message) } catch { Console.err("filmstrip: \(error)"); Console.exit(ExitCode.failure.rawValue) }
                } else {
                    Console.err(message)
                }
            }
            Console.exit(code.rawValue)
        }
        Console.exit(ExitCode.success.rawValue)
    }

    /// The command `arguments` name; a negative number after an option is that option's value
    /// (`--height -5` is judged as `--height=-5`), not an option of its own.
    static func parse(_ arguments: [String]) async throws -> any ParsableCommand {
        do {
            return try await asyncParseAsRoot(arguments)
        } catch {
            guard let joined = OptionValueMessages.joiningNegativeValue(after: error, in: arguments) else { throw error }
            return try await parse(joined)
        }
    }
}

/// A mistyped option named as such. argument-parser runs a command's `validate()` before it
/// looks for options it does not know, and a mistyped option's value lands among the
/// positional arguments: `strip V -o s.png --colums 4` took `4` for a second video and blamed
/// `-o`. So when validation fails, an unknown `--option` is looked for first and reported
/// with the closest known one.
enum UnknownOption {
    /// When `error` is a failed validation, the message for the first long option the
    /// subcommand `arguments` name does not know, as argument-parser words it; nil otherwise.
    static func message(instead error: any Error, arguments: [String]) -> String? {
        guard FilmstripCommand.exitCode(for: error) == .validationFailure, let name = arguments.first,
              let command = FilmstripCommand.configuration.subcommands.first(where: { $0._commandName == name }) else { return nil }
        // Every long name the command's help shows, inversions (--no-…) included.
        let help = FilmstripCommand.helpMessage(for: command)
        let known = Set(help.matches(of: /--[a-z0-9][a-z0-9-]*/).map { String($0.output) } + ["--help", "--version"])
        for argument in arguments.dropFirst().prefix(while: { $0 != "--" }) where argument.hasPrefix("--") {
            let option = String(argument.prefix { $0 != "=" })
            guard !known.contains(option) else { continue }
            let suggestion = Suggestion.closest(to: option, among: Array(known)).map { " Did you mean '\($0)'?" } ?? ""
            return "Error: Unknown option '\(option)'.\(suggestion)\nUsage: \(FilmstripCommand.usageString(for: command))\n"
                + "  See 'filmstrip \(name) --help' for more information."
        }
        return nil
    }
}

/// A mistyped subcommand named as such: `filmstrip strp v.mp4 -o x.png` went on to blame
/// `-o`, an option the top level does not have.
enum UnknownSubcommand {
    /// The message for a first argument that is no subcommand (nor an option), with the
    /// closest subcommand; nil when the first argument is one.
    static func message(arguments: [String]) -> String? {
        guard let name = arguments.first, !name.hasPrefix("-") else { return nil }
        let names = FilmstripCommand.configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(name) else { return nil }
        let suggestion = Suggestion.closest(to: name, among: names).map { " Did you mean '\($0)'?" } ?? ""
        return "Error: Unknown subcommand '\(name)'.\(suggestion)\nUsage: filmstrip <subcommand>\n  See 'filmstrip --help' for the subcommands."
    }
}

/// Prints `message` as one line on stderr and returns the exit code to throw.
func failWithMessage(_ message: String) -> ExitCode {
    Console.err("filmstrip: \(FileSystemName.display(message))")
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
    return message + optionHint(error)
}

/// The options that change the limit or setting an error names: the library's messages name
/// the limit (it has no command line), the tool adds its own flag.
func optionHint(_ error: any Error) -> String {
    switch error {
    case let error as MediaError:
        switch error.reason {
        case .pictureTooLarge: " (raise it with --max-pixels)"
        case .timedOut: " (--timeout)"
        default: ""
        }
    case is MemoryLimitExceeded: " (--max-memory)"
    case is StripJobError: " (--interval)"
    case let error as SpriteError:
        switch error {
        case .tooManyCues: " (--interval, --count)"
        case .sheetTooLarge: " (--tile, --width)"
        case .sameJellyfinWidth: " (--height, --width)"
        default: ""
        }
    default: ""
    }
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
