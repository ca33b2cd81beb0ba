import CLITestSupport
import Filmstrip
import Foundation
import Testing

/// Issue 45, part 6: a file name is whatever bytes someone chose, and one holding ESC, BEL, a
/// line feed or a C1 control must reach the terminal as visible escapes. Every command that
/// prints a name is run on such a name, as its input and as its `-o`, both where it fails
/// (the input is missing) and where it succeeds.
@Suite("Names that would drive the terminal")
final class HostileNameTests: Sendable {
    /// ESC ] sets the window title (ended by BEL), the line feed would forge a second message,
    /// CR would overwrite the line, DEL and CSI (U+009B) are controls too, U+202E reorders text.
    static let hostile = "j\u{1B}]0;pwned\u{07}\nsecond\r\u{7F}\u{9B}\u{202E}x"
    /// How every message shows it: the escapes a shell's `$'…'` reads, `\u{…}` for the rest.
    static let shown = #"j\e]0;pwned\a\nsecond\r\x7F\u{9B}\u{202E}x"#

    /// What a run is expected to end with.
    enum Outcome {
        /// Exit 0.
        case success
        /// Exit non-zero, each message one line that shows the name escaped.
        case failure
        /// The exit status is the command's verdict (compare, trend): only the text is judged.
        case verdict
    }

    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws { scratch = try ScratchFolder() }

    /// The path in the scratch folder named by the hostile name and `suffix`.
    func named(_ suffix: String) -> String { folder.appendingPathComponent(Self.hostile + suffix).path }

    /// What no output may hold: a control character other than the line feed that ends a line.
    static func rawControls(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            scalar != "\n" && (scalar.properties.generalCategory == .control
                               || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value))
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// Runs `arguments` and checks: no raw control anywhere, no line started by the name's own
    /// line feed, and a failure's messages one line each, the first showing the name escaped
    /// (argument-parser follows a refused option's line with its usage lines).
    static func check(_ label: String, _ arguments: [String], _ outcome: Outcome) throws {
        let result = try TestSupport.runCLI(arguments)
        let everything = result.standardOutput + result.standardError
        #expect(rawControls(everything).isEmpty, "\(label): raw \(rawControls(everything)) in \(everything.debugDescription)")
        #expect(!everything.split(separator: "\n").contains { $0.hasPrefix("second") }, "\(label): the name split a line: \(everything.debugDescription)")
        switch outcome {
        case .success:
            #expect(result.status == 0, "\(label): exit \(result.status): \(result.standardError.debugDescription)")
        case .failure:
            #expect(result.status != 0, "\(label): exit 0")
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.first?.contains(shown) == true, "\(label): \(result.standardError.debugDescription)")
            if lines.first?.hasPrefix("Error:") == false {
                #expect(lines.allSatisfy { $0.hasPrefix("filmstrip: ") }, "\(label): \(result.standardError.debugDescription)")
            }
        case .verdict:
            break
        }
    }

    @Test("strip, sprite, thumbnails, info and bench --videos show a hostile name escaped, errors in one line")
    func videoCommands() throws {
        let video = try TestSupport.copyOfVideo("h264-180p-2s-vfr", at: named(".mp4"))
        let missing = named("-missing.mp4")
        try Self.check("strip", ["strip", video, "-o", named(".png")], .success)
        try Self.check("strip, missing input", ["strip", missing, "-o", named(".png")], .failure)
        try Self.check("strip --out-dir, one input missing", ["strip", missing, video, "--out-dir", named("-strips")], .failure)
        try Self.check("sprite", ["sprite", video, "-o", named("-sprites")], .success)
        try Self.check("sprite, missing input", ["sprite", missing, "-o", named("-sprites")], .failure)
        try Self.check("sprite -o named like a file", ["sprite", video, "-o", named(".vtt")], .failure)
        try Self.check("thumbnails", ["thumbnails", video, "--count", "2", "--out-dir", named("-thumbs")], .success)
        try Self.check("thumbnails, missing input", ["thumbnails", missing, "--count", "2", "--out-dir", named("-thumbs")], .failure)
        try Self.check("info", ["info", video], .success)
        try Self.check("info, missing input", ["info", missing], .failure)
        try Self.check("bench --videos, missing video", ["bench", "--videos", missing, "--out", named("-bench")], .failure)
        // One child run: the plan, the checks against the ffmpeg CLI, the table and where the rows went all name the video or -o.
        try Self.check("bench --videos", ["bench", "--videos", video, "--out", named("-bench"), "--fixtures-dir", TestSupport.cache.directory.path,
                                          "--extractors", "sequential", "--composers", "naive", "--counts", "2", "--heights", "32",
                                          "--repetitions", "1", "--warmup", "0", "--pipelines-only"], .success)
        // Success lines name the file, escaped.
        #expect(try TestSupport.runCLI(["info", video]).standardOutput.contains(Self.shown))
        #expect(try TestSupport.runCLI(["strip", video, "-o", named(".png")]).standardOutput.hasPrefix(folder.path + "/" + Self.shown + ".png: "))
    }

    @Test("report, compare, export, trend and plot show a hostile name escaped, errors in one line")
    func resultsCommands() throws {
        let results = named("-raw.csv")
        try FileManager.default.copyItem(atPath: TestSupport.packageRoot.appendingPathComponent("results/interactive-epyc-2c-raw.csv").path, toPath: results)
        let missing = named("-missing-raw.csv")
        try Self.check("report", ["report", results, "-o", named(".html")], .success)
        try Self.check("report, missing input", ["report", missing, "-o", named(".html")], .failure)
        try Self.check("report onto its input", ["report", results, "-o", results], .failure)
        try Self.check("compare", ["compare", results], .verdict)
        try Self.check("compare, missing input", ["compare", missing], .failure)
        try Self.check("export", ["export", results, "-o", named(".json")], .success)
        try Self.check("export, missing input", ["export", missing, "-o", named(".json")], .failure)
        try Self.check("trend", ["trend", results], .verdict)
        try Self.check("trend, missing input", ["trend", missing], .failure)
        // plot refuses a name with controls (it would end a line of the gnuplot script), in one line.
        try Self.check("plot", ["plot", results, "-o", named("-plots")], .failure)
        try Self.check("plot, missing input", ["plot", missing, "-o", named("-plots")], .failure)
    }

    @Test("the one rule: controls, bidi controls and bytes that are not UTF-8 become escapes; JSON keeps the name")
    func escapes() throws {
        #expect(FileSystemName.display(Self.hostile) == Self.shown)
        #expect(FileSystemName.display("tab\there\u{1}\u{202A}\u{2069}") == #"tab\there\x01\u{202A}\u{2069}"#)
        #expect(FileSystemName.display(FileSystemName.string(fromBytes: [0x61, 0x9B, 0x62])) == #"a\x9Bb"#)
        #expect(TerminalText.visible("a\u{1B}[2J\nb\tc\r") == "a\\e[2J\nb\tc\\r")
        #expect(FileSystemName.display("plain ×50 · ok") == "plain ×50 · ok")
        let json = TerminalText.json(String(decoding: try JSONEncoder().encode(Self.hostile), as: UTF8.self))
        #expect(Self.rawControls(json).isEmpty, "\(json)")
        #expect(try JSONDecoder().decode(String.self, from: Data(json.utf8)) == Self.hostile)
    }
}
