import ArgumentParser
import FilmstripBench
import Foundation

extension FilmstripCommand {
    /// The child side of `bench`: one configuration, once, one JSON line on stdout.
    /// Hidden because only `bench` calls it; see `ChildRunner` for why runs are isolated.
    struct BenchRun: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench-run",
            abstract: "Run one benchmark configuration once and print its measurement as JSON (used by bench).",
            shouldDisplay: false)

        @Option(help: "The configuration as JSON.")
        var config: String

        func run() async throws {
            // Before anything is launched, so the parent's kill of this run's group ends its peers too.
            ChildRunner.becomeRunGroupLeader()
            do {
                let configuration = try JSONDecoder().decode(BenchConfiguration.self, from: Data(config.utf8))
                var measurement = try await ConfigurationRunner.run(configuration)
                measurement.executableCommit = BuildInfo.commitDescription
                measurement.buildConfiguration = BuildInfo.configuration
                try Console.out(String(decoding: try JSONEncoder().encode(measurement), as: UTF8.self))
            } catch {
                throw failWithMessage(error)
            }
        }
    }
}
