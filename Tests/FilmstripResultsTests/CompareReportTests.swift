import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// The paired gate's decision rule (betting evidence judged by e-BH over the file, estimate
/// beyond the threshold, undecided otherwise) and the report's forms: verdict first, `--only-changed`, and the JSON shape read back
/// with a real JSON parser.
struct CompareReportTests {
    /// Two configurations of a two-build run: `slowed` takes `ratios[r]` times the baseline in
    /// repetition r, `steady` is unchanged (the same noise on both builds).
    static func twoConfigurations(ratios: [Double]) -> [RawResultRow] {
        ratios.enumerated().flatMap { repetition, ratio in
            let speed = PairedGateTests.drift[repetition % PairedGateTests.drift.count]
            return [("forward+rowcopy", ratio), ("scan+rowcopy", 1.0)].flatMap { pipeline, factor in
                BuildRole.allCases.map { role in
                    var row = Fixtures.row(pipeline: pipeline, repetition: repetition, wall: role == .baseline ? speed : speed * factor)
                    row.build = role
                    row.executableCommit = role == .baseline ? "aaaa" : "bbbb"
                    return row
                }
            }
        }
    }

    /// 12 pairs around +8 %, spread ±8 %: the 95 % interval (+3.9 % … ) does not clear +5 %, so
    /// the rule "whole interval beyond the threshold" would pass it; it is clearly not noise
    /// (the evidence of a change is strong) and its estimate is beyond 5 %, so the gate calls it.
    static let eightPercent = [1.00, 1.16, 1.03, 1.13, 1.01, 1.15, 1.05, 1.11, 1.08, 1.14, 1.02, 1.09]

    @Test func callsAChangeBeyondTheThresholdThatIsNotNoise() throws {
        let report = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoConfigurations(ratios: Self.eightPercent))
        #expect(report.familySize == 2)
        let slowed = try #require(report.comparisons.first { $0.key.pipeline == "forward+rowcopy" })
        #expect(slowed.ratioLow < 1.05 && slowed.ratio > 1.05 && slowed.evidenceGrew >= 40)
        #expect(slowed.verdict == .slower)
        #expect(report.comparisons.first { $0.key.pipeline == "scan+rowcopy" }?.verdict == .same)
        #expect(report.outcome == .regressed)
    }

    /// +2.6 % ± 3 %: real, but within the threshold; 24 pairs show it is within ±5 %.
    @Test func aRealChangeBelowTheThresholdPasses() {
        let report = RegressionGate(metric: .wallSeconds).comparePaired(
            Self.twoConfigurations(ratios: (Self.eightPercent + Self.eightPercent).map { 1 + ($0 - 1) / 3 }))
        #expect(report.comparisons.allSatisfy { $0.verdict == .same })
        #expect(report.outcome == .passed)
    }

    /// Too few pairs for the evidence is "undecided" (exit 3), never "same"; a few more decide.
    @Test func tooFewPairsAreUndecidedThenDecided() {
        let few = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoConfigurations(ratios: Array(repeating: 1.5, count: 4)))
        #expect(few.comparisons.allSatisfy { $0.verdict == .undecided })
        #expect(few.outcome == .undecided && few.outcome.exitCode == 3)
        #expect(few.text.hasPrefix("undecided: 2 configuration(s)"))
        let more = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoConfigurations(ratios: Array(repeating: 1.5, count: 10)))
        #expect(more.comparisons.map(\.verdict).sorted { $0.rawValue < $1.rawValue } == [.same, .slower])
        #expect(more.outcome == .regressed)
    }

    @Test func reportsLeadWithTheVerdictAndWhatChanged() {
        var report = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoConfigurations(ratios: Self.eightPercent))
        let lines = report.text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("regressed: 1 configuration(s) slower"))
        #expect(lines[1].hasPrefix("slower: forward+rowcopy"))
        #expect(report.markdown.hasPrefix("**regressed: "))
        #expect(report.text.contains("scan+rowcopy"))
        report.onlyChanged = true
        #expect(!report.text.contains("scan+rowcopy") && !report.markdown.contains("scan+rowcopy"))
        #expect(report.markdown.contains("| forward+rowcopy"))
    }

    @Test func jsonHasTheDocumentedShape() throws {
        var report = RegressionGate(metric: .wallSeconds).comparePaired(Self.twoConfigurations(ratios: Self.eightPercent))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["schema_version"] as? Int == 2)
        #expect(object["outcome"] as? String == "regressed" && object["exit_status"] as? Int == 2)
        #expect(object["form"] as? String == "paired" && object["metric"] as? String == "wall_s")
        #expect(object["threshold"] as? Double == 0.05 && object["family_size"] as? Int == 2)
        #expect((object["undecided"] as? [String])?.isEmpty == true)
        #expect(object["error"] is NSNull && object["machines"] is NSNull)
        #expect(object["candidate_commits"] as? [String] == ["bbbb"] && object["configurations_compared"] as? Int == 2)
        let configurations = try #require(object["configurations"] as? [[String: Any]])
        #expect(configurations.count == 2)
        let slowed = try #require(configurations.first { $0["pipeline"] as? String == "forward+rowcopy" })
        for key in ["configuration", "config_id", "extractor", "composer", "video_id", "accuracy", "phase", "verdict"] {
            #expect(slowed[key] is String, "\(key)")
        }
        for key in ["baseline_median", "candidate_median", "ratio", "ratio_low", "ratio_high", "coverage", "decision_low", "decision_high",
                    "evidence_grew", "evidence_shrank", "evidence_within"] {
            #expect(slowed[key] is Double, "\(key)")
        }
        #expect(slowed["n"] as? Int == 12 && slowed["verdict"] as? String == "slower" && slowed["options"] as? [String: String] == ["threads": "2"])
        #expect(slowed["normalised_by"] is NSNull && slowed["unnormalised"] is NSNull)
        #expect(slowed["gated"] as? Bool == true && (slowed["attribution"] as? [Any])?.isEmpty == true)
        #expect((object["work_changes"] as? [Any])?.isEmpty == true)
        report.onlyChanged = true
        let changed = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect((changed["configurations"] as? [Any])?.count == 1 && changed["only_changed"] as? Bool == true)
    }

    @Test func badInputIsJSONToo() throws {
        let report = RegressionGate().comparePaired(Fixtures.rows([1, 1, 1]), path: "x.csv")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "bad_input" && object["exit_status"] as? Int == 1)
        #expect((object["error"] as? String)?.hasPrefix("x.csv: ") == true)
    }
}

