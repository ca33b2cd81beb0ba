import Foundation

/// What every row of one harness run shares: which run, which code, which machine.
public struct RunContext: Sendable, Hashable, Codable {
    public var runID: String
    public var gitCommit: String
    /// `true` when the working tree had uncommitted changes.
    public var gitDirty: Bool
    public var machine: MachineFingerprint

    public init(runID: String, gitCommit: String, gitDirty: Bool, machine: MachineFingerprint) {
        self.runID = runID
        self.gitCommit = gitCommit
        self.gitDirty = gitDirty
        self.machine = machine
    }
}

/// The properties of a reference video that the timings depend on.
public struct VideoDescription: Sendable, Hashable, Codable {
    public var id: String
    /// FFmpeg codec name, e.g. `h264`.
    public var codec: String
    /// Coded width in pixels.
    public var width: Int
    /// Coded height in pixels.
    public var height: Int
    /// Stream duration in seconds.
    public var durationSeconds: Double
    public var frameCount: Int
    /// Keyframe interval in frames.
    public var gop: Int

    public init(id: String, codec: String, width: Int, height: Int, durationSeconds: Double, frameCount: Int, gop: Int) {
        self.id = id
        self.codec = codec
        self.width = width
        self.height = height
        self.durationSeconds = durationSeconds
        self.frameCount = frameCount
        self.gop = gop
    }
}
