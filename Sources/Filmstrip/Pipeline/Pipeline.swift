import Foundation

/// How the strip is laid out around the thumbnails.
public struct StripOptions: Sendable, Hashable {
    /// nil: one horizontal row; otherwise a grid (contact sheet) this many thumbnails wide.
    public var columns: Int?
    /// Pixels between neighbouring thumbnails (and rows).
    public var gap: Int
    /// Colour of the gaps and of cell margins; `RGBAColor.transparent` keeps them transparent in PNG output.
    public var background: RGBAColor
    /// Seconds from the video's start that stay bright; the rest of the strip is dimmed.
    public var selection: Range<Rational>?
    /// Brightness kept outside the selection, in 256ths (153 ≈ 60 %).
    public var dimFactor256: Int
    /// Text drawn on the finished strip: tile times, a header above the tiles.
    public var annotation: SheetAnnotation

    /// Layout options; the defaults give one row of thumbnails on black with no gaps, no dimming and no text.
    public init(columns: Int? = nil, gap: Int = 0, background: RGBAColor = .black,
                selection: Range<Rational>? = nil, dimFactor256: Int = Dimming.defaultFactor256,
                annotation: SheetAnnotation = SheetAnnotation()) {
        self.columns = columns
        self.gap = gap
        self.background = background
        self.selection = selection
        self.dimFactor256 = dimFactor256
        self.annotation = annotation
    }
}

/// A finished strip, what each thumbnail shows, and what it cost.
public struct StripResult: Sendable {
    /// The strip as the pipeline made it, for writing in place: an `Image`, or for fused
    /// pipelines the canvas the scalers wrote into (RGB when the strip is opaque).
    public let pixels: any PixelRows
    /// The strip as an RGBA image; for fused pipelines a copy of the canvas, made on each use.
    public var strip: Image { pixels.rgbaImage() }
    /// In plan order; `image` is nil for fused pipelines.
    public let thumbnails: [Thumbnail]
    /// Where each thumbnail lies among the tiles, and the tiles' size in pixels.
    public let layout: StripLayout
    /// The margin and header around the tiles (`SheetAnnotation`), `.none` without text: tile
    /// rectangles in the image are `layout`'s moved right by `frame.left` and down by `frame.top`.
    public var frame = SheetFrame.none
    /// Frames decoded, packets read and seeks made by the extractor.
    public let counters: DecodeCounters
    /// Wall-clock seconds of each phase (for fused pipelines extraction includes the scaling into the strip).
    public let extractSeconds: Double
    /// Wall-clock seconds of the compose phase (only the dimming for fused pipelines), and
    /// the drawing of any `SheetAnnotation`.
    public let composeSeconds: Double
}

/// One extractor plus where its thumbnails go, named like `taskgroup+simd` (or `taskgroup+fused`
/// for the canvas).
public struct Pipeline: Sendable {
    /// The strategy that decodes and scales the thumbnails.
    public let extractor: any ThumbnailExtractor
    /// Where the extractor puts the thumbnails: separate images for a composer, or straight into the strip.
    public let destination: StripDestination

    /// A pipeline of `extractor` writing to `destination` (see `StripDestination`).
    public init(extractor: any ThumbnailExtractor, destination: StripDestination) {
        self.extractor = extractor
        self.destination = destination
    }

    /// Separate thumbnails, then `composer`.
    public init(extractor: any ThumbnailExtractor, composer: any StripComposer) {
        self.init(extractor: extractor, destination: .thumbnails(composer))
    }

    /// "EXTRACTOR+DESTINATION" from the registries, or nil when either name is unknown.
    public init?(named name: String) {
        let parts = name.split(separator: "+").map(String.init)
        guard parts.count == 2, let extractor = Extractors.named(parts[0]), let destination = StripDestination.named(parts[1]) else { return nil }
        self.init(extractor: extractor, destination: destination)
    }

    /// What `filmstrip strip` uses unless told otherwise: the fastest pipeline of the committed
    /// results that makes the same bytes as `sequential+naive` from exact frames (the README's
    /// "Defaults" says why; `DefaultPipelineTests` re-checks both against the results files).
    public static var `default`: Pipeline { Pipeline(extractor: TaskGroupExtractor(), destination: .canvas) }

    /// The default pipeline's decoder setting: non-reference frames that are not shown are not
    /// decoded. Nothing refers to them, so every shown frame has the same bytes.
    public static let defaultSkipsNonReferenceFrames = true

