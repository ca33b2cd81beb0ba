/// What an interactive run's step measured beyond time and CPU (``RunKind/interactive`` rows):
/// what the user saw and when, and what the generator left behind.
package struct InteractiveMeasures: Sendable, Hashable, Codable {
    /// From the step's first request to its first image, coarse or final (seconds).
    package var firstThumbnailSeconds: Double?
    /// From the step's first request until every slot of its last request had an image, coarse or final (seconds).
    package var fullRowSeconds: Double?
    /// From the step's first request to the last request's last final image (seconds).
    package var allThumbnailsSeconds: Double?
    /// Median and 95th percentile (type 7, ``Quantile``) of the latencies of the requests that
    /// were not superseded, each from the request to its last final image (seconds).
    package var latencyP50Seconds: Double?
    package var latencyP95Seconds: Double?
    /// Frames decoded for requests that were cancelled or superseded.
    package var wastedFrames: Int?
    /// Images served from the generator's cache.
    package var cacheHits: Int?
    /// `soak` only: resident bytes after the last request less those after the first (may be negative).
    package var residentGrowthBytes: Int?
    /// `soak` only: the process's threads after the last request less those after the first.
    package var threadsLeft: Int?
    /// `soak` only: decoders still working once the last request was answered.
    package var busyDecoders: Int?

    /// As the memberwise initialiser, which is internal: the runner (FilmstripBench) makes these.
    package init(firstThumbnailSeconds: Double? = nil, fullRowSeconds: Double? = nil, allThumbnailsSeconds: Double? = nil,
                 latencyP50Seconds: Double? = nil, latencyP95Seconds: Double? = nil, wastedFrames: Int? = nil, cacheHits: Int? = nil,
                 residentGrowthBytes: Int? = nil, threadsLeft: Int? = nil, busyDecoders: Int? = nil) {
        self.firstThumbnailSeconds = firstThumbnailSeconds
        self.fullRowSeconds = fullRowSeconds
        self.allThumbnailsSeconds = allThumbnailsSeconds
        self.latencyP50Seconds = latencyP50Seconds
        self.latencyP95Seconds = latencyP95Seconds
        self.wastedFrames = wastedFrames
        self.cacheHits = cacheHits
        self.residentGrowthBytes = residentGrowthBytes
        self.threadsLeft = threadsLeft
        self.busyDecoders = busyDecoders
    }
}

/// How far a sprite's tiles lie from their cues (``RunKind/sprite`` rows), read back through
/// the reference videos' frame markers: cue k starts at k · interval.
package struct SpriteTileCheck: Sendable, Hashable, Codable {
    /// Tiles the run wrote.
    package var tiles: Int
    /// Tiles whose marker could not be read.
    package var unreadable: Int
    /// Largest and mean distance between a tile's frame and its cue's start (seconds).
    package var worstErrorSeconds: Double
    package var meanErrorSeconds: Double

    package init(tiles: Int, unreadable: Int, worstErrorSeconds: Double, meanErrorSeconds: Double) {
        self.tiles = tiles
        self.unreadable = unreadable
        self.worstErrorSeconds = worstErrorSeconds
        self.meanErrorSeconds = meanErrorSeconds
    }
}
