import Foundation
import ResultsTestSupport
import Testing
@testable import FilmstripReport
@testable import FilmstripResults

/// A run that failed is a fact the gate judges, never a row it drops: a configuration that ran
/// in the baseline and failed in the candidate is a regression in every output, and two files
/// with nothing in common are bad input, never an empty pass.
struct FailureVerdictTests {
    /// A two-build run as `bench` writes it when the candidate's `sequential` run fails in its
    /// first repetition: `forward` paired in every repetition at the same speed, `sequential`
    /// measured by the baseline before the failure, then one failed candidate row per phase, and
    /// the configuration dropped from later repetitions for both builds.
    static func rows(failure: String?, disagreement: Bool = false, failedBuild: BuildRole = .candidate) -> [RawResultRow] {
        var rows = PairedGateTests.twoBuildRows(PairedGateTests.drift, ratio: 1.0)
        rows = rows.map { row in
            var row = row
            row.pipeline = "forward+rowcopy"
            return row
        }
        for role in BuildRole.allCases {
            for phase in [Phase.extract, .compose, .total] {
                var row = Fixtures.row(pipeline: "sequential+rowcopy", phase: phase, repetition: 0, wall: 0.3)
                row.build = role
                if role == failedBuild, let failure {
                    row = Fixtures.row(pipeline: "sequential+rowcopy", phase: phase, repetition: 0, wall: nil, status: .error, error: failure)
                    row.build = role
                    row.cpuSysSeconds = nil
                }
                if role == failedBuild, disagreement { row.disagreement = true }
                rows.append(row)
            }
        }
        return rows
    }

    static let failures: [(String?, Bool, ConfigurationFailure.Kind)] = [
        ("child killed by signal 11", false, .crashed),
        ("child exit status 1: filmstrip: cannot open the video", false, .exited),
        ("exceeded the time limit of 2 s", false, .timedOut),
        (nil, true, .wrongOutput),
    ]

    @Test("a configuration that failed in the candidate only: exit 2, named with its failure in text, markdown, JSON and the report",
          arguments: failures)
    func aCandidateFailureIsARegression(failure: String?, disagreement: Bool, kind: ConfigurationFailure.Kind) throws {
        let rows = Self.rows(failure: failure, disagreement: disagreement)
        let report = RegressionGate.elapsedAndCPU().comparePaired(rows)
        #expect(report.outcome == .regressed && report.outcome.exitCode == 2, "\(report.outcomeLine)")
        let failed = try #require(report.failures.first)
        #expect(report.failures.count == 1 && failed.gated && failed.side == .candidate && failed.kind == kind)
        #expect(failed.key.pipeline == "sequential+rowcopy" && failed.key.phase == .total)
        #expect(report.outcomeLine.hasPrefix("regressed: 1 configuration(s) failed in the candidate only (\(kind.words))"), "\(report.outcomeLine)")
        // Text: the failure leads, under the outcome, with its reason.
        let text = WrappedText.joined(report.text)
        let line = try #require(text.first { $0.hasPrefix("failed: sequential+rowcopy") }, "\(report.text)")
        #expect(line.contains("the candidate \(kind.words)") && line.contains(failure ?? "differs from the other pipelines"), "\(line)")
        #expect(text.firstIndex(of: line) == 1)
        #expect(report.markdown.contains("- failed: sequential+rowcopy") && report.markdown.hasPrefix("**regressed: "))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "regressed" && object["exit_status"] as? Int == 2)
        let entry = try #require((object["failures"] as? [[String: Any]])?.first)
        #expect(entry["failed_build"] as? String == "candidate" && entry["failure"] as? String == kind.rawValue && entry["gated"] as? Bool == true)
        #expect((entry["configuration"] as? String)?.hasPrefix("sequential+rowcopy") == true)
        // The report's verdict says the same.
        let page = HTMLReport(sources: ["ab-raw.csv"], rowsByFile: [rows])
        let verdict = try #require(page.verdictSection.components(separatedBy: "<h2>").dropFirst().first)
        #expect(verdict.contains("regressed: 1 configuration(s) failed in the candidate only") && verdict.contains("failed: sequential+rowcopy"), "\(verdict)")
    }

