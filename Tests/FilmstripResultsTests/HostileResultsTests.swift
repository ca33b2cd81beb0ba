import CLITestSupport
import Filmstrip
import FilmstripProcess
import Foundation
import Synchronization
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// What every command does with results files from strangers and with signals: the same refusal
/// of values no run can measure, names that stay text in markdown and on a terminal, and no
/// child left running when the command is killed.
@Suite(.serialized) struct HostileResultsTests {
    /// Sample rows with one impossible time in the first row.
    private func fileWithTime(_ wall: Double) throws -> String {
        var rows = SampleResults.rows(machines: [SampleResults.fastMachine])
        rows[0].wallSeconds = wall
        return try SampleResults.writeFiles(rows)[0]
    }

    /// `compare` refused these already; `report`, `export` (markdown), `plot` and `trend` now make
    /// the same check (``MeasurementCheck``) and fail with its line.
    @Test(arguments: [-0.5, Double.infinity])
    func everyReaderRefusesImpossibleTimes(wall: Double) throws {
        let path = try fileWithTime(wall)
        let folder = try CLISupport.scratchDirectory()
        let commands = [["compare", path], ["report", path, "-o", folder.appendingPathComponent("r.html").path],
                        ["export", path, "--format", "markdown"], ["plot", path, "-o", folder.path], ["trend", path]]
        for arguments in commands {
            let result = try CLISupport.run(arguments)
            #expect(result.status != 0 && result.standardError.contains("wall_s is \(wall), not a measurement"),
                    "\(arguments[0]): exit \(result.status): \(result.standardError)")
        }
        #expect(throws: ResultsFileError.self) { try ResultsFileReader.readMeasurements(from: path) }
    }

    @Test func markdownEscapesHTMLFromNames() {
        let escaped = MarkdownText.escaped("<img src=x onerror=alert(1)>|[link](javascript:x)&amp;\nnext")
        #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\n"))
        #expect(escaped == "&lt;img src=x onerror=alert(1)&gt;\\|\\[link\\](javascript:x)&amp;amp; next")
        var rows = SampleResults.rows(machines: [SampleResults.fastMachine])
        for index in rows.indices { rows[index].video.id = "<script>alert(1)</script>" }
        let markdown = ResultsExport.markdown(ResultsExport.configurations(from: rows))
        #expect(!markdown.contains("<script>") && markdown.contains("&lt;script&gt;"), "\(markdown.prefix(400))")
    }

    @Test func terminalEscapesBecomeVisible() throws {
        #expect(TerminalText.visible("a\u{1B}]0;pwned\u{07}b\u{1B}[2Jc\u{202E}d\n\te") == "a\\e]0;pwned\\ab\\e[2Jc\\u{202E}d\n\te")
        #expect(TerminalText.visible("plain ×50 · ok") == "plain ×50 · ok")
        // Through the commands: a video id that would clear the screen and retitle the window.
        var rows = SampleResults.rows(machines: [SampleResults.fastMachine])
        for index in rows.indices { rows[index].video.id = "v\u{1B}[2J\u{1B}]0;x\u{07}" }
        let path = try SampleResults.writeFiles(rows)[0]
        for arguments in [["compare", path, path], ["trend", path, "--min-change", "0"]] {
            let result = try CLISupport.run(arguments)
            #expect(!(result.standardOutput + result.standardError).contains("\u{1B}"), "\(arguments[0])")
        }
    }

    /// SIGTERM to `plot` ends its gnuplot too (it was left running at 99 % CPU, parent 1).
    @Test func childrenDieWithTheCommand() throws {
        let path = try SampleResults.writeFiles(SampleResults.rows(machines: [SampleResults.fastMachine]))[0]
        let folder = try CLISupport.scratchDirectory()
        let pidFile = folder.appendingPathComponent("gnuplot.pid").path
        // A "gnuplot" that records its pid and never answers.
        let fake = folder.appendingPathComponent("gnuplot")
        try "#!/bin/sh\necho $$ > '\(pidFile)'\nexec sleep 60\n".write(to: fake, atomically: true, encoding: .utf8)
        chmod(fake.path, 0o755)
        // Launched by the package's launcher (default signal actions, nothing blocked), as a
        // shell would: the test runner's own signal mask, which Foundation's `Process` passes
        // on, would keep SIGTERM from the command.
        let started = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
        final class Launch: Sendable {
            let pid = Mutex<pid_t>(0)
            let result = Mutex<ChildProcess.Result?>(nil)
        }
        let launch = Launch()
        let arguments = ["plot", path, "-o", folder.appendingPathComponent("plots").path, "--gnuplot", fake.path]
        Thread.detachNewThread {
            let result = try? ChildProcess.run(CLIProcess.executable.path, arguments, standardError: .capture,
                                               timeLimit: 120, onStart: { pid in
                                                   launch.pid.withLock { $0 = pid }
                                                   started.signal()
                                               })
            launch.result.withLock { $0 = result }
            if result == nil { started.signal() }
            ended.signal()
        }
        started.wait()
        let plot = launch.pid.withLock { $0 }
        try #require(plot > 0)
        let deadline = Date().addingTimeInterval(20)
        while (try? String(contentsOfFile: pidFile, encoding: .utf8))?.hasSuffix("\n") != true, Date() < deadline { usleep(20_000) }
        let child = try #require(Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(plot, SIGTERM)
        #expect(ended.wait(timeout: .now() + 20) == .success, "plot did not end on SIGTERM")
        let result = try #require(launch.result.withLock { $0 })
        // `plot` removes its temporary files and exits 128 + 15; a command without a handler dies of the signal.
        #expect(result.exitStatus == 128 + SIGTERM || result.signal == SIGTERM, "\(result.exitStatus) \(result.errors)")
        // Gone, or a zombie waiting for whoever adopted it to reap it: either way no longer running.
        var running = true
        for _ in 0..<100 where running {
            let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.split(separator: ")").last?.split(separator: " ").first
            running = state != nil && state != "Z"
            if running { usleep(20_000) }
        }
        #expect(!running, "gnuplot (pid \(child)) still runs after plot was killed")
        if running { kill(child, SIGKILL) }
    }
}

