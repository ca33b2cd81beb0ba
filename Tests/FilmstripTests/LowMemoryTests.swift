import CLITestSupport
import Foundation
import Testing

/// The built tool under an address-space limit (`ulimit -v`), as a server's limits or a small
/// container run it: whatever the limit, a command ends with exit 0 or 1 (never a signal: no
/// trap, abort or segfault) within its time, and a video it cannot make for want of memory is
/// named "out of memory", never blamed on the file. The limits are set above what the
/// executable maps at start (measured here: a debug and a release build differ by tens of MB),
/// at points where different allocations fail first: start-up, the probe and the decoders'
/// threads, the frames, the strip's canvas and the sprite sheets.
@Suite("Low memory", .serialized)
struct LowMemoryTests {
    /// Runs the tool with `arguments` under an address-space limit of `kibibytes`.
    static func run(_ arguments: [String], limitKiB kibibytes: Int, timeout: Double = 30) throws -> BoundedCLI.Outcome {
        try BoundedCLI.run(["-c", "ulimit -v \(kibibytes) && exec \"$0\" \"$@\"", CLIProcess.executable.path] + arguments,
                           timeout: timeout, executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// The smallest limit (KiB, within 2 MiB) at which the dynamic loader can map the executable
    /// and its libraries: below it the loader fails (exit 127) before any of the tool's code runs.
    static func loadableLimitKiB() throws -> Int {
        var low = 16 << 10, high = 8 << 20
        while high - low > 2 << 10 {
            let middle = (low + high) / 2
            let outcome = try run(["--version"], limitKiB: middle)
            if outcome.status == 127 && outcome.standardError.contains("error while loading shared libraries") { low = middle } else { high = middle }
        }
        return high
    }

    /// What every run under a limit must come to; `command` names it in the expectations.
    static func expectCleanEnd(_ outcome: BoundedCLI.Outcome, _ command: String) {
        #expect(!outcome.timedOut, "\(command): hung")
        #expect(!outcome.crashed && (outcome.status == 0 || outcome.status == 1), "\(command): exit \(outcome.status), crashed \(outcome.crashed): \(outcome.standardError.suffix(600))")
        if outcome.status == 1 {
            #expect(outcome.standardError.contains("out of memory"), "\(command): \(outcome.standardError.suffix(600))")
        }
        // Words that blame the file: out of memory must never read as damage.
        for blame in ["damaged", "has no frames", "claims more memory", "could not be decoded", "truncated"] {
            #expect(!outcome.standardError.contains(blame), "\(command) blames the file: \(outcome.standardError.suffix(600))")
        }
    }

    @Test("strip, thumbnails and a sprite library run end with exit 0 or 1 and name out of memory, at limits that fail in different places")
    func limitsFailCleanly() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for id in ["h264-360p-20s", "hevc-180p-2s", "av1-180p-2s"] {
            try TestSupport.copyOfVideo(id, at: library.appendingPathComponent("\(id).\(TestSupport.spec(id).container.fileExtension)").path)
        }
        let video = library.appendingPathComponent("h264-360p-20s.mp4").path
        let loadable = try Self.loadableLimitKiB()

        // Too little room to start: refused before main, with the limit named.
        let refused = try Self.run(["strip", video, "-o", folder.appendingPathComponent("r.png").path], limitKiB: loadable + (16 << 10))
        #expect(refused.status == 1 && refused.standardError.contains("out of memory: the address-space limit"), "\(refused.standardError)")

        var outcomes: [String: Int] = [:]
        for extra in [66, 72, 128] {
            let limit = loadable + extra << 10
            let runs: [(String, [String])] = [
                ("strip", ["strip", video, "--count", "40", "-o", folder.appendingPathComponent("s-\(extra).png").path]),
                ("thumbnails", ["thumbnails", video, "--count", "40", "--out-dir", folder.appendingPathComponent("t-\(extra)").path]),
                ("sprite", ["sprite", library.path, "-o", folder.appendingPathComponent("sprite-\(extra)").path, "--ignore-errors", "--interval", "1"]),
            ]
            for (name, arguments) in runs {
                let outcome = try Self.run(arguments, limitKiB: limit)
                // A sprite sheet's JPEG encoder that could not allocate returns EPERM from
                // avcodec_send_frame: named out of memory when no headroom is left (FFmpegError).
                // When the process's own threads took the last address space, the concurrency
                // runtime's dispatch could not start a worker and slept a second at a time until
                // it could (`_dispatch_temporary_resource_shortage` in a stack taken with gdb): a
                // library run took 15 s or never ended (1 of 3 runs of this test, 2026-11-27). The
                // threads' malloc arenas were most of that address space; with them capped
                // (CStartupCheck), 0 of 26 runs (78 library runs) waited, so a hang fails again.
                Self.expectCleanEnd(outcome, "\(name) at \(extra) MB over the loadable \(loadable) KiB")
                outcomes["\(name) exit \(outcome.status)", default: 0] += 1
                if name == "sprite", outcome.status == 1 {
                    // A library run goes on after a video fails: its summary counts all three.
                    #expect(outcome.standardError.contains("sprite: 3 videos:") || outcome.standardOutput.contains("sprite: 3 videos:"),
                            "sprite at \(extra) MB: \(outcome.standardError.suffix(600))")
                }
            }
        }
        // With the quick suite's small videos every run above the start-up check's 64 MB
        // succeeded (measured: 72-192 MB, 12 of 12 exit 0); failures inside a run need a
        // bigger video (a 1080p strip), which this fast test does not decode.
        #expect(outcomes.keys.contains { $0.hasSuffix("exit 0") }, "\(outcomes)")
    }

