import CLITestSupport
@testable import Filmstrip
@testable import FilmstripFixtures
import FilmstripProcess
import Foundation
import Synchronization
import Testing

/// Issue 23's classes, each on a real file made by libavcodec/libavformat (the fixture
/// encoder) or a real fault (/dev/full, a closed pipe): numbers a file claims never trap in a
/// conversion or allocate without bound, failed writes to standard output are reported, long
/// names get temporaries that fit, and the memory estimate stays between the measured peak and
/// twice it.
@Suite("Hostile input and faults")
final class HostileInputTests: Sendable {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws { scratch = try ScratchFolder() }

    /// An H.264 file of two 320x180 frames, the second `secondFrameMilliseconds` after the first
    /// (a clip whose timestamps jump, or a header that lies about its length).
    static func jumpingVideo(in folder: URL, name: String, secondFrameMilliseconds: Int64) throws -> String {
        let path = folder.appendingPathComponent(name).path
        var writer = try VideoWriter(path: path, containerName: "matroska", settings: EncoderSettings(
            encoderName: "libx264", width: 320, height: 180, timeBase: Rational(1, 1000), frameRate: Rational(1),
            keyframeInterval: 1, maxBFrames: 0))
        let painter = FramePainter(codedWidth: 320, codedHeight: 180, rotationDegrees: 0)
        for (index, pts) in [Int64(0), secondFrameMilliseconds].enumerated() { try writer.encodeFrame(pts: pts) { painter.paint($0, index: index) } }
        try writer.finish()
        return path
    }

