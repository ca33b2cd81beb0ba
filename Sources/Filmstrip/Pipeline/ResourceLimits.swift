import Foundation
import Synchronization

/// The limits a strip request is held to before any work starts, so that no number from the
/// command line or from a file can make filmstrip allocate without bound, overflow, or run
/// forever. The fixed ranges are far beyond any real strip; the memory estimate, the decoded
/// picture size and the time limit (`InputLimits`, given per call) are values the caller sets.
public enum ResourceLimits {
    /// Thumbnails in one strip (and columns of a contact sheet).
    public static let maximumThumbnailCount = 100_000
    /// Thumbnail height or width asked for, in pixels.
    public static let maximumThumbnailSide = 8192
    /// Gap between thumbnails, in pixels.
    public static let maximumGap = 10_000
    /// Codec threads per decoder (0 means one per core, which FFmpeg caps at 16).
    public static let maximumThreads = 64
    /// Parallel extraction workers, each with its own open file and decoder.
    public static let maximumWorkers = 64
    /// The memory a request may be estimated to need by default: 2 GiB.
    public static let defaultMemoryBytes = 2 << 30
    /// The command line's default time limit per video (`InputLimits.timeoutSeconds`), in
    /// seconds; generous, since a long video in exact mode takes tens of seconds to decode on two cores.
    public static let defaultTimeoutSeconds = 600
    /// JPEG stores each side in 16 bits.
    public static let maximumJPEGSide = 65535
}

/// What a strip request will need in memory at its peak, estimated from its sizes before
/// anything is decoded. It errs high, within twice the measured peak (`MemoryEstimateTests`):
/// decoders are counted at their codec's worst (`DecoderMemory`: every reference picture plus
/// one picture per codec thread and the one being decoded), as many as the plan has GOPs to give them.
public struct MemoryEstimate: Sendable, Hashable, CustomStringConvertible {
    /// The process before any video: code, the Swift runtime, FFmpeg's libraries and tables.
    public var processBytes: Int
    /// The strip itself (RGBA with row padding, or the fused canvas: RGB when opaque).
    public var stripBytes: Int
    /// Thumbnails held between extraction and composition (none when scaling into the strip).
    public var thumbnailBytes: Int
    /// Decoded frames held by every decoder at once.
    public var decoderBytes: Int
    /// Plan, thumbnail records and manifest entries: about 1 KiB per thumbnail.
    public var bookkeepingBytes: Int
    /// Extra copies made to write the strip (JPEG encodes from an RGBA copy).
    public var outputBytes: Int

    /// The whole estimate in bytes, clamped at `Int.max` instead of overflowing.
    public var totalBytes: Int {
        processBytes.addingClamped(videoBytes)
    }

    /// The estimate without the process's own share: what one more video in flight adds.
    public var videoBytes: Int {
        stripBytes.addingClamped(thumbnailBytes).addingClamped(decoderBytes).addingClamped(bookkeepingBytes).addingClamped(outputBytes)
    }

    /// 55 to 57 MB resident for a 180p strip before its few small frames count (the
    /// optimised debug build; the release build links the runtime statically and is smaller).
    static let baseProcessBytes = 64_000_000

    /// Pictures a decoder holds besides its references and threads' own: the one being
    /// decoded (the one handed out to be scaled is a reference to a picture already counted).
    static let picturesInHand = 1

    /// Estimates the peak memory of running `request` into `layout`, before any of it is allocated.
    ///
    /// - Parameters:
    ///   - request: the video, plan, thumbnail size and worker count of the run.
    ///   - layout: the strip's layout, which gives its size.
    ///   - fused: the composer scales straight into the strip (no separate thumbnails).
    ///   - jpeg: the strip is written as JPEG.
    public init(request: ExtractionRequest, layout: StripLayout, fused: Bool, jpeg: Bool) {
        self.init(request: request, layout: layout, fused: fused, writingBytes: { strip in jpeg ? strip.multipliedClamped(by: 2) : 0 })
    }

