import ArgumentParser

extension FilmstripCommand {
    /// The slider's benchmark under its old name: `bench --suite interactive` with the arguments given.
    struct BenchInteractive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench-interactive",
            abstract: "Alias of `bench --suite interactive`: the slider's scripted sessions as bench runs of kind interactive.",
            discussion: """
                Every interactive strategy replays open, zoom in, drag in 20 superseding steps, zoom back and a cold \
                single request on a generator of its own; the standard strategy also with other pool sizes and the \
                cache off, and a soak of 1,000 superseding requests. One raw row per step, in the bench's results \
                file; any `bench` option may follow (e.g. --videos, --repetitions, --out, --baseline-binary).
                """)

        @Argument(parsing: .captureForPassthrough, help: "Options of `bench`.")
        var benchArguments: [String] = []

        func run() async throws {
            let bench = try Bench.parse(["--suite", "interactive"] + benchArguments)
            try await bench.run()
        }
    }
}
