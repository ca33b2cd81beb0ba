import Foundation

/// Headless Chromium for the opt-in page tests (sprite preview, benchmark report).
///
/// Opt-in only: on this project's virtual machines headless Chromium's zygote processes
/// have been seen stuck at real-time priority in the kernel after the page was dumped,
/// holding both cores; a browser is too heavy a guest for every test run. So it runs
/// without the zygote and the sandbox (which forks it), without the GPU process, and under
/// `timeout -s KILL`, which ends it however it hangs.
public enum HeadlessBrowser {
    public static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// True when Chromium is installed and `FILMSTRIP_BROWSER_TESTS=1` asks for the browser tests.
    public static var enabled: Bool { path != nil && ProcessInfo.processInfo.environment["FILMSTRIP_BROWSER_TESTS"] == "1" }

    public static let disabledReason = "apt-get install chromium and set FILMSTRIP_BROWSER_TESTS=1 to run it"

    /// The flags every run needs: no zygote, sandbox or GPU process, no first-run work or
    /// extensions. The caller adds `--user-data-dir` (a fresh folder) and what to do.
    public static let safeFlags = ["--headless=new", "--no-zygote", "--no-sandbox", "--disable-gpu", "--single-process",
                                   "--no-first-run", "--disable-extensions"]

    /// Runs Chromium on `arguments` (e.g. `--dump-dom URL`) with the safe flags, at most `seconds`.
    public static func run(_ arguments: [String], seconds: Int = 60) throws -> CLIProcess.Result {
        let timeout = try CLIProcess.program(named: "timeout").orThrow("timeout(1) is needed to bound the browser")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try CLIProcess.run(program: timeout, ["-s", "KILL", "\(seconds)", path!] + safeFlags + ["--user-data-dir=\(profile.path)"] + arguments)
    }
}

public struct MissingTool: Error, CustomStringConvertible {
    public var description: String
}

extension Optional {
    func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw MissingTool(description: message) }
        return self
    }
}
