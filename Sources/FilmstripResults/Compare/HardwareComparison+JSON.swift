import Foundation

extension HardwareComparison {
    /// `compare --format json` of two machines: `outcome` is `hardware` (exit 0), with every
    /// speed-up, ranking and scaling; keys snake_case and sorted, absent values `null`.
    package var json: String {
        (try? JSONText.encoded(document)) ?? #"{"outcome":"hardware","error":"the comparison cannot be written as JSON"}"#
    }

    /// The comparison as `compare --format json` writes it.
    package var document: Document { Document(self) }

    /// `compare --format json`'s object for two machines; each property is written under its
    /// snake_case key (``CodingKeys``), as docs/gate.md documents them.
    package struct Document: Encodable, Sendable {
        package var schemaVersion = GateReport.jsonSchemaVersion
        /// Always `hardware`: an answer, not a gate's verdict.
        package var outcome = "hardware"
        package var exitStatus = 0
        /// The headline's first line.
        package var summary: String
        package var machines: GateReport.Document.Machines
        /// The intervals' confidence level.
        package var level: Double
        /// Every configuration both measured, and the single-threaded calibrations apart.
        package var speedUps: [SpeedUpEntry]
        package var calibrations: [SpeedUpEntry]
        package var rankings: [RankingEntry]
        package var scalings: [ScalingEntry]

        enum CodingKeys: String, CodingKey {
            case schemaVersion = "schema_version", outcome, exitStatus = "exit_status", summary, machines, level
            case speedUps = "speed_ups", calibrations, rankings, scalings
        }

        init(_ comparison: HardwareComparison) {
            summary = comparison.headlineLines[0]
            machines = GateReport.Document.Machines(baseline: comparison.baseline.text, candidate: comparison.candidate.text)
            level = comparison.level
            speedUps = comparison.speedUps.map(SpeedUpEntry.init)
            calibrations = comparison.calibrations.map(SpeedUpEntry.init)
            rankings = comparison.rankings.map(RankingEntry.init)
            scalings = comparison.scalings.map(ScalingEntry.init)
        }
    }
}

extension HardwareComparison.Document {
    /// One configuration's wall-time speed-up, baseline / candidate, with its interval.
    package struct SpeedUpEntry: Encodable, Sendable {
        package var configuration: String
        package var configID: String
        /// Median wall time on each machine, in seconds.
        package var baselineWallSeconds: Double
        package var candidateWallSeconds: Double
        /// Baseline / candidate: 4.0 means the candidate machine takes a quarter of the time.
        package var speedUp: Double
        package var speedUpLow: Double
        package var speedUpHigh: Double
        package var coverage: Double
        /// The smaller machine's repetitions.
        package var n: Int
        /// `faster`, `slower` or `either`.
        package var direction: String

        enum CodingKeys: String, CodingKey {
            case configuration, configID = "config_id", baselineWallSeconds = "baseline_wall_s", candidateWallSeconds = "candidate_wall_s"
            case speedUp = "speed_up", speedUpLow = "speed_up_low", speedUpHigh = "speed_up_high", coverage, n, direction
        }

        init(_ entry: HardwareComparison.SpeedUp) {
            configuration = entry.key.description
            configID = entry.key.configID
            baselineWallSeconds = entry.baselineSeconds
            candidateWallSeconds = entry.candidateSeconds
            speedUp = entry.estimate
            speedUpLow = entry.low
            speedUpHigh = entry.high
            coverage = entry.coverage
            n = entry.count
            direction = entry.direction
        }
    }

    /// One request's pipelines, fastest first, on each machine.
    package struct RankingEntry: Encodable, Sendable {
        package var request: String
        package var changed: Bool
        package var fastestChanged: Bool
        package var baseline: [Pipeline]
        package var candidate: [Pipeline]

        enum CodingKeys: String, CodingKey {
            case request, changed, fastestChanged = "fastest_changed", baseline, candidate
        }

        /// A pipeline's label and median wall time on one machine.
        package struct Pipeline: Encodable, Sendable {
            package var pipeline: String
            package var wallSeconds: Double

            enum CodingKeys: String, CodingKey {
                case pipeline, wallSeconds = "wall_s"
            }
        }

        init(_ ranking: HardwareComparison.Ranking) {
            request = ranking.request.byHeight
            changed = ranking.changed
            fastestChanged = ranking.fastestChanged
            baseline = ranking.baseline.map { Pipeline(pipeline: $0.label, wallSeconds: $0.seconds) }
            candidate = ranking.candidate.map { Pipeline(pipeline: $0.label, wallSeconds: $0.seconds) }
        }
    }

    /// The task group against the sequential extractor on each machine.
    package struct ScalingEntry: Encodable, Sendable {
        package var request: String
        package var composer: String
        package var pipeline: String
        package var referencePipeline: String
        package var baseline: Side
        package var candidate: Side

        enum CodingKeys: String, CodingKey {
            case request, composer, pipeline, referencePipeline = "reference_pipeline", baseline, candidate
        }

        /// One machine's speed-up beside the bound's, where the rows carry it.
        package struct Side: Encodable, Sendable {
            package var speedUp: Double
            package var taskgroupWallSeconds: Double
            @NullWhenAbsent package var boundSeconds: Double?
            @NullWhenAbsent package var boundSpeedUp: Double?
            @NullWhenAbsent package var workers: Int?

            enum CodingKeys: String, CodingKey {
                case speedUp = "speed_up", taskgroupWallSeconds = "taskgroup_wall_s", boundSeconds = "bound_s"
                case boundSpeedUp = "bound_speed_up", workers
            }

            init(_ side: HardwareComparison.Scaling.Side) {
                speedUp = side.speedUp
                taskgroupWallSeconds = side.seconds
                boundSeconds = side.boundSeconds
                boundSpeedUp = side.boundSpeedUp
                workers = side.workers
            }
        }

        init(_ scaling: HardwareComparison.Scaling) {
            request = scaling.request.byHeight
            composer = scaling.composer
            pipeline = scaling.pipeline
            referencePipeline = scaling.referencePipeline
            baseline = Side(scaling.baseline)
            candidate = Side(scaling.candidate)
        }
    }
}
