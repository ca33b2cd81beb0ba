import CLITestSupport
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// Exports checked against the published shapes: Bencher's BMF JSON schema
/// (https://bencher.dev/bmf.json), github-action-benchmark's `customSmallerIsBetter` input
/// (`[{name, unit, value, range?, extra?}]`), hyperfine's `--export-json` result fields.
@Suite struct ExportTests {
    /// Every committed raw results file, old ones included, and those of other machines when present.
    static let committedRawFiles: [String] = {
        let folders = [CLISupport.packageRoot.appendingPathComponent("results").path, "/work/shared/results"]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix("-raw.csv") }.sorted().map { "\(folder)/\($0)" }
        }
    }()

    static func configurations(_ path: String) throws -> [ExportedConfiguration] {
        ResultsExport.configurations(from: try ResultsFileReader.read(RawResultRow.self, from: path))
    }

    static func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    static func isNumber(_ value: Any?) -> Bool {
        // The exports write no booleans, so any NSNumber here was a JSON number.
        value is NSNumber
    }

    @Test func configIDIsStableShortAndUniquePerFile() throws {
        let key = ConfigurationKey(pipeline: "forward+rowcopy", options: ["threads": "1"],
                                   videoID: "h264-360p-5s", thumbnailCount: 100, thumbWidth: 114, thumbHeight: 64, accuracy: "exact", phase: .total)
        // Pinned (computed independently: FNV-1a 64 of the description in Python, top 32 bits): a change
        // here renames every configuration on every dashboard that tracks them.
        #expect(key.description == "forward+rowcopy [threads=1] h264-360p-5s ×100 114x64 exact total")
        #expect(key.configID == "4c7eed63")
        #expect(key.configID.count == 8 && key.configID.allSatisfy(\.isHexDigit))
        #expect(key.shortName == "forward+rowcopy {t=1} h264-360p-5s n100 h64 exact total")
        #expect(!Self.committedRawFiles.isEmpty)
        for path in Self.committedRawFiles {
            let keys = Set(try Self.configurations(path).map(\.key))
            #expect(Set(keys.map(\.configID)).count == keys.count, "config_id collision in \(path)")
        }
    }

    @Test(arguments: committedRawFiles) func everyFormatHasItsPublishedShape(path: String) throws {
        let configurations = try Self.configurations(path)
        #expect(!configurations.isEmpty, "\(path)")

        // BMF: object of benchmark name → object of measure slug → {value (required), lower_value, upper_value} numbers.
        let bmf = try #require(try Self.parse(ResultsExport.render(configurations, as: .bmf)) as? [String: Any])
        #expect(bmf.count == configurations.count)
        for (name, measures) in bmf {
            #expect(!name.isEmpty && name.count <= 1024)
            let latency = try #require((measures as? [String: Any])?["latency"] as? [String: Any])
            #expect(Set(latency.keys).isSubset(of: ["value", "lower_value", "upper_value"]) && Self.isNumber(latency["value"]))
            #expect(latency.values.allSatisfy { Self.isNumber($0) })
            let value = try #require(latency["value"] as? Double), low = try #require(latency["lower_value"] as? Double)
            let high = try #require(latency["upper_value"] as? Double)
            #expect(low <= value && value <= high)
        }

        // customSmallerIsBetter: array of {name: string, unit: string, value: number, range: string?, extra: string?}.
        let github = try #require(try Self.parse(ResultsExport.render(configurations, as: .githubBenchmark)) as? [[String: Any]])
        #expect(github.count == configurations.count)
        #expect(Set(github.compactMap { $0["name"] as? String }).count == github.count, "names must be unique")
        for entry in github {
            #expect(Set(entry.keys).isSubset(of: ["name", "unit", "value", "range", "extra"]))
            #expect(entry["name"] is String && entry["unit"] as? String == "s" && Self.isNumber(entry["value"]))
            #expect(entry["range"] is String && entry["extra"] is String)
        }

        // hyperfine: {"results": [{command, mean, stddev (null for one run), median, user, system, min, max, times, exit_codes, parameters}]}.
        let hyperfine = try #require(try Self.parse(ResultsExport.render(configurations, as: .json)) as? [String: Any])
        let results = try #require(hyperfine["results"] as? [[String: Any]])
        #expect(results.count == configurations.count)
        for result in results {
            #expect(result["command"] is String && result["config_id"] is String)
            for field in ["mean", "median", "min", "max"] { #expect(Self.isNumber(result[field]), "\(field)") }
            for field in ["stddev", "user", "system"] { #expect(Self.isNumber(result[field]) || result[field] is NSNull, "\(field)") }
            let times = try #require(result["times"] as? [Double])
            #expect((result["exit_codes"] as? [Int])?.count == times.count)
            #expect(result["parameters"] is [String: String])
            let median = try #require(result["median"] as? Double)
            #expect(times.min()! <= median && median <= times.max()!)
        }

        // Markdown: one table per video and phase, the fastest first (ratio 1.00).
        let markdown = try ResultsExport.render(configurations, as: .markdown)
        let headings = markdown.split(separator: "\n").filter { $0.hasPrefix("### ") }
        #expect(headings.count == Set(configurations.map { "\($0.key.videoID) \($0.key.phase)" }).count)
        #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("| 1 |") }.allSatisfy { $0.contains("| 1.00 |") })
        // Times with their unit (issue 34: `2.285e-05` with no unit): the median and both ends of its interval.
        let time = #"-?[0-9.]+ (µs|ms|s)"#
        let rows = markdown.split(separator: "\n").filter { $0.range(of: #"^\| [0-9]+ \|"#, options: .regularExpression) != nil }
        #expect(!rows.isEmpty)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[3].range(of: "^\(time)$", options: .regularExpression) != nil, "\(row)")
            #expect(cells[4].range(of: "^\(time) – \(time)$", options: .regularExpression) != nil, "\(row)")
        }
        #expect(markdown.range(of: #"[0-9]e[-+][0-9]"#, options: .regularExpression) == nil)
        #expect(headings.allSatisfy { $0.range(of: " at \(time)$", options: .regularExpression) != nil }, "\(headings)")
    }

    @Test func exportCommandWritesTheFileAndRefusesBadInput() throws {
        let input = try #require(Self.committedRawFiles.first)
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("bmf.json").path
        let written = try CLISupport.run(["export", input, "--format", "bmf", "-o", output])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(try Self.parse(String(contentsOfFile: output, encoding: .utf8)) is [String: Any])

        let bad = folder.appendingPathComponent("bad-raw.csv").path
        try "not,a,results,file\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try CLISupport.run(["export", bad, "--format", "json", "-o", folder.appendingPathComponent("out.json").path])
        #expect(refused.status != 0 && refused.standardError.contains("bad-raw.csv"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.json").path))
    }

    /// An instruction run times nothing: it exports its instruction counts (issue 44: "no
    /// successful timed repetition to export"), each format saying what the numbers are.
    @Test func anInstructionCountFileExports() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("instructions-raw.csv").path
        let writer = try ResultsFileWriter<RawResultRow>(path: input, durable: false)
        for role in BuildRole.allCases {
            var row = Fixtures.row(wall: nil)
            (row.cpuUserSeconds, row.cpuSysSeconds, row.build) = (nil, nil, role)
            row.instructions = role == .baseline ? 114_000_000 : 115_000_000
            try writer.append(row)
        }
        let json = try CLISupport.run(["export", input])
        #expect(json.status == 0, "\(json.standardError)")
        let result = try #require((try Self.parse(json.standardOutput) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(result.count == 1 && result[0]["unit"] as? String == "instructions" && result[0]["median"] as? Double == 115_000_000)
        let bmf = try CLISupport.run(["export", input, "--format", "bmf"])
        let measures = try #require((try Self.parse(bmf.standardOutput) as? [String: [String: Any]])?.values.first)
        #expect(bmf.status == 0 && measures["instructions"] != nil && measures["latency"] == nil, "\(bmf.standardOutput)")
        let github = try CLISupport.run(["export", input, "--format", "github-benchmark"])
        #expect(github.status == 0 && github.standardOutput.contains("\"unit\" : \"instructions\""), "\(github.standardOutput)")
        let markdown = try CLISupport.run(["export", input, "--format", "markdown"])
        #expect(markdown.status == 0 && markdown.standardOutput.contains("fewest instructions") && markdown.standardOutput.contains("115 M instructions"), "\(markdown.standardOutput)")
        let bounds = try CLISupport.run(["export", input, "--format", "bounds"])
        #expect(bounds.status == 1 && bounds.standardError.contains("the bounds table needs times"), "\(bounds.standardError)")
    }

    @Test func benchExportWritesWhatExportWrites() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("tiny").path
        let bmf = folder.appendingPathComponent("bench.bmf.json").path, markdown = folder.appendingPathComponent("bench.md").path
        let bench = try CLISupport.run(["bench"] + CLISupport.tinyBenchMatrix
            + ["--out", name, "--fixtures-dir", CLISupport.fixturesDirectory, "--export", "bmf=\(bmf)", "--export", "markdown=\(markdown)"])
        #expect(bench.status == 0, "\(bench.standardError)")
        let again = try CLISupport.run(["export", name + "-raw.csv", "--format", "bmf"])
        #expect(try String(contentsOfFile: bmf, encoding: .utf8) == again.standardOutput)
        #expect(try String(contentsOfFile: markdown, encoding: .utf8).hasPrefix("### "))

        let refused = try CLISupport.run(["bench"] + CLISupport.tinyBenchMatrix + ["--out", name, "--export", "xml=out.xml"])
        #expect(refused.status != 0 && refused.standardError.contains("--export takes FORMAT=FILE"))
    }
}
