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
            let bench: Bench
            do {
                bench = try Bench.parse(["--suite", "interactive"] + benchArguments)
            } catch {
                // Worded by `bench` itself: the top level would take its help request for its own and print the top-level help.
                let code = Bench.exitCode(for: error), message = Bench.fullMessage(for: error)
                if code == .success {
                    try Console.out(FilmstripCommand.helpMessage(for: Self.self) + "\nThe options of `bench` it passes on:\n\n" + message)
                } else {
                    Console.err(message)
                }
                throw code
            }
            try await bench.run()
        }
    }
}
