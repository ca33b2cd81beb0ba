import FilmstripResults

/// What one `bench-run` child measured, printed by the child as one JSON line.
public struct BenchMeasurement: Sendable, Hashable, Codable {
    /// Cost of one phase of the run.
    public struct PhaseCost: Sendable, Hashable, Codable {
        public var phase: Phase
        /// Monotonic wall-clock seconds.
        public var wallSeconds: Double
        /// User CPU seconds of the process during the phase, all threads (`getrusage`).
        public var cpuUserSeconds: Double
        /// System CPU seconds of the process during the phase, all threads.
        public var cpuSysSeconds: Double
        /// Peak resident set size of the process in bytes when the phase ended (its own `VmHWM`).
        public var peakRSSBytes: Int
        /// Frames the decoder produced in the phase; nil when the phase does not decode.
        public var framesDecoded: Int?
        /// Work counters (nil from children built before they existed, or when the phase does not decode).
        public var packetsRead: Int?
        public var seeks: Int?
        /// Bytes read with `read(2)` by the process during the phase.
        public var bytesRead: Int?
        /// Bytes of the video's packets the phase read (``DecodeCounters/packetBytes``).
        public var videoBytes: Int?
        /// Heap allocations by the process during the phase.
        public var heapAllocations: Int?
        /// The phase's bound (pipeline phases and filmstrip's own whole process; nil elsewhere
        /// and from children built before it was measured).
        public var bound: PhaseBound?
        /// Interactive steps: latencies, wasted frames, what a soak left behind (nil elsewhere).
        public var interactive: InteractiveMeasures?
        /// Sprite runs: how far the tiles lie from their cues (nil elsewhere).
        public var spriteTiles: SpriteTileCheck?

        public init(phase: Phase, wallSeconds: Double, cpuUserSeconds: Double, cpuSysSeconds: Double,
                    peakRSSBytes: Int, framesDecoded: Int?) {
            self.phase = phase
            self.wallSeconds = wallSeconds
            self.cpuUserSeconds = cpuUserSeconds
            self.cpuSysSeconds = cpuSysSeconds
            self.peakRSSBytes = peakRSSBytes
            self.framesDecoded = framesDecoded
        }
    }

    /// In the order of ``BenchConfiguration/phases``.
    public var phases: [PhaseCost]
    /// ``StripChecksum`` of the strip's visible pixels.
    public var checksum: String
    /// Largest |marker − planned frame index| over the thumbnails; nil when a marker
    /// could not be read or the run had no video.
    public var maxFrameError: Int?
    /// The commit the child executable was built from; nil from children built before it was recorded.
    public var executableCommit: String?
    /// `debug` or `release`: the child's own build, which the parent's may not be.
    public var buildConfiguration: String?

    public init(phases: [PhaseCost], checksum: String, maxFrameError: Int?) {
        self.phases = phases
        self.checksum = checksum
        self.maxFrameError = maxFrameError
    }
}