    /// The same estimate with the memory writing the outputs takes given by `writingBytes`,
    /// called with the strip's bytes (`sprite` writes sheets and index files, not one strip).
    public init(request: ExtractionRequest, layout: StripLayout, fused: Bool, writingBytes: (Int) -> Int) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let (width, height) = request.thumbnailPixels
        let thumbnail = width.multipliedClamped(by: height).multipliedClamped(by: 4)
        let count = request.plan.count
        processBytes = Self.baseProcessBytes
        let format = fused ? StripCanvas.pixelFormat(layout: layout, for: request) : .rgba
        stripBytes = layout.height.multipliedClamped(by: format.alignedRowBytes(forWidth: layout.width))
        thumbnailBytes = fused ? 0 : thumbnail.multipliedClamped(by: count)
        let decoder = DecoderMemory(probe: request.probe)
        let threads = request.options.decoder.threads == 0 ? min(cores, 16) : request.options.decoder.threads
        // No more decoders than GOPs to decode: each worker opens its own only to take one.
        let gops = Set(request.plan.targets.map(\.keyframePts)).count
        let decoders = max(1, min(request.options.workers ?? GOPCostModel.workersPerCoreLimit * cores, gops))
        decoderBytes = decoder.pictureBytes.multipliedClamped(by: decoder.referencePictures + threads + Self.picturesInHand)
            .addingClamped(thumbnail).multipliedClamped(by: decoders)
        bookkeepingBytes = count.multipliedClamped(by: 1024)
        outputBytes = writingBytes(stripBytes)
    }

    /// Throws `MemoryLimitExceeded` when the estimate is above `limitBytes`.
    public func check(limitBytes: Int) throws(MemoryLimitExceeded) {
        if totalBytes > limitBytes { throw MemoryLimitExceeded(estimate: self, limitBytes: limitBytes) }
    }

    /// The total and its parts in megabytes, for the message that refuses a run over the limit.
    public var description: String {
        func megabytes(_ bytes: Int) -> String { "\(bytes / 1_000_000) MB" }
        return "\(megabytes(totalBytes)) (process \(megabytes(processBytes)), strip \(megabytes(stripBytes)), thumbnails \(megabytes(thumbnailBytes)), "
            + "decoders \(megabytes(decoderBytes)), per-thumbnail records \(megabytes(bookkeepingBytes)), writing \(megabytes(outputBytes)))"
    }
}

extension Int {
    /// The product, or `Int.max` where it overflows: an estimate that overflows is simply too large.
    func multipliedClamped(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }

    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}

/// A request whose estimated memory exceeds the caller's limit.
public struct MemoryLimitExceeded: Error, CustomStringConvertible {
    /// The request's estimate.
    public let estimate: MemoryEstimate
    /// The limit it exceeds, in bytes.
    public let limitBytes: Int

    /// One line: the estimate with its parts, the limit, and what to change.
    public var description: String {
        "the request needs an estimated \(estimate), more than the memory limit of \(limitBytes / 1_000_000) MB; "
            + "ask for fewer or smaller thumbnails, fewer workers or threads, or raise the limit"
    }
}

/// The memory the videos of one batch (`sprite` on a library, `--jobs N`) may be estimated to
/// need together: each video reserves its estimate before it allocates its strip or decoders,
/// waits while the videos in flight hold too much of it, and gives it back when it ends. A
/// video whose estimate alone is over the limit fails at once; any other one starts at the
/// latest when the videos before it have finished.
public final class MemoryBudget: Sendable {
    /// The limit in bytes.
    public let limitBytes: Int
    private let reserved = Mutex(0)

    /// A budget of `limitBytes` for the whole batch.
    public init(limitBytes: Int) { self.limitBytes = limitBytes }

    /// Reserves `estimate` until `body` returns; throws `MemoryLimitExceeded` when it exceeds
    /// the whole limit, and `CancellationError` when the task is cancelled while it waits.
    public func reserving<T>(_ estimate: MemoryEstimate, _ body: () async throws -> T) async throws -> T {
        try estimate.check(limitBytes: limitBytes)
        // The process's own share is counted once for the whole batch.
        let bytes = estimate.videoBytes, room = limitBytes - estimate.processBytes
        // Polled rather than queued: a batch runs a few videos at a time for seconds or minutes
        // each, so a look every 50 ms costs nothing, and `Task.sleep` ends the wait on cancellation.
        while !reserved.withLock({ (reserved: inout Int) -> Bool in
            guard reserved == 0 || reserved <= room - bytes else { return false }
            reserved += bytes
            return true
        }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        defer { reserved.withLock { $0 -= bytes } }
        return try await body()
    }
}