/// `bench --until-decided` records the metrics and threshold it decided on beside its raw file
/// (`NAME-gate.json`); `compare` of that file judges with them unless told otherwise.
@Suite struct GateSettingsTests {
    @Test func sidecarPath() {
        #expect(GateSettings.path(besideRaw: "results/ci-time-raw.csv") == "results/ci-time-gate.json")
        #expect(GateSettings.path(besideRaw: "runs/a.csv") == "runs/a.csv.gate.json")
    }

    /// A candidate 7 % slower in every pair: at compare's default 5 % it is slower (exit 2); with
    /// the 10 % bench recorded, within the threshold (exit 0), and said where the 10 % came from.
    @Test func compareUsesTheRecordedSettings() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gate-raw.csv").path
        do {
            let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
            for row in PairedGateTests.twoBuildRows(PairedGateTests.drift + PairedGateTests.drift + PairedGateTests.drift, ratio: 1.07) {
                try writer.append(row)
            }
        }
        let unrecorded = try CLISupport.run(["compare", path])
        #expect(unrecorded.status == 2, "\(unrecorded.standardOutput)")
        #expect(unrecorded.standardOutput.contains("wall +7.0 %") && unrecorded.standardOutput.contains("cpu +"))

        // The run of the rows (Fixtures' run id) decided on the default time gate's metrics at 10 %.
        try GateSettings(runID: "run-1", gate: .elapsedAndCPU(threshold: 0.10)).write(besideRaw: path)
        let recorded = try CLISupport.run(["compare", path])
        #expect(recorded.status == 0, "\(recorded.standardOutput)\(recorded.standardError)")
        #expect(WrappedText.joined(recorded.standardOutput).contains { $0.contains("gate settings recorded by `bench --until-decided` (run run-1): cpu_s and cpu_blocked_s and wall_s at 10 %") })
        #expect(recorded.standardOutput.contains("no configuration slower by more than 10 %"))
        // Told otherwise: the command line wins, each setting on its own.
        #expect(try CLISupport.run(["compare", path, "--threshold", "5%"]).status == 2)
        let wallOnly = try CLISupport.run(["compare", path, "--metric", "wall_s", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(wallOnly.standardOutput.utf8)) as? [String: Any])
        #expect(object["metrics"] as? [String] == ["wall_s"] && object["threshold"] as? Double == 0.10 && wallOnly.status == 0)

        // Settings of a run the file does not hold are not used, and said so.
        try GateSettings(runID: "another-run", gate: .elapsedAndCPU(threshold: 0.10)).write(besideRaw: path)
        let stale = try CLISupport.run(["compare", path])
        #expect(stale.status == 2 && stale.standardOutput.contains("of run another-run, which it does not hold: not used"))

        // A sidecar no gate can use is input that cannot be judged: exit 1, one line naming it.
        let sidecar = GateSettings.path(besideRaw: path)
        try "{\"run_id\": \"run-1\", \"metrics\": [\"cpu_s\"], \"threshold\": 7}".write(toFile: sidecar, atomically: true, encoding: .utf8)
        let broken = try CLISupport.run(["compare", path])
        #expect(broken.status == 1 && broken.standardError.contains(sidecar) && broken.standardError.split(separator: "\n").count == 1,
                "\(broken.standardError)")
    }
}
