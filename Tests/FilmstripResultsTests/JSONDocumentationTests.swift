import Foundation
import ResultsTestSupport
import Testing
@testable import FilmstripReport
@testable import FilmstripResults

/// `compare --format json` is an interface: every key it can write is documented in
/// docs/gate.md's JSON tables, with the schema version the code writes and the same exit status
/// for each outcome. A key added without its line fails here.
struct JSONDocumentationTests {
    /// The part of docs/gate.md that documents the JSON: from its key table to the CI recipe.
    static func documentation() throws -> String {
        let text = try String(contentsOf: CLISupport.packageRoot.appendingPathComponent("docs/gate.md"), encoding: .utf8)
        let start = try #require(text.range(of: "| key | type | meaning |"))
        let end = try #require(text.range(of: "## CI recipe", range: start.upperBound..<text.endIndex))
        return String(text[start.lowerBound..<end.lowerBound])
    }

    /// Every key name in `json`, at any depth, but inside `options` (a configuration's own settings).
    static func keys(_ json: String) throws -> Set<String> {
        var found = Set<String>()
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    found.insert(key)
                    if key != "options" { walk(inner) }
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(json.utf8)))
        return found
    }

    /// Reports that between them fill every key: a paired time gate with a failure, a work
    /// change, a span change, an attribution, machines, calibrations and an un-normalised
    /// ratio set by hand where a real run would need callgrind or two machines; and the
    /// hardware comparison of two machines.
    static func reports() throws -> [String] {
        var report = RegressionGate.elapsedAndCPU().comparePaired(FailureVerdictTests.rows(failure: "child killed by signal 11"))
        #expect(!report.failures.isEmpty && report.pairCollection != nil)
        let key = report.comparisons[0].key
        report.comparisons[0].attribution = [FunctionChange(function: .init(object: "shim.so", name: "avcodec_send_packet"), instructions: 30_000, percentagePoints: 1.0)]
        report.comparisons[0].normalisedBy = .decode
        report.comparisons[0].unnormalised = (1.1, 1.0, 1.2)
        report.workChanges = [WorkChange(key: key, counter: .seeks, baseline: 1...1, candidate: 2...2)]
        report.spanChanges = [SpanChange(key: key, baseline: 40e6, candidate: 80e6, baselineWork: 80e6, candidateWork: 80e6)]
        report.machines = ("epyc (2 cores)", "xeon (16 cores)")
        report.calibrationChange = [(.decode, 1.2, 1.1, 1.3)]
        report.onlyInBaseline = [key]
        report.onlyInCandidate = [key]
        let badInput = GateReport(gate: .elapsedAndCPU(), outcome: .badInput("nothing to compare"))
        let hardware = HardwareComparison(baseline: try HardwareComparisonTests.rows(HardwareComparisonTests.twoCores),
                                          candidate: try HardwareComparisonTests.rows(HardwareComparisonTests.sixteenCores))
        #expect(!hardware.scalings.isEmpty && !hardware.calibrations.isEmpty && !hardware.rankings.isEmpty)
        return [report.json, badInput.json, hardware.json]
    }

    @Test func everyKeyIsDocumented() throws {
        let documentation = try Self.documentation()
        var keys = Set<String>()
        for json in try Self.reports() { keys.formUnion(try Self.keys(json)) }
        #expect(keys.count > 60, "\(keys.count) keys")
        let undocumented = keys.filter { !documentation.contains("`\($0)`") }.sorted()
        #expect(undocumented.isEmpty, "keys of `compare --format json` missing from docs/gate.md: \(undocumented)")
    }

    @Test func schemaVersionAndExitStatusesAreTheDocumentedOnes() throws {
        let documentation = try Self.documentation()
        #expect(documentation.contains("| `schema_version` | int | \(GateReport.jsonSchemaVersion) "), "docs/gate.md states another schema_version")
        for outcome in [GateOutcome.passed, .regressed, .undecided, .badInput("")] {
            let name = switch outcome {
            case .passed: "passed"
            case .regressed: "regressed"
            case .undecided: "undecided"
            case .badInput: "bad_input"
            }
            #expect(documentation.contains("`\(name)` \(outcome.exitCode)"), "\(name) is not documented as exit \(outcome.exitCode)")
        }
    }
}