    /// Runs `filmstrip arguments` as the grandchild of a small python process and returns its exit
    /// status, its own peak RSS and its standard error. Spawned from this test process directly,
    /// a child's `ru_maxrss` would include this process's RSS (Linux folds the spawning process's
    /// memory into the child's high-water mark at exec), and this process holds hundreds of MB
    /// while other suites run (327 MB in a full run); a fork of a small process inherits only its few MB.
    static func ownPeakRSS(_ arguments: [String], timeLimit: Double) throws -> (status: Int32, peakBytes: Int, errors: String) {
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024)
            """
        let run = try ChildProcess.run("/usr/bin/python3", ["-c", script, CLIProcess.executable.path] + arguments,
                                       standardOutput: .capture, standardError: .capture, ownProcessGroup: true, timeLimit: timeLimit)
        let fields = run.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard run.succeeded, fields.count == 2 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "measuring \(arguments): \(run.output) \(run.errors)"]) }
        return (Int32(fields[0]), fields[1], run.errors)
    }

    // MARK: 1. fixed-width fields

    @Test("a BIF timestamp past 32 bits fails that video with one line, listed again at the end; the others are made")
    func bifTimestampOverflow() throws {
        let library = folder.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        // 60 days: cue 60 starts at 5,183,999,940 ms, and 86399.999 s takes 1 ms units.
        _ = try Self.jumpingVideo(in: library, name: "days60.mkv", secondFrameMilliseconds: 5_184_000_000)
        _ = try Self.jumpingVideo(in: library, name: "hours.mkv", secondFrameMilliseconds: 2 * 86_400_000)
        let output = folder.appendingPathComponent("out")
        let outcome = try BoundedCLI.run(["sprite", library.path, "-o", output.path, "--format", "bif,vtt", "--interval", "86399.999",
                                          "--ignore-errors", "--jobs", "1"])
        #expect(!outcome.crashed && !outcome.timedOut)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let lines = outcome.standardError.split(separator: "\n")
        #expect(lines.count == 3 && lines[0].contains("days60.mkv") && lines[0].contains("the BIF timestamp of cue 60"), "\(outcome.standardError)")
        #expect(lines[1] == "filmstrip: 1 of 2 videos failed:" && lines[2] == "filmstrip:   " + lines[0].dropFirst("filmstrip: ".count), "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("1 made") && outcome.standardOutput.contains("1 failed"), "\(outcome.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("hours.bif").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("days60.bif").path))
        // A whole-second interval counts in seconds, which fit.
        let seconds = try BoundedCLI.run(["sprite", library.appendingPathComponent("days60.mkv").path, "-o", output.path, "--format", "bif",
                                          "--interval", "86400"])
        #expect(seconds.status == 0, "\(seconds.standardError)")
    }

    @Test("conversions into fixed-width fields throw naming the field instead of trapping")
    func checkedConversions() throws {
        #expect(try UInt32.checked(Int64(4_294_967_295), field: "x") == .max)
        let error = #expect(throws: FieldOverflow.self) { try UInt32.checked(Int64(5_183_999_940), field: "the BIF timestamp of cue 60") }
        #expect(error?.description == "the BIF timestamp of cue 60 is 5183999940, but its format stores 0 to 4294967295")
        #expect(throws: FieldOverflow.self) { try Int32.checked(-1 - Int(Int32.max) - 1, field: "a PNG side") }
        let timing = try SpriteTiming(durationSeconds: Rational(5_184_001), spacing: .interval(milliseconds: 86_399_999))
        #expect(throws: FieldOverflow.self) { try SpriteIndex.bif(timing: timing, images: Array(repeating: [], count: timing.count)) }
    }

    @Test("strip --interval far below the frame spacing is refused with the count, not a trap")
    func stripIntervalCount() throws {
        let outcome = try BoundedCLI.run(["strip", try TestSupport.video("h264-180p-3s"), "-o", folder.appendingPathComponent("s.png").path,
                                          "--interval", "1e-300"])
        #expect(!outcome.crashed)
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("more than 100000; give a longer interval (--interval)"), "\(outcome.standardError)")
    }

    // MARK: 2. sizes from a file's claims

    @Test("a frame 31 years in: sprite refuses the cue count at once, and --max-memory bounds the rest before decoding")
    func spriteMemoryBomb() throws {
        let bomb = try Self.jumpingVideo(in: folder, name: "bomb.mkv", secondFrameMilliseconds: 999_999_990_000)
        let output = folder.appendingPathComponent("out").path
        // Refused before planning: a plan of 10^8 slots would take gigabytes (7.9 GB before the fix).
        let count = try Self.ownPeakRSS(["sprite", bomb, "-o", output], timeLimit: 60)
        #expect(count.status == 1)
        #expect(count.peakBytes < 300_000_000, "planned before refusing: peak RSS \(count.peakBytes)")
        #expect(count.errors.contains("needs 100000000 thumbnails at this interval, more than 100000"), "\(count.errors)")
        // 11575 tiles of 32x18: 20 MB of canvas, refused under 10 MB and made under the default.
        let limited = try BoundedCLI.run(["sprite", bomb, "-o", output, "--interval", "86400", "--width", "32", "--max-memory", "10"])
        #expect(limited.status == 1)
        #expect(limited.standardError.contains("needs an estimated") && limited.standardError.contains("memory limit of 10 MB") && limited.standardError.contains("(--max-memory)"), "\(limited.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/bomb/thumbnails.vtt").path))
        let made = try BoundedCLI.run(["sprite", bomb, "-o", output, "--interval", "86400", "--width", "32", "--format", "vtt"], timeout: 60)
        #expect(made.status == 0, "\(made.standardError)")
    }

    @Test("a 15 KB file claiming 49 minutes: 5,862 cues at 0.5 s are decoded one sheet at a time, never the whole track's pixels")
    func spriteSheetBySheet() throws {
        let gap = try Self.jumpingVideo(in: folder, name: "gap.mkv", secondFrameMilliseconds: 2_930_000)
        let output = folder.appendingPathComponent("out").path
        // Every tile of the track at once (the fused strip sprite used to cut its sheets from) is
        // 5,861 × 160x90 RGB: 253 MB, 387 MB peak with the process (release build); one sheet
        // of 100 tiles is 4 MB (142 MB peak in the debug build, most of it BIF's 5,861 JPEGs).
        let run = try Self.ownPeakRSS(["sprite", gap, "-o", output, "--format", "bif,vtt,jellyfin", "--interval", "0.5", "--width", "160"],
                                      timeLimit: 120)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.peakBytes < 250_000_000, "peak RSS \(run.peakBytes >> 20) MiB")
        let sheets = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/gap").path).filter { $0.hasPrefix("sheet-") }
        let vtt = try String(contentsOfFile: folder.appendingPathComponent("out/gap/thumbnails.vtt").path, encoding: .utf8)
        let cues = vtt.components(separatedBy: " --> ").count - 1
        #expect(cues > 5800 && sheets.count == (cues + 99) / 100, "\(cues) cues, \(sheets.count) sheets")
        let bif = try Data(contentsOf: folder.appendingPathComponent("out/gap.bif"))
        #expect(bif.count > 5861 * 8, "a BIF index of every cue")
    }

    @Test("sheets JPEG or WebP cannot hold are refused from the layout, before decoding")
    func sheetSides() throws {
        let video = try TestSupport.video("h264-360p-20s")
        for (arguments, says) in [(["--image", "webp", "--tile", "60x1", "--interval", "0.1"], "cannot be a WebP (at most 16383 px a side)"),
                                  (["--tile", "300x1", "--interval", "0.05"], "cannot be a JPEG (at most 65535 px a side)")] {
            let outcome = try BoundedCLI.run(["sprite", video, "-o", folder.path, "--width", "320", "--workers", "1"] + arguments)
            #expect(outcome.status == 1, "\(arguments)")
            #expect(outcome.standardError.contains(says), "\(arguments): \(outcome.standardError)")
            // Refused before decoding: not one frame's worth of work is reported.
            #expect(!outcome.standardOutput.contains("thumbnails"), "\(outcome.standardOutput)")
        }
    }

    @Test("a batch's videos in flight share one memory limit: a second waits while the first holds it")
    func memoryBudgetWaits() async throws {
        let video = try TestSupport.video("h264-180p-3s")
        let probe = try VideoProbe(path: video)
        let timing = try SpriteTiming(durationSeconds: probe.duration.seconds, spacing: .interval(milliseconds: 1000))
        let request = try ExtractionRequest(path: video, probe: probe, plan: SamplePlan(probe: probe, timing: timing, accuracy: .keyframe),
                                            size: .width(320))
        let estimate = MemoryEstimate(request: request, layout: try Pipeline.layout(for: request, options: StripOptions(columns: 10)),
                                      fused: true, jpeg: false)
        // Room for one video's share and a half: the second waits for the first.
        let budget = MemoryBudget(limitBytes: estimate.processBytes + estimate.videoBytes * 3 / 2)
        let order = OrderLog()
        async let first: Void = budget.reserving(estimate) {
            order.append("first starts")
            try await Task.sleep(for: .milliseconds(300))
            order.append("first ends")
        }
        // Until the first holds its share (a fixed head start lost the race on a loaded machine).
        while !order.entries.contains("first starts") { try await Task.sleep(for: .milliseconds(5)) }
        try await budget.reserving(estimate) { order.append("second starts") }
        try await first
        #expect(order.entries == ["first starts", "first ends", "second starts"])
        await #expect(throws: MemoryLimitExceeded.self) {
            try await MemoryBudget(limitBytes: estimate.totalBytes - 1).reserving(estimate) {}
        }
    }

    // MARK: 3. standard output

    /// Runs the CLI with standard output on `output`; returns its status and standard error.
    static func run(_ arguments: [String], standardOutput output: FileHandle) throws -> (status: Int32, crashed: Bool, standardError: String) {
        let process = Process()
        process.executableURL = CLIProcess.executable
        process.arguments = arguments
        process.standardOutput = output
        let error = Pipe()
        process.standardError = error
        try process.run()
        let errorText = ReadToEnd(error)
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, String(decoding: errorText.wait(), as: UTF8.self))
    }

    @Test("standard output on /dev/full or a closed pipe: one line, exit 1, no crash, no temporary left")
    func failedStandardOutput() throws {
        let video = try TestSupport.video("h264-180p-3s")
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        for arguments in [["info", video, "--json"], ["info", video], ["sprite", video, "-o", folder.appendingPathComponent("o").path, "--force"],
                          ["strip", video, "-o", "-", "--count", "2"], ["--help"]] {
            let outcome = try Self.run(arguments, standardOutput: full)
            #expect(!outcome.crashed, "\(arguments)")
            #expect(outcome.status == 1, "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError == "filmstrip: cannot write to standard output: No space left on device\n", "\(arguments): \(outcome.standardError)")
        }
        let leftovers = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".tmp") } ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
        // A reader that has gone: EPIPE, not death by SIGPIPE.
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let closed = try Self.run(["info", video], standardOutput: pipe.fileHandleForWriting)
        #expect(!closed.crashed)
        #expect(closed.status == 1)
        #expect(closed.standardError == "filmstrip: cannot write to standard output: Broken pipe\n", "\(closed.standardError)")
    }

    // MARK: 8. temporary names

    @Test("a 215-byte name gets a temporary that fits NAME_MAX, unique and still cleaned up as its target's")
    func longNames() throws {
        let name = String(repeating: "映", count: 70) + "abcde"  // 215 bytes of UTF-8
        #expect(name.utf8.count == 215)
        for target in [name + ".png", name + ".bif", String(repeating: "x", count: 255)] {
            let temporary = TemporaryName.make(for: target, kind: .output, pid: 4_194_304, random: String(UInt64.max, radix: 16))
            #expect(temporary.utf8.count <= 255, "\(temporary.utf8.count) bytes")
            #expect(TemporaryName.parse(temporary, kind: .output)?.target == TemporaryName.stem(for: target))
        }
        #expect(TemporaryName.stem(for: name + "a.png") != TemporaryName.stem(for: name + "b.png"))
        #expect(TemporaryName.stem(for: "x.png") == "x.png")
        // The CLI, end to end: a video and a strip with that name, and a dead writer's temporary removed.
        let video = try TestSupport.copyOfVideo("h264-180p-3s", at: folder.appendingPathComponent(name + ".mp4").path)
        let strip = folder.appendingPathComponent(name + ".png").path
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let stale = folder.appendingPathComponent(TemporaryName.make(for: name + ".png", kind: .output, pid: finished.processIdentifier, random: "abc")).path
        try Data(count: 10).write(to: URL(fileURLWithPath: stale))
        let outcome = try BoundedCLI.run(["strip", video, "-o", strip, "--count", "2"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(FileManager.default.fileExists(atPath: strip))
        #expect(!FileManager.default.fileExists(atPath: stale))
        let sprite = try BoundedCLI.run(["sprite", video, "-o", folder.appendingPathComponent("o").path, "--format", "vtt,bif,jellyfin", "--html"])
        #expect(sprite.status == 0, "\(sprite.standardError)")
    }

    // MARK: also seen

    @Test("the same video twice is made once; with --fail-fast, outputs that land on another's or on a video are refused before any work")
    func duplicatesAndCollisions() throws {
        let video = try TestSupport.copyOfVideo("h264-180p-3s", at: folder.appendingPathComponent("x.mp4").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.mp4").path, withDestinationPath: video)
        let output = folder.appendingPathComponent("o")
        let twice = try BoundedCLI.run(["sprite", video, video, folder.appendingPathComponent("./link.mp4").path, "-o", output.path])
        #expect(twice.status == 0, "\(twice.standardError)")
        #expect(twice.standardOutput.contains("sprite: 1 video: 1 made"), "\(twice.standardOutput)")
        // x.mp4 writes the file x.bif, which x.bif.mp4 wants as its WebVTT folder.
        let other = folder.appendingPathComponent("x.bif.mp4").path
        try FileManager.default.copyItem(atPath: video, toPath: other)
        let collide = try BoundedCLI.run(["sprite", video, other, "-o", folder.appendingPathComponent("c").path, "--format", "vtt,bif", "--fail-fast"])
        #expect(collide.status == 1)
        #expect(collide.standardError == "filmstrip: \(other): its outputs would land on the paths of \(video)\n", "\(collide.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c/x").path), "work started")
        // An output on a video: a BIF in the videos' own folder is the video x.bif.
        let namedBIF = folder.appendingPathComponent("x.bif").path
        try FileManager.default.copyItem(atPath: video, toPath: namedBIF)
        let original = FileManager.default.contents(atPath: namedBIF)
        let onVideo = try BoundedCLI.run(["sprite", namedBIF, video, "-o", folder.path, "--format", "bif", "--fail-fast"])
        #expect(onVideo.status == 1)
        // Both would write x.bif: the video named so (its own name is x) and x.mp4.
        #expect(onVideo.standardError == "filmstrip: \(namedBIF): its outputs would overwrite the video \(namedBIF)\n"
                    + "filmstrip: \(video): its outputs would overwrite the video \(namedBIF)\n", "\(onVideo.standardError)")
        #expect(FileManager.default.contents(atPath: namedBIF) == original)
    }

    @Test("a FIFO is named as one, not as an empty file, and is never opened")
    func fifo() throws {
        let path = folder.appendingPathComponent("pipe.mp4").path
        #expect(mkfifo(path, 0o600) == 0)
        let outcome = try BoundedCLI.run(["info", path], timeout: 10)
        #expect(!outcome.timedOut)
        #expect(outcome.status == 1)
        #expect(outcome.standardError == "filmstrip: \(path): is a FIFO (named pipe), not a regular file\n", "\(outcome.standardError)")
    }
}

/// Lines appended from concurrent tasks, in the order they happened.
final class OrderLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
}