    /// `EXTRACTOR+DESTINATION` (a composer's name, or `fused` for the canvas), as `--pipeline` takes it and result
    /// files record it.
    public var name: String { "\(extractor.name)+\(destination.name)" }

    /// The strip's layout for `request`: every thumbnail has the request's size.
    public static func layout(for request: ExtractionRequest, options: StripOptions) throws -> StripLayout {
        let (width, height) = request.thumbnailPixels
        var layout = try StripLayout(thumbnailSizes: Array(repeating: PixelSize(width: width, height: height), count: request.plan.count),
                                     columns: options.columns, gap: options.gap, background: options.background)
        if let selection = options.selection {
            let plan = request.plan
            let step = (plan.to - plan.from) / Rational(Int64(plan.count))
            let starts = (0..<plan.count).map { plan.from + step * Rational(Int64($0)) }
            layout = try layout.dimmed(outsideTimes: selection, thumbnailStarts: starts, end: plan.to, factor256: options.dimFactor256)
        }
        return layout
    }

    /// Moments of a run, for a caller measuring more than the wall clock (the benchmark).
    public enum Mark: Sendable {
        /// `started` before extraction, `extracted` between the phases, `composed` at the end.
        case started, extracted, composed
    }

    /// Extracts, then composes; stops with `CancellationError` when the task is cancelled.
    /// `mark` is called at the start, between the phases and at the end, on the running task.
    /// - Parameters:
    ///   - request: the video, its plan, the thumbnail size and the extraction options.
    ///   - options: columns, gap, background and dimming of the strip.
    ///   - onProgress: called with (thumbnails done, total) as thumbnails arrive, from any task.
    ///   - mark: called with each `Mark`, for timing the phases.
    /// - Returns: the strip's pixels, the thumbnails in plan order, the layout, counters and phase times.
    /// - Throws: `LayoutError` for a layout that cannot be built, and whatever the extractor or
    ///   composer throws (`MediaError` for unreadable video, `CompositionError`).
    public func run(_ request: ExtractionRequest, options: StripOptions = StripOptions(),
                    onProgress: (@Sendable (Int, Int) -> Void)? = nil, mark: (Mark) -> Void = { _ in }) async throws -> StripResult {
        try await run(request, layout: try Self.layout(for: request, options: options), options: options, onProgress: onProgress, mark: mark)
    }

    /// Runs as `run(_:options:onProgress:mark:)` into a layout already made for `request` and
    /// `options` (`Pipeline.layout(for:options:)`), as a ``StripJob`` makes it to check its limits.
    public func run(_ request: ExtractionRequest, layout: StripLayout, options: StripOptions,
                    onProgress: (@Sendable (Int, Int) -> Void)? = nil, mark: (Mark) -> Void = { _ in }) async throws -> StripResult {
        let clock = ContinuousClock()
        mark(.started)
        let extractStart = clock.now
        let pixels: any PixelRows, thumbnails: [Thumbnail], counters: DecodeCounters, extracted: ContinuousClock.Instant
        switch destination {
        case .canvas:
            let canvas = try StripCanvas(layout: layout, for: request)
            (thumbnails, counters) = try await extractor.thumbnails(for: request.scaling(into: canvas), onProgress: onProgress)
            extracted = clock.now
            mark(.extracted)
            canvas.dim(layout.dimming)
            pixels = canvas
        case .thumbnails(let composer):
            (thumbnails, counters) = try await extractor.thumbnails(for: request, onProgress: onProgress)
            extracted = clock.now
            mark(.extracted)
            var strip = try Image(width: layout.width, height: layout.height, roomFor: "the strip's pixels")
            // Extractors asked for separate thumbnails deliver an image for each; were one missing,
            // the composer's count check would refuse the shorter list instead of a crash here.
            try await composer.compose(thumbnails.compactMap(\.image), layout: layout, into: &strip)
            pixels = strip
        }
        let annotation = options.annotation
        let frame = try annotation.frame(stripWidth: layout.width, probe: request.probe)
        let annotated: any PixelRows = annotation.isEmpty ? pixels : try annotation.apply(to: pixels, layout: layout, thumbnails: thumbnails, request: request, frame: frame)
        mark(.composed)
        var result = StripResult(pixels: annotated, thumbnails: thumbnails, layout: layout, counters: counters,
                                 extractSeconds: (extracted - extractStart).seconds, composeSeconds: (clock.now - extracted).seconds)
        result.frame = frame
        return result
    }
}

extension Duration {
    /// This duration in seconds, for reporting only.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
