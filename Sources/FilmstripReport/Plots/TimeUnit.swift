import FilmstripResults
/// Seconds shown in the unit that keeps a chart's numbers readable.
enum TimeUnit: String, Sendable {
    case seconds = "s"
    case milliseconds = "ms"

    /// Milliseconds when every value is below one second, so axes read 12.5 rather than 0.0125.
    init(forLargest seconds: Double) {
        self = seconds < 1 ? .milliseconds : .seconds
    }

    /// Multiply seconds by this to get the unit.
    var factor: Double { self == .seconds ? 1 : 1000 }
}