/// `compare` of input that cannot be judged exits 1 (never 3, which CI files let through as
/// "undecided"), with one line on stderr naming the file and the reason, and nothing on stdout.
@Suite struct UnusableGateInputTests {
    enum Unusable: String, CaseIterable, CustomTestStringConvertible {
        case missing, notResults, oneBuild, everyCandidateFailed, everyBaselineFailed
        var testDescription: String { rawValue }
    }

    /// The file for each kind of unusable input, and the words its reason must hold.
    private func file(_ kind: Unusable, in folder: URL) throws -> (path: String, reason: String) {
        let path = folder.appendingPathComponent("\(kind.rawValue)-raw.csv").path
        // A 24-repetition two-build run of one configuration, as `bench --baseline-binary` writes.
        var rows = PairedGateTests.twoBuildRows(Array(repeating: 1.0, count: 24), ratio: 1.0)
        switch kind {
        case .missing:
            return (path, "No such file")
        case .notResults:
            let notes = folder.appendingPathComponent("notes.txt").path
            try "Gate notes\nnothing in columns here\n".write(toFile: notes, atomically: true, encoding: .utf8)
            return (notes, "header does not match")
        case .oneBuild:
            rows = rows.filter { $0.build == .candidate }
        case .everyCandidateFailed, .everyBaselineFailed:
            let failing: BuildRole = kind == .everyCandidateFailed ? .candidate : .baseline
            for index in rows.indices where rows[index].build == failing {
                rows[index].status = .error
                rows[index].error = "valgrind: cannot read debug info of\nfilmstrip"
                rows[index].wallSeconds = nil
                rows[index].cpuUserSeconds = nil
                rows[index].cpuSysSeconds = nil
            }
        }
        let writer = try ResultsFileWriter<RawResultRow>(path: path, durable: false)
        for row in rows { try writer.append(row) }
        switch kind {
        case .oneBuild: return (path, "no rows of both builds")
        case .everyCandidateFailed: return (path, "every one of the 24 candidate run(s) failed")
        default: return (path, "every one of the 24 baseline run(s) failed")
        }
    }

    @Test(arguments: Unusable.allCases)
    func exitsOneNamingTheFile(kind: Unusable) throws {
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, reason) = try file(kind, in: folder)
        let result = try CLISupport.run(["compare", path])
        let lines = result.standardError.split(separator: "\n")
        #expect(result.status == 1, "\(kind): exit \(result.status): \(result.standardError)")
        #expect(lines.count == 1 && lines[0].contains(path) && lines[0].contains(reason) && lines[0].hasSuffix("(exit 1)"),
                "\(kind): \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }
}
