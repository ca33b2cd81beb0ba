import Filmstrip
import FilmstripFixtures
import Foundation
import Glibc
import Synchronization
import CLITestSupport
import Testing
@testable import FilmstripBench
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

@Suite("A bench run's process group")
struct RunGroupTests {
    /// The command line of live (not zombie) process `pid`, or nil when it is gone.
    static func liveCommandLine(_ pid: Int) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z",
              let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        return String(decoding: line.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
    }

    /// Live processes whose command line contains `text`.
    static func processes(mentioning text: String) -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int.init).filter { liveCommandLine($0)?.contains(text) == true }
    }

    @Test("the real ffmpeg CLI launched by a bench-run child is gone once the run is ended on SIGINT")
    func peerEndsWithItsRun() throws {
        let ffmpeg = try #require(ExternalProcess.find(Peer.ffmpegExact.program), "the ffmpeg CLI is installed by scripts/setup.sh")
        let spec = try #require(ReferenceSuite.spec(id: "h264-360p-20s"))
        let source = try ReferenceVideoCache(directory: URL(fileURLWithPath: CLISupport.fixturesDirectory)).ensure(spec).url
        // A name no other test's ffmpeg reads, so the processes found are this run's.
        let folder = try CLISupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("run-group-\(UUID().uuidString).mp4").path
        try FileManager.default.copyItem(atPath: source.path, toPath: video)
        let configuration = BenchConfiguration.peer(.ffmpegExact, videoID: spec.id, videoPath: video, thumbnailCount: 100, thumbHeight: 64)

        let interruption = Interruption()
        let outcome = Mutex<RunOutcome?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let runner = ChildRunner(executable: CLIProcess.executable)
        DispatchQueue.global().async {
            let result = runner.run(configuration, timeLimit: 120, interruption: interruption)
            outcome.withLock { $0 = result }
            finished.signal()
        }
        // Wait for ffmpeg (a grandchild: bench-run launched it) to be decoding, then interrupt the session.
        var peers: [Int] = []
        while peers.isEmpty && finished.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
            // ffmpeg itself, not bench-run, whose JSON configuration names the video too.
            peers = Self.processes(mentioning: video).filter { Self.liveCommandLine($0)?.hasPrefix(ffmpeg + " ") == true }
        }
        try #require(!peers.isEmpty, "ffmpeg was never seen running")
        interruption.interrupt(signal: SIGINT)
        finished.wait()
        guard case .interrupted? = outcome.withLock({ $0 }) else {
            Issue.record("expected an interrupted run, got \(String(describing: outcome.withLock { $0 }))")
            return
        }
        // SIGKILL is delivered before kill(2) returns; give the kernel a moment to tear the processes down.
        for _ in 0..<200 where !Self.processes(mentioning: video).isEmpty { usleep(5_000) }
        #expect(Self.processes(mentioning: video).isEmpty, "ffmpeg outlived its run")
    }
}
