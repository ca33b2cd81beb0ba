import CLITestSupport
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// The real thing for failures: a two-build `bench` whose candidate is a wrapper script that
/// fails whenever the `sequential` extractor is in its arguments (a crash, a non-zero exit, a
/// run past the time limit) and runs the real executable otherwise. `compare` must fail it,
/// naming the configuration and its failure in text, markdown and JSON, and `report` must lead
/// with the same verdict: the failed configuration never vanishes from both builds.
@Suite(.serialized) struct FailingCandidateTests {
    enum Failure: String, CaseIterable {
        case crash, exit, timeout

        /// What the wrapper does instead of running the child.
        var action: String {
            switch self {
            case .crash: "kill -SEGV $$"
            case .exit: "echo 'made to fail' >&2; exit 1"
            case .timeout: "exec sleep 30"
            }
        }

        var kind: ConfigurationFailure.Kind {
            switch self {
            case .crash: .crashed
            case .exit: .exited
            case .timeout: .timedOut
            }
        }
    }

    @Test(arguments: Failure.allCases)
    func aCandidateThatFailsInOneConfigurationRegresses(failure: Failure) throws {
        let folder = try CLISupport.scratchDirectory()
        let wrapper = folder.appendingPathComponent("candidate.sh").path
        // The child's configuration is one JSON argument; only `sequential`'s names it.
        try """
            #!/bin/sh
            case "$*" in *'"extractor":"sequential"'*) \(failure.action) ;; esac
            exec '\(CLIProcess.executable.path)' "$@"

            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let name = folder.appendingPathComponent("ab").path
        let bench = try CLISupport.run(["bench"] + CLISupport.tinyBenchMatrix
            + ["--pipelines-only", "--no-until-decided", "--time-limit", "3", "--out", name, "--fixtures-dir", CLISupport.fixturesDirectory,
               "--baseline-binary", CLIProcess.executable.path, "--candidate-binary", wrapper])
        #expect(bench.status == 0 && bench.standardOutput.contains("1 run(s) failed"), "\(bench.standardOutput)\(bench.standardError)")
        let raw = name + "-raw.csv"

        let text = try CLISupport.run(["compare", raw])
        #expect(text.status == 2, "\(text.standardOutput)\(text.standardError)")
        let lines = WrappedText.joined(text.standardOutput)
        #expect(lines.first?.hasPrefix("regressed: 1 configuration(s) failed in the candidate only (\(failure.kind.words))") == true, "\(text.standardOutput)")
        let named = try #require(lines.first { $0.hasPrefix("failed: sequential+rowcopy") }, "\(text.standardOutput)")
        #expect(named.contains("the candidate \(failure.kind.words)"), "\(named)")

        let markdown = try CLISupport.run(["compare", raw, "--format", "markdown", "--only-changed"])
        #expect(markdown.status == 2 && markdown.standardOutput.contains("- failed: sequential+rowcopy"), "\(markdown.standardOutput)")

        let json = try CLISupport.run(["compare", raw, "--format", "json"])
        #expect(json.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let entry = try #require((object["failures"] as? [[String: Any]])?.first, "\(json.standardOutput)")
        #expect(object["outcome"] as? String == "regressed" && entry["failure"] as? String == failure.kind.rawValue)
        #expect(entry["failed_build"] as? String == "candidate" && (entry["configuration"] as? String)?.hasPrefix("sequential+rowcopy") == true)

        let page = folder.appendingPathComponent("report.html").path
        #expect(try CLISupport.run(["report", raw, "-o", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let verdict = try #require(html.components(separatedBy: "<h2>Verdict</h2>").dropFirst().first?.components(separatedBy: "<h2>").first)
        #expect(verdict.contains("regressed: 1 configuration(s) failed in the candidate only") && verdict.contains("failed: sequential+rowcopy"), "\(verdict)")
    }
}
