import Filmstrip
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// Two machines' runs answer the hardware question (issue 37): wall-time speed-ups with their
/// intervals, each machine's ranking, the task group's scaling; no gate unless `--gate`.
struct HardwareComparisonTests {
    /// Excerpts of real runs (the standard suite's `h264-720p-60s ×100` and `h264-180p-3s ×10`
    /// totals of the four `+rowcopy` pipelines, and the calibrations) on a 2-core EPYC and a
    /// 16-core Xeon, two commits of the latter.
    static let data = CLISupport.packageRoot.appendingPathComponent("Tests/Data/hardware")
    static let twoCores = data.appendingPathComponent("epyc-2c-excerpt-raw.csv").path
    static let sixteenCores = data.appendingPathComponent("xeon-16c-excerpt-raw.csv").path
    static let sixteenCoresLater = data.appendingPathComponent("xeon-16c-31525a7-excerpt-raw.csv").path

    static func rows(_ path: String) throws -> [RawResultRow] { try ResultsFileReader.read(RawResultRow.self, from: path) }

    /// Rows of one pipeline on one machine whose wall times are `seconds` times a small spread.
    static func rows(_ pipeline: String, machine: MachineFingerprint, seconds: Double, count: Int = 6) -> [RawResultRow] {
        Fixtures.rows((0..<count).map { seconds * (1 + 0.01 * Double($0 % 3)) }, machine: machine, pipeline: pipeline)
    }

    @Test func syntheticMachinesGiveSpeedUpsRankingsAndScaling() throws {
        let two = Fixtures.machine(), sixteen = Fixtures.machine(cpuModel: "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz", memoryBytes: 64 << 30)
        // On two cores the sequential extractor wins; on sixteen the task group takes a quarter of its old time.
        let before = Self.rows("sequential+rowcopy", machine: two, seconds: 1.0) + Self.rows("taskgroup+rowcopy", machine: two, seconds: 1.2)
        let after = Self.rows("sequential+rowcopy", machine: sixteen, seconds: 0.9) + Self.rows("taskgroup+rowcopy", machine: sixteen, seconds: 0.3)
        #expect(HardwareComparison.differentMachines(before, after))
        #expect(!HardwareComparison.differentMachines(before, before))
        let comparison = HardwareComparison(baseline: before, candidate: after)
        let taskgroup = try #require(comparison.speedUps.first { $0.key.pipeline.extractor == "taskgroup" })
        #expect(abs(taskgroup.estimate - 4) < 0.1)
        #expect(taskgroup.low > 3.5 && taskgroup.high < 4.5 && taskgroup.direction == "faster")
        let sequential = try #require(comparison.speedUps.first { $0.key.pipeline.extractor == "sequential" })
        #expect(sequential.direction == "faster" && abs(sequential.estimate - 1.11) < 0.05)
        let ranking = try #require(comparison.rankings.first)
        #expect(ranking.baseline.map(\.label) == ["sequential+rowcopy", "taskgroup+rowcopy"])
        #expect(ranking.candidate.map(\.label) == ["taskgroup+rowcopy", "sequential+rowcopy"])
        #expect(ranking.fastestChanged)
        let scaling = try #require(comparison.scalings.first)
        #expect(abs(scaling.baseline.speedUp - 1 / 1.2) < 0.05 && abs(scaling.candidate.speedUp - 3) < 0.1)
        #expect(comparison.scalings.count == 1 && scaling.pipeline == "taskgroup+rowcopy" && scaling.referencePipeline == "sequential+rowcopy")
        let text = comparison.text
        #expect(text.contains("taskgroup+rowcopy / sequential+rowcopy: "), "\(text)")
        #expect(text.contains("faster: taskgroup+rowcopy"))
        #expect(text.contains("fastest pipeline changed in 1 of 1 request(s)"))
        #expect(text.contains("(ranking changed)"))
        #expect(comparison.headlineLines[0].contains("not a gate (exit 0)"))
        // The JSON form parses, with the speed-up and its interval.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(comparison.json.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "hardware")
        #expect((object["speed_ups"] as? [[String: Any]])?.count == 2)
    }

