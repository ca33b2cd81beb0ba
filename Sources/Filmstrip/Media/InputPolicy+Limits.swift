import CFFmpeg
import Foundation

/// What reading one input may cost, given by the caller with each call (a probe, a strip job,
/// a sprite, a generator) rather than set for the whole process, so two calls in one process
/// may be held to different limits.
///
/// The time limit counts from when the call starts (`started()`), and the probe and every
/// decoder the call opens on the file share that one deadline: a strip's limit covers its
/// probe and its extraction together, however many workers open the file.
public struct InputLimits: Sendable, Hashable {
    /// The largest decoded picture accepted by default, in pixels: 8192 × 8192 (64 Mi), about
    /// 100 MB per decoded frame in 4:2:0 and 256 MB as RGBA.
    public static let defaultMaximumPixels = 1 << 26

    /// Pictures larger than this are refused before a decoder allocates them (at least 1).
    public var maximumPixels: Int {
        didSet { maximumPixels = max(1, maximumPixels) }
    }
    /// Seconds the call may spend opening, probing and decoding the file; nil: no limit (the
    /// library's default; the command line gives `ResourceLimits.defaultTimeoutSeconds`).
    public var timeoutSeconds: Int?
    /// Monotonic nanoseconds after which every FFmpeg call on the input gives up; nil until
    /// `started()`, or with no time limit.
    private(set) var deadlineNanoseconds: UInt64?

    /// Limits of `maximumPixels` per picture and `timeoutSeconds` (nil: no time limit).
    public init(maximumPixels: Int = defaultMaximumPixels, timeoutSeconds: Int? = nil) {
        self.maximumPixels = max(1, maximumPixels)
        self.timeoutSeconds = timeoutSeconds
    }

    /// These limits with their clock started now, or unchanged when it is already running:
    /// what a call passes on to the inputs it opens, so that they share its deadline.
    public func started() -> InputLimits {
        guard deadlineNanoseconds == nil, let timeoutSeconds, timeoutSeconds > 0 else { return self }
        var started = self
        // A century is "never" and keeps the sum far from overflowing.
        let seconds = UInt64(min(timeoutSeconds, 100 * 365 * 86_400))
        started.deadlineNanoseconds = Self.monotonicNanoseconds() + seconds * 1_000_000_000
        return started
    }

    /// True once the started deadline has passed.
    var deadlineHasPassed: Bool {
        guard let deadlineNanoseconds else { return false }
        return Self.monotonicNanoseconds() >= deadlineNanoseconds
    }

    /// The reason an input gives up at the deadline, naming the limit.
    var timedOut: MediaError.Reason { .timedOut(seconds: timeoutSeconds ?? 0) }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// One input's limits where FFmpeg's interrupt callback can reach them: the callback is a C
/// function with a context pointer, so the limits live in an object that the input keeps
/// alive as long as its format context.
final class InputDeadline: Sendable {
    let limits: InputLimits

    init(_ limits: InputLimits) { self.limits = limits }

    /// FFmpeg calls this from blocking reads and long demuxer loops; non-zero stops the call
    /// with `AVERROR_EXIT`. Valid while this object lives.
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { context in
            guard let context else { return 0 }
            return Unmanaged<InputDeadline>.fromOpaque(context).takeUnretainedValue().limits.deadlineHasPassed ? 1 : 0
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
