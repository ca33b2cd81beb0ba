import Filmstrip
import Foundation

/// What every row of one harness run shares: which run, which code, which machine.
package struct RunContext: Sendable, Hashable, Codable {
    package var runID: String
    package var gitCommit: String
    /// `true` when the working tree had uncommitted changes.
    package var gitDirty: Bool
    package var machine: MachineFingerprint

    package init(runID: String, gitCommit: String, gitDirty: Bool, machine: MachineFingerprint) {
        self.runID = runID
        self.gitCommit = gitCommit
        self.gitDirty = gitDirty
        self.machine = machine
    }
}

/// The properties of a reference video that the timings depend on.
package struct VideoDescription: Sendable, Hashable, Codable {
    package var id: String
    /// FFmpeg codec name, e.g. `h264`.
    package var codec: String
    /// Coded width in pixels.
    package var width: Int
    /// Coded height in pixels.
    package var height: Int
    /// Stream duration in seconds.
    package var durationSeconds: Double
    package var frameCount: Int
    /// Keyframe interval in frames.
    package var gop: Int

    package init(id: String, codec: String, width: Int, height: Int, durationSeconds: Double, frameCount: Int, gop: Int) {
        self.id = id
        self.codec = codec
        self.width = width
        self.height = height
        self.durationSeconds = durationSeconds
        self.frameCount = frameCount
        self.gop = gop
    }

    /// The description rows carry for a video, from its probe (the one place the runner fills the
    /// video columns): a reference video's keyframe interval is its spec's `gop`; a user video's
    /// (nil) the mean of the file's own.
    package init(id: String, probe: VideoProbe, gop: Int? = nil) {
        let gop = gop ?? (probe.keyframes.isEmpty ? probe.frameCount : max(1, probe.frameCount / probe.keyframes.count))
        self.init(id: id, codec: probe.codec, width: probe.width, height: probe.height,
                  durationSeconds: probe.durationSeconds, frameCount: probe.frameCount, gop: gop)
    }
}