    /// The comparison finds the task group and its reference by the roles the extractors declare
    /// in the registry, not by name: one sequential reference, the concurrent ones being those
    /// that split the plan over workers.
    @Test func extractorsDeclareTheirRoles() {
        let references = Extractors.all.filter { $0.role == .sequentialReference }
        #expect(references.count == 1 && Extractors.sequentialReference.name == references[0].name)
        #expect(Extractors.all.first?.role == .sequentialReference, "the registry lists the reference first")
        for extractor in Extractors.all where extractor.role == .concurrent {
            #expect(extractor.settings.contains(.workers), "\(extractor.name) is concurrent: it splits the plan over workers")
        }
        #expect(Extractors.all.contains { $0.role == .concurrent })
        #expect(Extractors.role(ofNamed: "no-such-extractor") == nil)
    }

    /// Done when (issue 37): `compare` of the 2-core and 16-core files calls the 16-core task group
    /// faster with its speed-up and exits 0; `--gate` gives the gate's verdict instead.
    @Test(arguments: [sixteenCores, sixteenCoresLater])
    func compareOfRealMachinesCallsTheTaskGroupFaster(_ sixteen: String) throws {
        let result = try CLISupport.run(["compare", Self.twoCores, sixteen])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("hardware: xeon-16c against epyc-2c") == true, "\(result.standardOutput)")
        let line = try #require(lines.first { $0.hasPrefix("faster: taskgroup+rowcopy") && $0.contains("h264-720p-60s ×100") })
        // The 16-core machine finishes this strip about 4× sooner (the gate once said "+35.6 % slower").
        let speedUp = try #require(line.split(separator: " ").firstIndex(of: "speed-up").map { Double(line.split(separator: " ")[$0 + 1].dropLast()) } ?? nil)
        #expect(speedUp > 2.5, "\(line)")
        #expect(result.standardOutput.contains("ranking per request"))
        #expect(result.standardOutput.contains("task group scaling"))

        let gated = try CLISupport.run(["compare", "--gate", Self.twoCores, sixteen])
        #expect(gated.status != 0, "\(gated.standardOutput)")
        #expect(!gated.standardOutput.hasPrefix("hardware:"))
    }

    @Test func reportAndMarkdownExportShowEachMachinesRanking() throws {
        let folder = try CLISupport.scratchDirectory()
        let page = folder.appendingPathComponent("report.html").path
        let report = try CLISupport.run(["report", Self.twoCores, Self.sixteenCoresLater, "-o", page])
        #expect(report.status == 0, "\(report.standardError)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<section id=\"hardware\">"))
        #expect(html.contains("Ranking per request"))
        #expect(!html.contains("regressed:"))
        #expect(html.range(of: "id=\"hardware\"")!.lowerBound < html.range(of: "id=\"verdict\"")!.lowerBound)

        let markdown = try CLISupport.run(["export", "--format", "markdown", Self.twoCores, Self.sixteenCores])
        #expect(markdown.status == 0, "\(markdown.standardError)")
        #expect(markdown.standardOutput.contains("### Ranking per request"))
        #expect(markdown.standardOutput.contains("| epyc-2c (fastest first) | xeon-16c (fastest first) |"))
        #expect(markdown.standardOutput.contains("taskgroup+rowcopy"))
        // A second file of the same machine is refused, one line, exit 1.
        let same = try CLISupport.run(["export", "--format", "markdown", Self.sixteenCores, Self.sixteenCoresLater])
        #expect(same.status == 1 && same.standardError.contains("same machine"), "\(same.standardError)")
        let wrongFormat = try CLISupport.run(["export", "--format", "json", Self.twoCores, Self.sixteenCores])
        #expect(wrongFormat.status != 0)
    }

    @Test func oneFileOfTwoMachinesSplitsByMachine() throws {
        let rows = try Self.rows(Self.twoCores) + Self.rows(Self.sixteenCores)
        let split = try #require(HardwareComparison.splitByMachine(rows))
        #expect(Set(split.baseline.map(\.run.machine.name)) == ["epyc-2c"])
        #expect(Set(split.candidate.map(\.run.machine.name)) == ["xeon-16c"])
        #expect(HardwareComparison.splitByMachine(try Self.rows(Self.twoCores)) == nil)
    }
}
