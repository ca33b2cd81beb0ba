import FilmstripResults

/// What one `bench-run` child measured, printed by the child as one JSON line.
package struct BenchMeasurement: Sendable, Hashable, Codable {
    /// Cost of one phase of the run.
    package struct PhaseCost: Sendable, Hashable, Codable {
        package var phase: Phase
        /// Monotonic wall-clock seconds.
        package var wallSeconds: Double
        /// User CPU seconds of the process during the phase, all threads (`getrusage`).
        package var cpuUserSeconds: Double
        /// System CPU seconds of the process during the phase, all threads.
        package var cpuSysSeconds: Double
        /// Peak resident set size of the process in bytes when the phase ended (its own `VmHWM`).
        package var peakRSSBytes: Int
        /// Frames the decoder produced in the phase; nil when the phase does not decode.
        package var framesDecoded: Int?
        /// Work counters (nil from children built before they existed, or when the phase does not decode).
        package var packetsRead: Int?
        package var seeks: Int?
        /// Bytes read with `read(2)` by the process during the phase.
        package var bytesRead: Int?
        /// Bytes of the video's packets the phase read (``DecodeCounters/packetBytes``).
        package var videoBytes: Int?
        /// Heap allocations by the process during the phase.
        package var heapAllocations: Int?
        /// The phase's bound (pipeline phases and filmstrip's own whole process; nil elsewhere
        /// and from children built before it was measured).
        package var bound: PhaseBound?
        /// Interactive steps: latencies, wasted frames, what a soak left behind (nil elsewhere).
        package var interactive: InteractiveMeasures?
        /// Sprite runs: how far the tiles lie from their cues (nil elsewhere).
        package var spriteTiles: SpriteTileCheck?
        /// The phase's waiting by kind (in-process phases; nil from children built before it was measured).
        package var waiting: WaitingTimes?

    }

    /// In the order of ``BenchConfiguration/phases``.
    package var phases: [PhaseCost]
    /// ``StripChecksum`` of the strip's visible pixels.
    package var checksum: String
    /// Largest |marker − planned frame index| over the thumbnails; nil when a marker
    /// could not be read or the run had no video.
    package var maxFrameError: Int?
    /// The commit the child executable was built from; nil from children built before it was recorded.
    package var executableCommit: String?
    /// `debug` or `release`: the child's own build, which the parent's may not be.
    package var buildConfiguration: String?

}