    @Test("a JPEG strip larger than the room left: out of memory named, never an abort, at limits either side of each big allocation")
    func bigStripFailsCleanly() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-360p-20s")
        let loadable = try Self.loadableLimitKiB()
        // 100 thumbnails of 640x360 scaled into one canvas (66 MB of RGB), then an RGBA copy for
        // the JPEG encoder (92 MB), then the encoder's own planes. The build before the room
        // check ended with SIGABRT ("failed to allocate 92160032 bytes") at 720-780 MB of
        // limit, about 470-530 MB over the loadable limit on the 2-core machine: these limits
        // step through that range and both sides of it. (With the malloc arenas capped, the
        // canvas and the copy fit there now, and the JPEG encoder's own buffers are what run
        // out, up to about 1.2 GB of limit: named out of memory too.)
        var outcomes: [Int32: Int] = [:]
        for extra in stride(from: 350, through: 750, by: 40) {
            let output = folder.appendingPathComponent("big-\(extra).jpg").path
            let outcome = try Self.run(["strip", video, "--count", "100", "--height", "360", "--max-memory", "4000", "-o", output],
                                       limitKiB: loadable + extra << 10, timeout: 60)
            Self.expectCleanEnd(outcome, "a 64000x360 JPEG strip at \(extra) MB over the loadable \(loadable) KiB")
            if outcome.status == 1 { #expect(!FileManager.default.fileExists(atPath: output), "no partial strip at \(extra) MB") }
            outcomes[outcome.status, default: 0] += 1
        }
        #expect(outcomes[1, default: 0] > 0, "some limit is too low for the strip: \(outcomes)")
    }

    @Test("with 100 MB of room, thumbnails and strip of a 360p video are made: malloc arenas are capped under an address-space limit")
    func arenasCappedUnderALimit() throws {
        // Each malloc arena beyond the main one reserves 64 MB of address space; with glibc's
        // default (up to 8 per core) the worker threads' arenas took the room, and these runs
        // ended with out of memory in 5 of 5 at this limit (and 1 in 5 with SIGABRT at 180 MB of
        // room). The start-up check now caps the arenas to what the room holds. Thread stacks
        // (8 MB each) grow with the cores, so the count is asserted where CI runs: up to 4 cores.
        guard ProcessInfo.processInfo.activeProcessorCount <= 4 else { return }
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-360p-20s")
        let limit = try Self.loadableLimitKiB() + 100 << 10
        for run in 0..<5 {
            let thumbnails = try Self.run(["thumbnails", video, "--count", "20", "--out-dir", folder.appendingPathComponent("t-\(run)").path], limitKiB: limit)
            #expect(thumbnails.status == 0 && !thumbnails.crashed, "thumbnails run \(run): exit \(thumbnails.status): \(thumbnails.standardError.suffix(400))")
            let strip = try Self.run(["strip", video, "--count", "20", "-o", folder.appendingPathComponent("s-\(run).png").path], limitKiB: limit)
            #expect(strip.status == 0 && !strip.crashed, "strip run \(run): exit \(strip.status): \(strip.standardError.suffix(400))")
        }
    }
}
