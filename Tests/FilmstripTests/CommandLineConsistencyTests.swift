import CLITestSupport
@testable import Filmstrip
import Foundation
import Testing

/// The commands behave alike: a mistyped value or option gets the closest valid name, `--json`
/// prints one JSON object a line, output names are checked before any work, and input limits
/// are values given with each call.
@Suite("Command-line consistency")
struct CommandLineConsistencyTests {
    /// Mistyped values of every kind of named choice, with the name the error must suggest.
    static let mistypedValues: [(arguments: [String], suggests: String)] = [
        (["strip", "V", "-o", "s.png", "--accuracy", "exatc"], "Did you mean exact?"),
        (["strip", "V", "-o", "s.png", "--accuracy", "keyfrmae"], "Did you mean keyframe?"),
        (["strip", "V", "-o", "s.png", "--extractor", "forwrd"], "Did you mean forward?"),
        (["strip", "V", "-o", "s.png", "--composer", "rowcpy"], "Did you mean rowcopy?"),
        (["strip", "V", "-o", "s.png", "--filter", "bilinaer"], "Did you mean bilinear?"),
        (["strip", "V", "--out-dir", ".", "--format", "jgp"], "Did you mean jpg?"),
        (["sprite", "V", "-o", "out", "--format", "vtt,jelyfin"], "Did you mean jellyfin?"),
        (["sprite", "V", "-o", "out", "--image", "wbep"], "Did you mean webp?"),
        (["thumbnails", "V", "--out-dir", "o", "--count", "2", "--strategy", "cheapst-first"], "Did you mean cheapest-first?"),
        (["thumbnails", "V", "--out-dir", "o", "--count", "2", "--format", "pgn"], "Did you mean png?"),
        (["bench", "--suite", "quik"], "Did you mean quick?"),
        (["fixtures", "--suite", "standrd", "--list"], "Did you mean standard?"),
    ]

    @Test("a mistyped value is a usage error that names the closest valid one", arguments: 0..<mistypedValues.count)
    func mistypedValue(index: Int) throws {
        let (arguments, suggests) = Self.mistypedValues[index]
        let outcome = try TestSupport.runCLI(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.standardError)")
        #expect(outcome.standardError.contains(suggests), "\(arguments): \(outcome.standardError)")
    }

