import Filmstrip
import Foundation
import Testing

/// Times as people give them: seconds, clocks, shares of the duration, times before the end;
/// parsed once, resolved against the probed duration.
@Suite("time points")
struct TimePointTests {
    /// The reference video `id` and its duration in seconds, the base of relative times.
    static func videoAndDuration(_ id: String) throws -> (path: String, seconds: Double) {
        let video = try TestSupport.video(id)
        return (video, try VideoProbe(path: video).duration.seconds.doubleValue)
    }

    @Test func parsing() {
        #expect(TimePoint(parsing: "12.5") == .seconds(Rational(25, 2)))
        #expect(TimePoint(parsing: "12.5s") == .seconds(Rational(25, 2)))
        #expect(TimePoint(parsing: "1:02") == .seconds(Rational(62)))
        #expect(TimePoint(parsing: "10%") == .fraction(Rational(1, 10)))
        #expect(TimePoint(parsing: "12.5%") == .fraction(Rational(1, 8)))
        #expect(TimePoint(parsing: "-5s") == .beforeEnd(Rational(5)))
        #expect(TimePoint(parsing: "-0:05") == .beforeEnd(Rational(5)))
        for bad in ["-5", "101%", "%", "-%", "5 s", "abc", "", "-", "1e3", "+5", "--5s", "10%%"] {
            #expect(TimePoint(parsing: bad) == nil, "'\(bad)'")
        }
    }

    @Test("Rational(seconds:) to the nanosecond; nil where no 64-bit count of nanoseconds holds it")
    func rationalFromSeconds() {
        #expect(Rational(seconds: 12.5) == Rational(25, 2))
        #expect(Rational(seconds: 0.1) == Rational(1, 10))
        #expect(Rational(seconds: -1.25) == Rational(-5, 4))
        #expect(Rational(seconds: 1.0 / 3.0) == Rational(333_333_333, 1_000_000_000))
        #expect(Rational(seconds: .nan) == nil && Rational(seconds: .infinity) == nil && Rational(seconds: 2e9) == nil)
    }

    @Test func resolving() {
        let duration = Rational(20)
        #expect(TimePoint.fraction(Rational(1, 4)).resolved(duration: duration) == Rational(5))
        #expect(TimePoint.beforeEnd(Rational(5)).resolved(duration: duration) == Rational(15))
        #expect(TimePoint.seconds(Rational(3)).resolved(duration: duration) == Rational(3))
        #expect(TimePoint.beforeEnd(Rational(30)).resolved(duration: duration) < .zero)
    }

    @Test("strip --from 25% --to -5s plans the same frames as the seconds they stand for")
    func stripRange() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (video, duration) = try Self.videoAndDuration("h264-360p-20s")
        func frames(_ range: [String], _ name: String) throws -> [Int] {
            let manifest = folder.appendingPathComponent("\(name).json").path
            let result = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("\(name).png").path, "--count", "5", "--manifest", manifest] + range)
            #expect(result.status == 0, "\(result.standardError)")
            let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any]
            return (decoded?["thumbnails"] as? [[String: Any]] ?? []).compactMap { $0["frameIndex"] as? Int }
        }
        let relative = try frames(["--from", "25%", "--to", "-5s"], "relative")
        let absolute = try frames(["--from", "\(duration / 4)", "--to", "\(duration - 5)"], "absolute")
        #expect(relative.count == 5 && relative == absolute)
        let refused = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("x.png").path, "--to", "-30s"])
        #expect(refused.status != 0 && refused.standardError.contains("outside the video"), "\(refused.standardError)")
    }

    @Test("thumbnails --at 25%,-5s: the times resolved against the duration")
    func thumbnailsAt() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (video, duration) = try Self.videoAndDuration("h264-180p-3s")
        let result = try TestSupport.runCLI(["thumbnails", video, "--at=50%,-1s", "--out-dir", folder.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let requested = Dictionary(uniqueKeysWithValues: lines.compactMap { line in (line["index"] as? Int).map { ($0, line["requested_s"] as? Double ?? -1) } })
        #expect(abs((requested[0] ?? -1) - duration / 2) < 0.001 && abs((requested[1] ?? -1) - (duration - 1)) < 0.001, "\(requested)")
    }
}
