import Filmstrip

/// What identifies a configuration across runs: the same key in two runs means
/// the same work was timed, so their samples may be compared.
package struct ConfigurationKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// What ran: the `pipeline`, `extractor` and `composer` cells.
    package var pipeline: PipelineName
    package var options: RunOptions
    package var videoID: String
    /// Thumbnails requested.
    package var thumbnailCount: Int
    /// Thumbnail width in pixels.
    package var thumbWidth: Int
    /// Thumbnail height in pixels.
    package var thumbHeight: Int
    package var accuracy: RowAccuracy
    package var phase: Phase
    /// What kind of work was timed (the `kind` column); follows from the fields above, so it
    /// never splits a configuration, but readers ask it instead of the placeholders.
    package var kind: RunKind

    /// `kind` nil: inferred from the placeholders (``RunKind/inferred(pipeline:videoID:videoCodec:phase:)``),
    /// as for a file written before the column existed.
    package init(
        pipeline: PipelineName, options: RunOptions,
        videoID: String, thumbnailCount: Int, thumbWidth: Int, thumbHeight: Int, accuracy: RowAccuracy, phase: Phase,
        kind: RunKind? = nil
    ) {
        self.pipeline = pipeline
        self.options = options
        self.videoID = videoID
        self.thumbnailCount = thumbnailCount
        self.thumbWidth = thumbWidth
        self.thumbHeight = thumbHeight
        self.accuracy = accuracy
        self.phase = phase
        self.kind = kind ?? RunKind.inferred(pipeline: pipeline, videoID: videoID, videoCodec: "", phase: phase)
    }

    /// One line, e.g. `taskgroup+simd [threads=4] clip-4k ×500 160x90 exact total`.
    package var description: String {
        let optionText = options.isEmpty ? "" : " [\(options)]"
        return "\(pipeline)\(optionText) \(videoID) ×\(thumbnailCount) \(thumbWidth)x\(thumbHeight) \(accuracy) \(phase.rawValue)"
    }

    /// Orders by ``description`` so reports list configurations in a stable order.
    package static func < (lhs: ConfigurationKey, rhs: ConfigurationKey) -> Bool {
        lhs.description < rhs.description
    }
}

extension ConfigurationKey {
    /// The options an interactive run records for the generator's defaults (its pool, the cache on).
    static let interactiveDefaultOptions: RunOptions = ["cache": "\(ThumbnailGeneratorOptions().cacheBytes)"]

    /// The interactive runs' reference, which the report and the plot show every other
    /// interactive configuration against: the standard strategy with the generator's defaults.
    package var isInteractiveReference: Bool {
        kind == .interactive && pipeline == .interactive(strategy: InteractiveStrategies.standard.name) && options == Self.interactiveDefaultOptions
    }
}