    @Test func aFailureOfTheBaselineOnlyOrOfBothDoesNotFailTheGate() throws {
        let fixed = RegressionGate.elapsedAndCPU().comparePaired(Self.rows(failure: "child killed by signal 6", failedBuild: .baseline))
        #expect(fixed.outcome == .passed, "\(fixed.outcomeLine)")
        #expect(fixed.failures.map(\.side) == [.baseline] && fixed.failures.allSatisfy { !$0.gated })
        #expect(fixed.headlineLines == [fixed.outcomeLine] && fixed.extrasLines.contains { $0.hasPrefix("fixed (not gated): sequential+rowcopy") })
        // Both builds failed it: the same on both sides, not a change.
        var both = Self.rows(failure: "child killed by signal 6", failedBuild: .baseline)
        both = both.map { row in
            var row = row
            if row.pipeline == "sequential+rowcopy", row.build == .candidate {
                row.status = .error
                row.error = "child killed by signal 6"
                row.wallSeconds = nil
            }
            return row
        }
        let same = RegressionGate.elapsedAndCPU().comparePaired(both)
        #expect(same.failures.isEmpty && same.outcome == .passed, "\(same.outcomeLine)")
    }

    @Test func separateRunsJudgeFailuresToo() throws {
        let rows = Self.rows(failure: "exceeded the time limit of 2 s")
        let strip = { (role: BuildRole, runID: String) in
            rows.filter { $0.build == role }.map { row in
                var row = row
                row.build = nil
                row.run.runID = runID
                return row
            }
        }
        let report = RegressionGate(metric: .wallSeconds).compare(baseline: strip(.baseline, "a"), candidate: strip(.candidate, "b"))
        #expect(report.outcome == .regressed, "\(report.outcomeLine)")
        #expect(report.failures.count == 1 && report.failures[0].kind == .timedOut)
    }

    /// Another machine's file whose runs all failed, or one with no configuration in common:
    /// `compare` exits 1 with one line saying why, not "faster in 0 of 0" and exit 0.
    @Test func nothingComparedIsBadInput() throws {
        let folder = try CLISupport.scratchDirectory()
        let baseline = folder.appendingPathComponent("a-raw.csv").path
        let failed = folder.appendingPathComponent("failed-raw.csv").path
        let other = folder.appendingPathComponent("other-raw.csv").path
        let elsewhere = Fixtures.machine(cpuModel: "AMD EPYC 9B14", memoryBytes: 16 << 30)
        try Self.write(Fixtures.rows([0.25, 0.26, 0.24, 0.25, 0.25, 0.26]), to: baseline)
        try Self.write((0..<6).map { Fixtures.row(machine: elsewhere, repetition: $0, wall: nil, status: .error, error: "child killed by signal 11") }, to: failed)
        try Self.write(Fixtures.rows([0.5, 0.5, 0.5, 0.5, 0.5, 0.5], machine: elsewhere, pipeline: "forward+rowcopy"), to: other)
        for (candidate, reason) in [(failed, "every one of the 6 candidate run(s) failed"), (other, "share no configuration")] {
            for format in ["text", "json"] {
                let result = try CLISupport.run(["compare", baseline, candidate, "--format", format])
                #expect(result.status == 1, "\(format): \(result.standardOutput)")
                let lines = result.standardError.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("filmstrip: bad input: ") && lines[0].contains(reason), "\(result.standardError)")
            }
            #expect(try CLISupport.run(["compare", baseline, candidate, "--gate"]).status == 1)
        }
        // The same machine's run with nothing in common: the same answer.
        let sameMachine = folder.appendingPathComponent("same-raw.csv").path
        try Self.write(Fixtures.rows([0.5, 0.5, 0.5, 0.5, 0.5, 0.5], pipeline: "forward+rowcopy"), to: sameMachine)
        let result = try CLISupport.run(["compare", baseline, sameMachine])
        #expect(result.status == 1 && result.standardError.contains("share no configuration"), "\(result.standardError)")
    }

    static func write(_ rows: [RawResultRow], to path: String) throws {
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        for row in rows { try writer.append(row) }
    }
}
