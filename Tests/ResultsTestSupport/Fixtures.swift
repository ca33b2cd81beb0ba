import Foundation
@testable import FilmstripResults

package enum Fixtures {
    package static func machine(cpuModel: String = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", memoryBytes: Int = 8 << 30) -> MachineFingerprint {
        MachineFingerprint(
            cpuModel: cpuModel, logicalCores: 2, simdFeatures: ["avx2", "sse4_2"],
            l1dCacheBytes: 48 * 1024, l2CacheBytes: nil, l3CacheBytes: 32 << 20, memoryBytes: memoryBytes,
            kernel: "6.1.0-18-amd64", frequencyGovernor: "unavailable", swiftVersion: "6.3",
            buildConfiguration: "release", ffmpegVersions: ["libavcodec": "59.37.100", "libavformat": "59.27.100"]
        )
    }

    package static func row(
        machine: MachineFingerprint = machine(), pipeline: String = "sequential+memcpy", phase: Phase = .total,
        repetition: Int = 0, wall: Double? = 0.25, status: RunStatus = .ok, error: String = ""
    ) -> RawResultRow {
        return RawResultRow(
            run: RunContext(runID: "run-1", gitCommit: "582c9fc", gitDirty: false, machine: machine),
            timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(repetition)),
            pipeline: PipelineName(cell: pipeline),
            options: ["threads": "2"],
            video: VideoDescription(id: "clip-1080p", codec: "h264", width: 1920, height: 1080, durationSeconds: 244.5, frameCount: 5868, gop: 48),
            thumbnailCount: 500, thumbWidth: 160, thumbHeight: 90, accuracy: "exact", phase: phase, repetition: repetition,
            wallSeconds: wall, cpuUserSeconds: wall.map { $0 * 1.5 }, cpuSysSeconds: 0.01, peakRSSBytes: 123_456_789,
            framesDecoded: 5868, thumbnailsPerSecond: wall.map { 500 / $0 }, checksum: "9f86d081884c7d65",
            maxFrameError: 0, disagreement: false, status: status, error: error
        )
    }

    /// Rows of one configuration with the given wall times, in repetition order.
    package static func rows(_ walls: [Double], machine: MachineFingerprint = machine(), pipeline: String = "sequential+memcpy", phase: Phase = .total) -> [RawResultRow] {
        walls.enumerated().map { row(machine: machine, pipeline: pipeline, phase: phase, repetition: $0, wall: $1) }
    }

    package static func temporaryPath(_ name: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-bench-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    /// A fresh, not yet made folder for a test's plots (in a new temporary folder).
    package static func plotFolder() -> String {
        URL(fileURLWithPath: temporaryPath("x")).deletingLastPathComponent().appendingPathComponent("plots").path
    }
}
