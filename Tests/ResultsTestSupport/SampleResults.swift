import Foundation
@testable import FilmstripResults

/// Realistic raw results for the plot tests: four pipelines on two videos at four frame
/// counts (phases total and extract), every composer plus the memcpy floor composing 500
/// thumbnails of 114×64, and calibration rows; a second machine is 1.5 times slower.
package enum SampleResults {
    package static let fastMachine = Fixtures.machine()
    package static let slowMachine = Fixtures.machine(cpuModel: "AMD EPYC 7R13 Processor", memoryBytes: 16 << 30)
    package static let pipelines = ["sequential+simd", "forward+simd", "taskgroup+simd", "scan+rowcopy"]
    package static let frameCounts = [10, 50, 100, 500]
    package static let repetitions = 10
    /// Composition speed of each composer on the fast machine, in GB/s.
    package static let composerSpeeds: [(String, Double)] = [
        ("naive", 0.4), ("rowcopy", 6), ("simd", 7), ("tiled", 5.5), ("taskgroup", 9), ("openmp", 9.5), ("fused", 6), ("memcpy", 10),
    ]
    package static let videos = [
        VideoDescription(id: "h264-360p-5s", codec: "h264", width: 640, height: 360, durationSeconds: 5, frameCount: 150, gop: 60),
        VideoDescription(id: "h264-720p-60s", codec: "h264", width: 1280, height: 720, durationSeconds: 60, frameCount: 1800, gop: 120),
    ]

    /// Rows of `machines`; `phases` limits which phases appear.
    package static func rows(machines: [MachineFingerprint] = [fastMachine, slowMachine],
                     phases: Set<Phase> = Set(Phase.allCases), frameCounts: [Int] = frameCounts) -> [RawResultRow] {
        var generator = SeededGenerator(seed: 42)
        var rows: [RawResultRow] = []
        for (machineIndex, machine) in machines.enumerated() {
            let slowdown = machineIndex == 0 ? 1.0 : 1.5
            func add(_ pipeline: String, video: VideoDescription, thumbnailCount: Int, size: (Int, Int), phase: Phase, seconds: Double) {
                guard phases.contains(phase) else { return }
                for repetition in 0..<repetitions {
                    // ±4 % noise, and a slow first repetition as real runs have.
                    let noise = 1 + Double.random(in: -0.04...0.04, using: &generator) + (repetition == 0 ? 0.1 : 0)
                    let wall = seconds * slowdown * noise
                    rows.append(RawResultRow(
                        run: RunContext(runID: "run-\(machineIndex)", gitCommit: "da834b9", gitDirty: false, machine: machine),
                        timestamp: Date(timeIntervalSince1970: 1_800_000_000 + Double(rows.count)),
                        pipeline: PipelineName(cell: pipeline),
                        options: [:], video: video, thumbnailCount: thumbnailCount, thumbWidth: size.0, thumbHeight: size.1,
                        accuracy: "exact", phase: phase, repetition: repetition, wallSeconds: wall,
                        cpuUserSeconds: wall * 1.2, cpuSysSeconds: 0.01, peakRSSBytes: 80_000_000,
                        // As the bench writes them: the copy calibration makes no thumbnails, so it has no rate (0 is no measurement).
                        framesDecoded: thumbnailCount, thumbnailsPerSecond: thumbnailCount > 0 ? Double(thumbnailCount) / wall : nil, checksum: "abc",
                        maxFrameError: 0, disagreement: false, status: .ok, error: ""
                    ))
                }
            }
            for (pipelineIndex, pipeline) in pipelines.enumerated() {
                for (videoIndex, video) in videos.enumerated() {
                    for thumbnailCount in frameCounts {
                        let perFrame = 0.002 * Double(videoIndex * 3 + 1) / Double(pipelineIndex + 1)
                        let total = 0.01 + perFrame * Double(thumbnailCount)
                        add(pipeline, video: video, thumbnailCount: thumbnailCount, size: (114, 64), phase: .total, seconds: total)
                        add(pipeline, video: video, thumbnailCount: thumbnailCount, size: (114, 64), phase: .extract, seconds: total * 0.95)
                    }
                }
            }
            let stripBytes = Double(500 * 114 * 64 * 4)
            for (composer, speed) in composerSpeeds {
                let pipeline = composer == "memcpy" ? "none+memcpy" : "sequential+\(composer)"
                add(pipeline, video: videos[0], thumbnailCount: 500, size: (114, 64), phase: .compose, seconds: stripBytes / (speed * 1e9))
            }
            add("calibration", video: VideoDescription(id: "calibration", codec: "", width: 0, height: 0, durationSeconds: 0, frameCount: 0, gop: 0),
                thumbnailCount: 0, size: (0, 0), phase: .calibration, seconds: 0.2)
        }
        return rows
    }

    /// `rows` written to one raw results file per machine in a new temporary folder; returns the paths.
    /// `row` as a baseline and a candidate pair, repetition shifted by `copy` sample runs; the
    /// candidates of `slowed` pipelines take 30 % longer in wall and CPU time alike (the gate
    /// judges CPU time by default).
    package static func twoBuildPair(_ row: RawResultRow, copy: Int = 0, slowed: (String) -> Bool) -> [RawResultRow] {
        var baseline = row, candidate = row
        baseline.build = .baseline
        candidate.build = .candidate
        baseline.repetition += copy * repetitions
        candidate.repetition += copy * repetitions
        if slowed(row.pipeline.description), let wall = row.wallSeconds {
            candidate.wallSeconds = wall * 1.3
            candidate.cpuUserSeconds = row.cpuUserSeconds.map { $0 * 1.3 }
            candidate.cpuSysSeconds = row.cpuSysSeconds.map { $0 * 1.3 }
        }
        return [baseline, candidate]
    }

    package static func writeFiles(_ rows: [RawResultRow]) throws -> [String] {
        let folder = URL(fileURLWithPath: Fixtures.temporaryPath("results")).deletingLastPathComponent()
        var paths: [String] = []
        for (name, machineRows) in Dictionary(grouping: rows, by: \.run.machine.name).sorted(by: { $0.key < $1.key }) {
            let path = folder.appendingPathComponent("\(name)-raw.csv").path
            let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
            for row in machineRows { try writer.append(row) }
            paths.append(path)
        }
        return paths
    }
}