    @Test("a value far from every name gets the list, not a guess")
    func noGuess() throws {
        let outcome = try TestSupport.runCLI(["strip", "V", "-o", "s.png", "--extractor", "zzz"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("one of sequential") && !outcome.standardError.contains("Did you mean"), "\(outcome.standardError)")
    }

    /// `--colums 4` left `4` among the videos, and validation, which argument-parser runs first,
    /// blamed `-o` for naming one strip of two videos.
    @Test("a mistyped option is named with the closest option, whatever validation would say")
    func mistypedOption() throws {
        let strip = try TestSupport.runCLI(["strip", "V.mp4", "-o", "s.png", "--colums", "4"])
        #expect(strip.status == 64)
        #expect(strip.standardError.contains("Unknown option '--colums'. Did you mean '--columns'?"), "\(strip.standardError)")
        #expect(!strip.standardError.contains("-o names one strip"), "\(strip.standardError)")
        #expect(strip.standardError.contains("Usage: filmstrip strip"), "\(strip.standardError)")
        let sprite = try TestSupport.runCLI(["sprite", "V.mp4", "-o", "out", "--jbos", "2"])
        #expect(sprite.status == 64 && sprite.standardError.contains("Did you mean '--jobs'?"), "\(sprite.standardError)")
    }

    /// Every line of standard output is one JSON object.
    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
        }
    }

    /// Runs `body` with a fresh folder, removed afterwards, and the 3-second reference video.
    static func withScratchFolder(_ body: (_ folder: URL, _ video: String) throws -> Void) throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder, try TestSupport.video("h264-180p-3s"))
    }

    /// A negative number after an option is that option's value, judged by its own check:
    /// argument-parser took `-5` for an option and said "Missing value" (the value was there).
    static let negativeValues: [(arguments: [String], says: String)] = [
        (["strip", "V", "-o", "s.png", "--width", "-7"], "--width must be 1 to"),
        (["sprite", "V", "-o", "out", "--count", "-3"], "--count"),
        (["thumbnails", "V", "--out-dir", "o", "--count", "-2"], "--count must be 1 to"),
        (["info", "V", "--timeout", "-1"], "--timeout must be 0 to"),
        (["thumbnails", "V", "--out-dir", "o", "--at", "-0.5"], "--at -0.5: times cannot be negative"),
        // `-1:30` and `-5s` are times before the end (TimePoint); a bare negative number is not.
        (["thumbnails", "V", "--out-dir", "o", "--at=2,-1.5"], "--at -1.5: times cannot be negative"),
    ]

    @Test("a negative value is named as such, never as a missing one", arguments: 0..<negativeValues.count)
    func negativeValue(index: Int) throws {
        let (arguments, says) = Self.negativeValues[index]
        let outcome = try TestSupport.runCLI(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.standardError)")
        #expect(outcome.standardError.contains(says) && !outcome.standardError.contains("Missing value"), "\(arguments): \(outcome.standardError)")
    }

    /// A fraction for an option that counts whole units says so (`--timeout 0.000001` was
    /// "invalid" with no reason); a word is still refused.
    @Test func fractionForAWholeNumberSaysSo() throws {
        let timeout = try TestSupport.runCLI(["info", "V", "--timeout", "0.25"])
        #expect(timeout.status == 64 && timeout.standardError.contains("--timeout takes a whole number"), "\(timeout.standardError)")
        let count = try TestSupport.runCLI(["strip", "V", "-o", "s.png", "--count=2.5"])
        #expect(count.status == 64 && count.standardError.contains("--count takes a whole number"), "\(count.standardError)")
        // --height takes a list of sizes, and its own parser gives the reason.
        let height = try TestSupport.runCLI(["strip", "V", "-o", "s.png", "--height=2.5"])
        #expect(height.status == 64 && height.standardError.contains("is not a number of pixels"), "\(height.standardError)")
    }

    /// A second `--at` adds its times to the first's (it silently replaced them), and
    /// `info --json` is one object on one line like every `--json` (it was 191 lines).
    @Test func repeatedAtAddsAndInfoJSONIsOneLine() throws { try Self.withScratchFolder { folder, video in
        let out = folder.appendingPathComponent("t").path
        let result = try TestSupport.runCLI(["thumbnails", video, "--out-dir", out, "--at", "0.5,1", "--at", "2", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("thumbnail-") }.sorted()
        #expect(written == ["thumbnail-0000.png", "thumbnail-0001.png", "thumbnail-0002.png"], "\(written)")

        for arguments in [["info", video, "--json"], ["info", "--machine", "--json"]] {
            let info = try TestSupport.runCLI(arguments)
            #expect(info.status == 0, "\(info.standardError)")
            let lines = info.standardOutput.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(lines.count) lines")
            #expect(try Self.objects(info.standardOutput).count == 1)
        }
    } }

    @Test("--json on strip and sprite prints progress and results as JSON lines; --quiet prints nothing")
    func jsonLines() throws { try Self.withScratchFolder { folder, video in
        let strip = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("s.png").path, "--count", "3", "--json"])
        #expect(strip.status == 0, "\(strip.standardError)")
        let stripLines = try Self.objects(strip.standardOutput)
        #expect(stripLines.filter { $0["event"] as? String == "progress" }.count == 3)
        #expect(stripLines.last?["event"] as? String == "strip" && stripLines.last?["thumbnails"] as? Int == 3, "\(strip.standardOutput)")

        let sprite = try TestSupport.runCLI(["sprite", video, "-o", folder.appendingPathComponent("out").path, "--interval", "1", "--json"])
        #expect(sprite.status == 0, "\(sprite.standardError)")
        let spriteLines = try Self.objects(sprite.standardOutput)
        #expect(spriteLines.contains { $0["event"] as? String == "made" && $0["thumbnails"] as? Int == 3 }, "\(sprite.standardOutput)")
        #expect(spriteLines.last?["event"] as? String == "done" && spriteLines.last?["made"] as? Int == 1, "\(sprite.standardOutput)")

        let quiet = try TestSupport.runCLI(["sprite", video, "-o", folder.appendingPathComponent("quiet").path, "--interval", "1", "--quiet"])
        #expect(quiet.status == 0 && quiet.standardOutput.isEmpty, "\(quiet.standardOutput)")
        let thumbnails = try TestSupport.runCLI(["thumbnails", video, "--out-dir", folder.appendingPathComponent("t").path, "--count", "2", "--quiet"])
        #expect(thumbnails.status == 0 && thumbnails.standardOutput.isEmpty, "\(thumbnails.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("t/thumbnail-0001.png").path))
        let both = try TestSupport.runCLI(["bench", "--json", "--quiet"])
        #expect(both.status == 64 && both.standardError.contains("not both"), "\(both.standardError)")
    } }

    /// movie-hello.avi and movie-hello.mp4 both write out/movie-hello/: with --fail-fast the run
    /// stops before any video is made, a.mp4 included; by default the later one fails and the others are made.
    @Test("sprite checks that outputs collide before making any video")
    func collisionsBeforeWork() throws { try Self.withScratchFolder { folder, video in
        let library = folder.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for name in ["a.mp4", "movie-hello.avi", "movie-hello.mp4"] {
            try FileManager.default.copyItem(atPath: video, toPath: library.appendingPathComponent(name).path)
        }
        let output = folder.appendingPathComponent("out")
        let outcome = try TestSupport.runCLI(["sprite", library.path, "-o", output.path, "--interval", "1", "--fail-fast"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("movie-hello.mp4: its outputs would land on the paths of"), "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("0 made, 1 failed before any work"), "\(outcome.standardOutput)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? [] == [], "made before the check")
        let goesOn = try TestSupport.runCLI(["sprite", library.path, "-o", output.path, "--interval", "1"])
        #expect(goesOn.status == 1)
        #expect(goesOn.standardOutput.contains("3 videos: 2 made, 0 up to date, 1 failed"), "\(goesOn.standardOutput)")
        #expect(goesOn.standardError.contains("\nfilmstrip:   \(library.appendingPathComponent("movie-hello.mp4").path): its outputs would land"), "listed at the end: \(goesOn.standardError)")
    } }

    /// The strip is streamed to the pipe by the writers: no temporary folder is made and read back.
    @Test("strip -o - writes the chosen format to a pipe without a temporary copy")
    func standardOutputStreams() throws { try Self.withScratchFolder { folder, video in
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = CLIProcess.executable
        process.arguments = ["strip", video, "-o", "-", "--count", "3", "--format", "jpg"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(bytes.starts(with: [0xFF, 0xD8]), "not a JPEG")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    } }

    /// One meaning per flag: a folder flag (`strip --out-dir`, `thumbnails --out-dir`,
    /// `sprite -o`) makes a missing folder on every command and refuses a file in its place;
    /// `strip -o` is a file, `sprite -o` a folder; `--max-size WxH` fits a box on `strip` as on
    /// `thumbnails`; `--width` lists are `sprite`'s only.
    @Test("a folder flag makes its folder on every command; -o is a file for strip and a folder for sprite")
    func folderFlags() throws { try Self.withScratchFolder { folder, video in
        let copy = folder.appendingPathComponent("b.mp4").path
        try FileManager.default.copyItem(atPath: video, toPath: copy)
        let made: [(command: [String], folder: String, file: String)] = [
            (["strip", video, copy, "--out-dir", "new/strips", "--count", "2"], "new/strips", "b.strip.png"),
            (["thumbnails", video, "--count", "2", "--out-dir", "new/thumbs"], "new/thumbs", "thumbnail-0001.png"),
            (["sprite", video, "-o", "new/sprites", "--interval", "1"], "new/sprites", URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent + "/thumbnails.vtt"),
        ]
        for case let (command, subfolder, file) in made {
            let arguments = command.map { $0.hasPrefix("new/") ? folder.appendingPathComponent($0).path : $0 }
            let outcome = try TestSupport.runCLI(arguments)
            #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(subfolder)/\(file)").path), "\(command)")
        }
        // A file where the folder should be is refused by each, naming it, and left alone.
        let blocker = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        for command in [["strip", video, copy, "--out-dir", blocker.path], ["thumbnails", video, "--count", "1", "--out-dir", blocker.path],
                        ["sprite", video, "-o", blocker.path]] {
            let outcome = try TestSupport.runCLI(command)
            #expect(outcome.status == 1 && outcome.standardError.contains(blocker.path), "\(command): \(outcome.standardError)")
            #expect(try Data(contentsOf: blocker) == Data("x".utf8))
        }
        // strip -o names a file (an image's extension), sprite -o a folder (a file's extension is refused).
        let stripFolder = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("strips").path])
        #expect(stripFolder.status == 64 && stripFolder.standardError.contains("--output must end in .png"), "\(stripFolder.standardError)")
        let spriteFile = try TestSupport.runCLI(["sprite", video, "-o", folder.appendingPathComponent("x.vtt").path])
        #expect(spriteFile.status == 64 && spriteFile.standardError.contains("-o is the output folder"), "\(spriteFile.standardError)")
        // --max-size fits the box on strip as on thumbnails: a 16:9 video in 100x100 is 100 wide.
        let fitted = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("fit.png").path, "--count", "2", "--max-size", "100x100", "--json"])
        #expect(fitted.status == 0, "\(fitted.standardError)")
        #expect(try Self.objects(fitted.standardOutput).last?["width"] as? Int == 200, "\(fitted.standardOutput)")
        let both = try TestSupport.runCLI(["strip", video, "-o", "s.png", "--max-size", "100x100", "--height", "50"])
        #expect(both.status == 64 && both.standardError.contains("Give one of --max-size, --height or --width"), "\(both.standardError)")
    } }

    @Test("words: did-you-mean for subcommands, each command's own help, help lists wrapped under their column, singular counts, a path said once")
    func words() throws { try Self.withScratchFolder { folder, video in
        let mistyped = try TestSupport.runCLI(["strp", video, "-o", "x.png"])
        #expect(mistyped.status == 64 && mistyped.standardError.contains("Unknown subcommand 'strp'. Did you mean 'strip'?"), "\(mistyped.standardError)")
        #expect(!mistyped.standardError.contains("'-o'"), "\(mistyped.standardError)")
        let help = try TestSupport.runCLI(["bench-interactive", "--help"])
        #expect(help.status == 0 && help.standardOutput.contains("bench-interactive") && help.standardOutput.contains("--repetitions"), "\(help.standardOutput)")
        #expect(!help.standardOutput.contains("SUBCOMMANDS"), "the top-level help")
        // No help line starts at column 0 in the middle of an indented list.
        for command in ["strip", "thumbnails", "sprite"] {
            let lines = try TestSupport.runCLI([command, "--help"]).standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst()) where line.hasPrefix("  ") && !line.hasPrefix("  -") && next.first?.isLowercase == true {
                Issue.record("\(command) --help: '\(next)' wraps to column 0 after '\(line)'")
            }
        }
        let one = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("one.png").path, "--count", "1"])
        #expect(one.standardOutput.contains("1 thumbnail via"), "\(one.standardOutput)")
        let sprite = try TestSupport.runCLI(["sprite", video, "-o", folder.appendingPathComponent("sprites").path, "--count", "1"])
        #expect(sprite.standardOutput.contains("1 thumbnail ") && sprite.standardOutput.contains("sprite: 1 video:") && sprite.standardOutput.contains("on 1 sheet,"),
                "\(sprite.standardOutput)")
        // Two videos whose strips are one file: the path once, at the start.
        let stem = URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent
        let other = folder.appendingPathComponent("sub").appendingPathComponent("\(stem).mkv")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: video, toPath: other.path)
        let collision = try TestSupport.runCLI(["strip", video, other.path, "--out-dir", folder.appendingPathComponent("o").path])
        let path = folder.appendingPathComponent("o/\(stem).strip.png").path
        #expect(collision.status == 1 && collision.standardError.components(separatedBy: path).count == 2, "\(collision.standardError)")
    } }

    /// Three 3 s videos done and a 180 s one just started: by count three quarters were done
    /// and the ETA read 0:00:00; weighed by size most of the batch is still to come.
    @Test("sprite's ETA weighs each video by its size")
    func etaWeighsBySize() {
        var progress = BatchProgress(weights: [3, 3, 3, 180])
        for index in 0..<3 { progress.finish(index) }
        progress.update(3, fraction: 0.01)
        #expect(progress.finished == 3 && progress.runningCount == 1)
        #expect(abs(progress.fractionDone - (9 + 1.8) / 189) < 1e-9)
        // After 10 s: 165 s to go, where counting videos gave 3.3 s.
        #expect((progress.remainingSeconds(elapsed: 10) ?? 0) > 150)
        #expect(BatchProgress(weights: [1, 1]).remainingSeconds(elapsed: 5) == nil, "no rate before anything is done")
    }

    /// Limits are values of each call: a probe held to 100 pixels is refused while the next,
    /// with the defaults, reads the same file; the error names the limit, not a flag.
    @Test("two calls in one process with different input limits")
    func limitsPerCall() async throws {
        let video = try TestSupport.video("h264-180p-3s")
        let error = #expect(throws: MediaError.self) { try VideoProbe(path: video, limits: InputLimits(maximumPixels: 100)) }
        #expect(error?.reason == .pictureTooLarge(width: 320, height: 180, limit: 100))
        #expect(error.map { "\($0)".contains("--") } == false, "a flag in the library's message")
        #expect(try VideoProbe(path: video).width == 320)

        var small = StripJob(video: video)
        small.limits = InputLimits(maximumPixels: 100)
        #expect(throws: MediaError.self) { try small.prepare() }
        #expect(try await StripJob(video: video).prepare().run().pixels.width > 0)

        // A deadline started a second ago with a one-second limit has passed for this call only.
        let expired = InputLimits(timeoutSeconds: 1).started()
        try await Task.sleep(for: .milliseconds(1100))
        let timedOut = #expect(throws: MediaError.self) { try VideoProbe(path: video, limits: expired) }
        #expect(timedOut?.reason == .timedOut(seconds: 1))
        #expect(try VideoProbe(path: video, limits: InputLimits(timeoutSeconds: 1)).width == 320)
    }
}
