import ArgumentParser
import Filmstrip
import FilmstripProcess
import Foundation

/// Options that bound what reading one input may cost (`strip`, `sprite`, `thumbnails`, `info`):
/// a value handed to the library with each call, never a setting of the process.
struct InputLimitOptions: ParsableArguments {
    @Option(help: "Give up on a video after this many seconds of opening, probing and decoding it (0: never).")
    var timeout = ResourceLimits.defaultTimeoutSeconds

    @Option(help: "Largest decoded picture accepted, in pixels (8192x8192).")
    var maxPixels = InputLimits.defaultMaximumPixels

    func validate() throws {
        try OptionRange.check(timeout, 0...(365 * 86_400), "--timeout")
        try OptionRange.check(maxPixels, 1...(1 << 31), "--max-pixels")
    }

    /// The limits each video is read with (its clock starts when the library's call does).
    var value: InputLimits { InputLimits(maximumPixels: maxPixels, timeoutSeconds: timeout == 0 ? nil : timeout) }
}

/// The memory a request (`strip`) or a batch's videos in flight (`sprite`) may be estimated to need.
struct MemoryLimitOptions: ParsableArguments {
    @Option(help: "Refuse requests estimated to need more memory than this, in MB; videos made at the same time share it.")
    var maxMemory = ResourceLimits.defaultMemoryBytes / 1_000_000

    func validate() throws { try OptionRange.check(maxMemory, 1...1_000_000_000, "--max-memory") }

    var bytes: Int { maxMemory * 1_000_000 }
}

/// `strip`'s and `sprite`'s limits: the input's, plus the memory the videos may be estimated to need.
struct LimitOptions: ParsableArguments {
    @OptionGroup var input: InputLimitOptions

    /// Checked with the layout before anything is decoded (`StripJob.memoryLimitBytes`, `MemoryBudget`).
    @OptionGroup var memory: MemoryLimitOptions
}

/// Removes temporary files and says what was interrupted when SIGINT, SIGTERM or SIGHUP
/// arrives, then exits 128 + the signal (130, 143, 129).
enum SignalCleanup {
    /// Installs the handlers; keep the returned sources alive while `doing` runs.
    static func install(doing: String) -> [any DispatchSourceSignal] {
        [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")].map { number, name in
            // The default action must be ignored first, or the process would die before the
            // dispatch source, which runs the handler as ordinary code, sees the signal.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                LiveChildren.shared.endAll()
                let removed = TemporaryFiles.removeAllForExit()
                let files = removed == 1 ? "1 temporary file" : "\(removed) temporary files"
                Console.err(FileSystemName.display("filmstrip: interrupted by \(name) while \(doing); removed \(files)"))
                // `_exit`: decoding threads are still running, and atexit handlers must not tear state down under them.
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
