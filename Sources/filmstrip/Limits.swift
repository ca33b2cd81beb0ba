import ArgumentParser
import Filmstrip
import FilmstripProcess
import Foundation

/// Options that bound what reading one input may cost (`strip`, `info`).
struct InputLimitOptions: ParsableArguments {
    @Option(help: "Give up after this many seconds of opening, probing and decoding (0: never).")
    var timeout = ResourceLimits.defaultTimeoutSeconds

    @Option(help: "Largest decoded picture accepted, in pixels (default \(InputPolicy.defaultMaximumPixels), 8192x8192).")
    var maxPixels = InputPolicy.defaultMaximumPixels

    func validate() throws {
        let year = 365 * 86_400
        guard (0...year).contains(timeout) else { throw ValidationError("--timeout must be 0 (never) to \(year) seconds, got \(timeout).") }
        guard (1...(1 << 31)).contains(maxPixels) else { throw ValidationError("--max-pixels must be 1 to \(1 << 31), got \(maxPixels).") }
    }

    /// Sets the process-wide deadline and picture limit every input is opened with.
    func apply() {
        InputPolicy.setTimeout(seconds: timeout == 0 ? nil : timeout)
        InputPolicy.maximumPixels = maxPixels
    }
}

/// The memory a request (`strip`) or a batch's videos in flight (`sprite`) may be estimated to need.
struct MemoryLimitOptions: ParsableArguments {
    @Option(help: "Refuse requests estimated to need more memory than this, in MB; videos made at the same time share it.")
    var maxMemory = ResourceLimits.defaultMemoryBytes / 1_000_000

    func validate() throws {
        guard (1...1_000_000_000).contains(maxMemory) else { throw ValidationError("--max-memory must be 1 to 1000000000 MB, got \(maxMemory).") }
    }

    var bytes: Int { maxMemory * 1_000_000 }
}

/// `strip`'s limits: the input's, plus the memory a request may be estimated to need.
struct StripLimitOptions: ParsableArguments {
    @OptionGroup var input: InputLimitOptions

    /// Checked with the strip's layout before anything is decoded (`StripJob.memoryLimitBytes`).
    @OptionGroup var memory: MemoryLimitOptions
}

extension FilmstripCommand.Strip {
    /// Every number on the command line within its documented range (`ResourceLimits`),
    /// before anything is opened.
    func checkRanges() throws {
        func check(_ value: Int, _ range: ClosedRange<Int>, _ option: String) throws {
            guard range.contains(value) else {
                throw ValidationError("\(option) must be \(range.lowerBound) to \(range.upperBound), got \(value).")
            }
        }
        try check(count, 1...ResourceLimits.maximumThumbnailCount, "--count")
        if let height { try check(height, 1...ResourceLimits.maximumThumbnailSide, "--height") }
        if let width { try check(width, 1...ResourceLimits.maximumThumbnailSide, "--width") }
        try check(gap, 0...ResourceLimits.maximumGap, "--gap")
        if let columns { try check(columns, 1...ResourceLimits.maximumThumbnailCount, "--columns") }
        try check(threads, 0...ResourceLimits.maximumThreads, "--threads")
        if let workers { try check(workers, 1...ResourceLimits.maximumWorkers, "--workers") }
        if let videosAtATime { try check(videosAtATime, 1...ResourceLimits.maximumWorkers, "--jobs") }
        let times = "seconds (12.5) or [hh:]mm:ss(.fff), at most \(TimeParsing.maximumSeconds) s"
        if let from, TimeParsing.seconds(from) == nil { throw ValidationError("--from '\(from)' is not a time: \(times).") }
        if let to, TimeParsing.seconds(to) == nil { throw ValidationError("--to '\(to)' is not a time: \(times).") }
        if let select, TimeParsing.range(select) == nil { throw ValidationError("--select '\(select)' is not a range FROM..TO of times: \(times).") }
    }
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
                Console.err("filmstrip: interrupted by \(name) while \(doing); removed \(files)")
                // `_exit`: decoding threads are still running, and atexit handlers must not tear state down under them.
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
