@testable import Filmstrip
import Foundation
import Testing

/// Every number on the command line is range-checked before any work, with a clear error:
/// none can crash (a trap in arithmetic or allocation) or make filmstrip allocate gigabytes.
@Suite("Command-line limits")
struct CommandLineLimitsTests {
    /// Arguments that crashed or allocated without bound, and a word the refusal must contain.
    static let refused: [(arguments: [String], says: String)] = [
        (["--count", "1099511627776"], "--count must be 1 to 100000"),
        (["--count", "10000000", "--height", "1"], "--count must be 1 to 100000"),
        (["--from", "10000000000.000000000"], "--from <from>': '10000000000.000000000' is not a time"),
        (["--to", "10000000000.000000000"], "--to <to>': '10000000000.000000000' is not a time"),
        (["--select", "0..10000000000.000000000"], "--select"),
        (["--from=-9223372036854775808/-1"], "is not a time"),
        (["--from", "1/3"], "is not a time"),
        (["--from=-1"], "is not a time"),
        (["--to", "99:99999999999999999:00"], "is not a time"),
        (["--accuracy", "tolerance:600479950316000"], "--accuracy"),
        (["--accuracy", "tolerance:-9223372036854775808/-1"], "--accuracy"),
        (["--threads", "2147483648"], "--threads must be 0 to 64"),
        (["--threads", "10000"], "--threads must be 0 to 64"),
        (["--workers", "100000"], "--workers must be 1 to 64"),
        (["--jobs", "0"], "--jobs must be 1 to 64"),
        (["--height", "17000"], "--height must be 1 to 8192"),
        (["--width", "9223372036854775807"], "--width must be 1 to 8192"),
        (["--gap", "1000000"], "--gap must be 0 to 10000"),
        (["--columns", "0"], "--columns must be 1 to 100000"),
        (["--timeout=-1"], "--timeout"),
        (["--max-pixels", "0"], "--max-pixels"),
        (["--max-memory", "0"], "--max-memory"),
    ]

    @Test("out-of-range numbers are refused with the range, before the video is opened", arguments: 0..<refused.count)
    func outOfRange(index: Int) throws {
        let (arguments, says) = Self.refused[index]
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A missing video: any work at all would report it instead.
        let outcome = try BoundedCLI.run(["strip", folder.appendingPathComponent("missing.mp4").path,
                                          "-o", folder.appendingPathComponent("s.png").path] + arguments)
        #expect(!outcome.crashed && !outcome.timedOut, "\(arguments)")
        #expect(outcome.status == 64, "\(arguments): \(outcome.standardError)")
        #expect(outcome.standardError.contains(says), "\(arguments): \(outcome.standardError)")
        #expect(BoundedCLI.leftovers(in: folder, besides: []).isEmpty)
    }

    @Test("the biggest values in range run or are refused by the memory estimate, never crash")
    func largestInRange() throws {
        let video = try TestSupport.video("h264-180p-3s")
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strip = folder.appendingPathComponent("s.jpg").path
        // A tolerance far longer than the video (overflowed choosing frames), every frame once.
        let tolerance = try BoundedCLI.run(["strip", video, "-o", folder.appendingPathComponent("t.png").path,
                                            "--accuracy", "tolerance:1000000000", "--count", "3"])
        #expect(tolerance.status == 0, "\(tolerance.standardError)")
        // 8192 px high thumbnails: the estimate (strips, thumbnails, decoders) exceeds 2 GB.
        let big = try BoundedCLI.run(["strip", video, "-o", folder.appendingPathComponent("b.png").path, "--count", "4", "--height", "8192"])
        #expect(big.status == 1)
        #expect(big.standardError.contains("needs an estimated") && big.standardError.contains("memory limit of 2147 MB") && big.standardError.contains("(--max-memory)"), "\(big.standardError)")
        // JPEG's 65535 px limit is checked from the layout, before anything is decoded.
        let wide = try BoundedCLI.run(["strip", video, "-o", strip, "--count", "600", "--height", "64", "--gap", "100"])
        #expect(wide.status == 1)
        #expect(wide.standardError.contains("cannot be a JPEG (at most 65535 px a side)"), "\(wide.standardError)")
        // Many tiny thumbnails: within the count limit, the estimate accepts them.
        let many = try BoundedCLI.run(["strip", video, "-o", folder.appendingPathComponent("m.png").path,
                                       "--count", "100000", "--height", "1", "--accuracy", "keyframe", "--columns", "1000"])
        #expect(many.status == 0, "\(many.standardError)")
        #expect(!FileManager.default.fileExists(atPath: strip))
    }

    @Test("times parse without overflow; fractions and signs are not times")
    func timeParsing() {
        #expect(TimeParsing.seconds("12.5") == Rational(25, 2))
        #expect(TimeParsing.seconds("1:02.250") == Rational(249, 4))
        #expect(TimeParsing.seconds("1:00:02") == Rational(3602))
        #expect(TimeParsing.seconds("1000000000") == Rational(1_000_000_000))
        for text in ["1000000000.5", "10000000000.000000000", "1/3", "-1", "+1", "1e3", "9223372036854775807", "277778:00:00", "1:60", "", ".", "1..2"] {
            #expect(TimeParsing.seconds(text) == nil, "\(text)")
        }
        #expect(Rational(parsing: "-9223372036854775808/-1") == nil)
        #expect(Rational(parsing: "10000000000.000000000") == nil)
        #expect(Accuracy(parsing: "tolerance:600479950316000") == nil)
        #expect(Accuracy(parsing: "tolerance:0.5,2") == .tolerance(before: Rational(1, 2), after: Rational(2)))
    }

    @Test("the library's plan refuses a count beyond the limit before allocating slots")
    func planCountLimit() throws {
        let probe = try VideoProbe(path: try TestSupport.video("h264-180p-3s"))
        #expect(throws: PlanError.countTooLarge(1 << 40)) { try SamplePlan(probe: probe, count: 1 << 40) }
        #expect(try SamplePlan(probe: probe, count: 3, accuracy: .tolerance(before: Rational(1_000_000_000), after: Rational(1_000_000_000))).count == 3)
    }
}
