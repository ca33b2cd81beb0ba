/// Where a pipeline's extractor puts each thumbnail: a property every pipeline has.
///
/// Either the extractor makes separate thumbnail images and a composer then copies them into
/// the strip, or the extractor's scaler writes each thumbnail straight into its rectangle of
/// the strip (a `StripCanvas`), so no thumbnail buffer exists and only the dimming is left.
/// Extractors do not care which: the shared decoding engine reads `ExtractionRequest.canvas`.
public enum StripDestination: Sendable, Hashable, CustomStringConvertible {
    /// Separate thumbnails, then this composer.
    case thumbnails(any StripComposer)
    /// Scaled straight into the strip.
    case canvas

    /// The canvas mode's name on the command line (`--composer fused`) and in result files'
    /// `composer` column, where it stood when it was listed as a composer; kept so committed
    /// results and users' command lines keep working.
    public static let canvasName = "fused"

    /// Every destination: each registered composer, then the canvas.
    public static var all: [StripDestination] { Composers.all.map { .thumbnails($0) } + [.canvas] }

    /// The destination called `name` (a composer's registry name, or `fused`), or nil.
    public static func named(_ name: String) -> StripDestination? {
        name == canvasName ? .canvas : Composers.named(name).map { .thumbnails($0) }
    }

    /// The registry name: the composer's, or `fused` for the canvas (what `--composer` and result files' `composer`
    /// column hold).
    public var name: String {
        switch self {
        case .thumbnails(let composer): composer.name
        case .canvas: Self.canvasName
        }
    }

    /// One line for `--help`.
    public var summary: String {
        switch self {
        case .thumbnails(let composer): composer.summary
        case .canvas: "the scaler writes each thumbnail straight into the strip (no thumbnail buffers)"
        }
    }

    /// Whether thumbnails are scaled straight into the strip (no thumbnail buffers to budget for).
    public var isCanvas: Bool { if case .canvas = self { true } else { false } }

    /// The composer's one-time set-up (`StripComposer.prepare()`); the canvas needs none.
    public func prepare() {
        if case .thumbnails(let composer) = self { composer.prepare() }
    }

    /// The destination's name, as `name` gives it.
    public var description: String { name }

    /// Destinations are equal when their names are, so two composers of one registry name count as one.
    public static func == (lhs: StripDestination, rhs: StripDestination) -> Bool { lhs.name == rhs.name }
    /// Hashes the name only, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
