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
        /// Peak resident set size of the process in bytes when the phase ended (`ru_maxrss`).
        public var peakRSSBytes: Int
        /// Frames the decoder produced in the phase; nil when the phase does not decode.
        public var framesDecoded: Int?

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

    public init(phases: [PhaseCost], checksum: String, maxFrameError: Int?) {
        self.phases = phases
        self.checksum = checksum
        self.maxFrameError = maxFrameError
    }
}
