import Foundation

/// A strip made by `makeStrip(of:count:height:)`: its pixels and what each thumbnail shows.
public struct MadeStrip: Sendable {
    /// The strip as RGBA pixels, row after row.
    public let image: Image
    /// The video, the pipeline and options, and per thumbnail its requested and actual time
    /// and its rectangle in `image` (`manifest.json()` is what `filmstrip strip --manifest` writes).
    public let manifest: StripManifest
    /// The pipeline's full result: counters and the time of each phase.
    public let result: StripResult
}

/// Makes a strip of `count` thumbnails `height` pixels high, evenly spaced over the video at
/// `url`, with the default pipeline and options of `filmstrip strip` (exact frames).
///
/// The one call for the common case; `Pipeline.run(_:options:)` gives every setting.
/// - Parameters:
///   - url: a local video file (any container and codec FFmpeg reads that `InputPolicy` accepts).
///   - count: thumbnails, 1...`ResourceLimits.maximumThumbnailCount`; slot `i` shows the frame at the
///     centre of the i-th of `count` equal intervals of the video.
///   - height: thumbnail height in pixels; the width follows the display aspect ratio.
///   - columns: nil for one row; otherwise a contact sheet this many thumbnails wide.
///   - pipeline: the extractor and composer to use; every pipeline makes the same pixels.
/// - Returns: the strip's RGBA pixels and its manifest (per thumbnail the time asked for, the
///   frame shown and its rectangle).
/// - Throws: `MediaError` or `FFmpegError` when the file is not a readable video, `PlanError`
///   for a count or height out of range, `LayoutError` for a strip too large,
///   `MemoryLimitExceeded` for a request estimated to need more than
///   `ResourceLimits.defaultMemoryBytes` (a ``StripJob`` takes another limit).
public func makeStrip(of url: URL, count: Int = 10, height: Int = 64, columns: Int? = nil,
                      pipeline: Pipeline = .default) async throws -> MadeStrip {
    let (result, manifest) = try await runStrip(of: url, count: count, height: height, columns: columns, pipeline: pipeline, output: nil)
    return MadeStrip(image: result.strip, manifest: manifest, result: result)
}

/// Makes a strip as `makeStrip(of:count:height:columns:pipeline:)` does and writes it to
/// `output` (PNG, JPEG or raw RGBA by its extension), atomically: a failure leaves no file.
/// Refuses an output that is the input. Returns the strip's manifest.
/// - Parameters:
///   - url: a local video file.
///   - output: where to write; `.png`, `.jpg`/`.jpeg` or `.rgba`/`.raw` choose the format (PNG otherwise).
///   - count: thumbnails, as for `makeStrip(of:count:height:columns:pipeline:)`.
///   - height: thumbnail height in pixels.
///   - columns: nil for one row; otherwise a contact sheet this many thumbnails wide.
///   - pipeline: the extractor and composer to use.
/// - Returns: the strip's manifest (`manifest.json()` writes it as `--manifest` does).
/// - Throws: as `makeStrip(of:count:height:columns:pipeline:)`, plus `OutputError` when `output`
///   cannot be written or is the input itself.
@discardableResult
public func writeStrip(of url: URL, to output: URL, count: Int = 10, height: Int = 64, columns: Int? = nil,
                       pipeline: Pipeline = .default) async throws -> StripManifest {
    try StripWriter.checkDistinct(input: url.path, outputs: [("output", output.path)])
    try StripWriter.checkWritable(output.path)
    let target = StripOutput(path: output.path)
    let (result, manifest) = try await runStrip(of: url, count: count, height: height, columns: columns, pipeline: pipeline,
                                                output: target)
    // Written from the pipeline's own pixels (for fused pipelines the canvas), without an RGBA copy.
    try StripWriter.write(result.pixels, to: target)
    return manifest
}

/// The one-call API's job: `filmstrip strip`'s defaults for everything not given.
private func runStrip(of url: URL, count: Int, height: Int, columns: Int?, pipeline: Pipeline,
                      output: StripOutput?) async throws -> (StripResult, StripManifest) {
    var job = StripJob(video: url.path)
    job.spacing = .count(count)
    job.size = .height(height)
    job.pipeline = pipeline
    job.stripOptions = StripOptions(columns: columns)
    job.output = output
    let prepared = try job.prepare()
    let result = try await prepared.run()
    return (result, prepared.manifest(of: result))
}
