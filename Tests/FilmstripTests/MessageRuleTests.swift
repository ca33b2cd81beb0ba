import CLITestSupport
import Filmstrip
import Foundation
import Testing

/// Issue 45, part 8: a refusal names the rule that refused, not a neighbouring one.
@Suite("Messages name the rule")
final class MessageRuleTests: Sendable {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws { scratch = try ScratchFolder() }

    @Test("--at past 10^9 s or finer than nanoseconds says which limit", arguments: [
        ("4294967296", "'4294967296' is not a time: more than 1000000000 s (10^9 s), the longest time taken"),
        ("0.0000000001", "'0.0000000001' is not a time: 10 decimals, and a time has at most 9 (whole nanoseconds)"),
        ("1,-4294967296s", "'-4294967296s' is not a time: more than 1000000000 s"),
    ])
    func timeLimits(at: String, message: String) throws {
        let result = try TestSupport.runCLI(["thumbnails", try TestSupport.video("h264-180p-2s-vfr"), "--at", at, "--out-dir", folder.path])
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!result.standardError.contains("comma-separated list"), "\(result.standardError)")
    }

    @Test("report -o onto its results file names it a results file, once")
    func reportOntoItsInput() throws {
        let results = folder.appendingPathComponent("a-raw.csv").path
        try FileManager.default.copyItem(atPath: TestSupport.packageRoot.appendingPathComponent("results/interactive-epyc-2c-raw.csv").path, toPath: results)
        let before = try Data(contentsOf: URL(fileURLWithPath: results))
        let result = try TestSupport.runCLI(["report", results, "-o", results])
        #expect(result.status == 1)
        #expect(result.standardError == "filmstrip: \(results): --output is the input results file \(results); refusing to overwrite it\n", "\(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: results)) == before)
    }

    @Test("an output folder that cannot be created says why (the system's reason)",
          .enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "root needs setpriv to be refused"))
    func uncreatableOutputFolder() throws {
        let readOnly = folder.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly.path) }
        let video = folder.appendingPathComponent("v.mp4").path
        try TestSupport.copyOfVideo("h264-180p-2s-vfr", at: video)
        chmod(folder.path, 0o755)
        chmod(video, 0o644)
        let output = readOnly.appendingPathComponent("previews").path
        let arguments = ["sprite", video, "-o", output]
        // root writes anywhere: the command runs as nobody, as a user's would.
        let result = getuid() == 0
            ? try CLIProcess.run(program: URL(fileURLWithPath: "/usr/bin/setpriv"),
                                 ["--reuid=nobody", "--regid=nogroup", "--clear-groups", CLIProcess.executable.path] + arguments)
            : try TestSupport.runCLI(arguments)
        #expect(result.status == 1)
        #expect(result.standardError == "filmstrip: \(output): cannot be created as the output folder: Permission denied\n", "\(result.standardError)")
    }
}
