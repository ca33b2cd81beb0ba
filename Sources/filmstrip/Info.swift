import ArgumentParser
import Filmstrip
import Foundation

extension FilmstripCommand {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe a video (streams, timing, rotation, keyframes) or this machine.")

        @Argument(help: "The video to probe.")
        var video: String?

        @Flag(help: "Describe this machine (the fingerprint stamped on every benchmark row) instead of a video.")
        var machine = false

        /// `--json` prints JSON instead of text; `--quiet` nothing, for a script that asks only
        /// whether `strip` can read the video (the exit status).
        @OptionGroup var reporting: ReportingOptions

        @OptionGroup(title: "Limits (untrusted input)") var limits: InputLimitOptions

        func validate() throws {
            if machine == (video != nil) { throw ValidationError("Give either a VIDEO or --machine.") }
        }

        func run() throws {
            guard let video else {
                try Console.out(reporting.json ? try MachineReport.json() : MachineReport.text())
                return
            }
            do {
                // One deadline for the probe and the check.
                let limits = limits.value.started()
                let probe = try VideoProbe(path: video, limits: limits)
                // What `strip` needs beyond the probe: one frame that decodes and scales.
                try FirstFrameCheck.run(path: video, limits: limits)
                if !reporting.quiet {
                    try Console.out(reporting.json ? TerminalText.json(FileSystemName.repaired(try Self.json(probe))) : TerminalText.visible(Self.text(probe)))
                }
                if probe.dataEndsEarly {
                    Console.err("filmstrip: warning: \(FileSystemName.display(video)): data ends early (file truncated?): the container promises more frames than it holds")
                }
            } catch {
                throw failWithMessage(error)
            }
        }

        /// One object on one line: `--json` output is JSON lines throughout (`jq -c`-ready).
        static func json(_ probe: VideoProbe) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(probe), as: UTF8.self)
        }

        /// "go back 1 time (at 3.000 s, byte 106408): …", for a stream of joined recordings.
        static func resets(_ probe: VideoProbe) -> String {
            let places = probe.timestampResets.prefix(4).map { "\(seconds(Rational($0.start) * probe.timeBase)), byte \($0.position)" }
            let count = probe.timestampResets.count
            return "go back \(count) \(count == 1 ? "time" : "times") (at \(places.joined(separator: "; "))\(count > 4 ? "; …" : "")):"
                + " later parts follow on, as players show them"
        }

        static func text(_ probe: VideoProbe) -> String {
            let display = probe.displaySize
            let keyframeTimes = probe.keyframes.prefix(12).map { seconds(Rational($0) * probe.timeBase) }
            let rows: [(String, String)] = [
                ("file", FileSystemName.display(probe.path)),
                ("container", "\(probe.container) (\(probe.containerLongName))"),
                ("codec", "\(probe.codec) (\(probe.codecLongName))"),
                ("pixel format", probe.pixelFormat),
                ("coded size", "\(probe.width)x\(probe.height)"),
                ("sample aspect", "\(probe.sampleAspectRatio)"),
                ("rotation", "\(probe.rotationDegrees)° clockwise"),
                ("display size", "\(display.width)x\(display.height)"),
                ("time base", "\(probe.timeBase)"),
                ("start time", "\(seconds(probe.startTime.seconds)) (pts \(probe.startTime.pts))"),
                ("duration", "\(seconds(probe.duration.seconds)) (\(probe.duration.pts) ticks)"),
                ("frame rate", Self.frameRate(probe.frameRate)),
                ("frames", "\(probe.frameCount)\(probe.frameCountIsExact ? "" : " (estimated)")"),
                ("keyframes", "\(probe.keyframes.count), longest interval \(String(format: "%.3f", probe.longestKeyframeIntervalSeconds)) s"),
                ("keyframe times", keyframeTimes.joined(separator: ", ") + (probe.keyframes.count > 12 ? ", …" : "")),
                ("bit rate", probe.bitRate.map { "\($0 / 1000) kb/s" } ?? "unknown"),
                ("file size", "\(probe.fileSizeBytes) bytes"),
                ("data", probe.dataEndsEarly ? "ENDS EARLY (truncated: fewer frames than the container promises)" : "complete"),
            ] + (probe.timestampResets.isEmpty ? [] : [("timestamps", Self.resets(probe))])
            let width = rows.map(\.0.count).max() ?? 0
            return rows.map { "\($0.0.padded(to: width))  \($0.1)" }.joined(separator: "\n")
        }

        static func seconds(_ value: Rational) -> String { String(format: "%.3f s", value.doubleValue) }

        /// Frames per second as a decimal (`29.97 fps`, `25 fps`); the exact fraction follows only
        /// when it is one people know (NTSC's 30000/1001), not a container's 243090000/8111111.
        static func frameRate(_ rate: Rational) -> String {
            let value = rate.doubleValue
            guard value.isFinite, value > 0 else { return "unknown" }
            var decimal = String(format: "%.3f", value)
            while decimal.hasSuffix("0") { decimal.removeLast() }
            if decimal.hasSuffix(".") { decimal.removeLast() }
            return "\(decimal) fps" + (rate.denominator > 1 && rate.denominator <= 1001 ? " (\(rate.numerator)/\(rate.denominator))" : "")
        }
    }
}
