import ArgumentParser
import Filmstrip
import FilmstripFixtures
import Foundation

extension FilmstripCommand {
    struct Fixtures: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate the reference videos of a suite (cached; remade only when missing or changed).")

        @Option(help: "Which suite: \(ReferenceSuite.allCases.map(\.rawValue).joined(separator: ", ")) (default: quick).",
                completion: .list(ReferenceSuite.allCases.map(\.rawValue)), transform: OptionValues.suite)
        var suite: ReferenceSuite = .quick

        @Option(help: "Cache folder (default: $FILMSTRIP_FIXTURES, else $XDG_CACHE_HOME/filmstrip/fixtures or ~/.cache/filmstrip/fixtures).", completion: .directory)
        var dir: String?

        @Flag(help: "List the suite's videos and their properties without generating anything.")
        var list = false

        func run() async throws {
            let cache = dir.map { ReferenceVideoCache(directory: URL(fileURLWithPath: $0, isDirectory: true)) } ?? ReferenceVideoCache()
            // Only partials whose writer has died: another live process (a bench, a parallel
            // test) may be encoding into this cache right now.
            cache.removePartialsOfDeadProcesses()
            let suiteStart = ContinuousClock.now
            for spec in suite.specs {
                let properties = "\(spec.codec.rawValue) \(spec.width)x\(spec.height) \(spec.framesPerSecond) fps \(spec.frameCount) frames (\(spec.durationSeconds) s) GOP \(spec.keyframeInterval)"
                if list {
                    try Console.out("\(spec.id)\t\(properties)\t\(FileSystemName.display(cache.url(for: spec).path))")
                    continue
                }
                let start = ContinuousClock.now
                do {
                    let (url, generated) = try cache.ensure(spec)
                    let elapsed = ContinuousClock.now - start
                    let state = generated ? "generated in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))" : "cached"
                    try Console.out("\(spec.id)\t\(properties)\t\(state)\t\(FileSystemName.display(url.path))")
                } catch {
                    throw failWithMessage(error)
                }
            }
            if !list {
                let total = ContinuousClock.now - suiteStart
                try Console.out("suite \(suite.rawValue): \(suite.specs.count) videos ready in \(total.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))")
            }
        }
    }
}

extension ReferenceSuite: ExpressibleByArgument {}
