import CLITestSupport
import Filmstrip
import Foundation
import Testing

/// `filmstrip thumbnails`: its JSON-lines contract, read by a JSON parser, line by line as it comes.
@Suite("thumbnails command")
struct ThumbnailsCommandTests {
    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test("one flushed JSON line per image; every slot ends final and exact; each file exists when announced")
    func jsonLines() throws {
        let video = try TestSupport.video("h264-360p-20s")
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, output, error) = try CLIProcess.start(["thumbnails", video, "--count", "12", "--max-size", "160x160",
                                                             "--coarse-first", "--out-dir", folder.path])
        let errors = ReadToEnd(error)
        // The first line, read as soon as it arrives: its file is complete before it is announced.
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let firstLine = String(decoding: buffer.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let first = try #require(try Self.lines(firstLine).first)
        let firstPath = try #require(first["path"] as? String)
        #expect(FileManager.default.fileExists(atPath: firstPath), "announced after it was written")
        buffer.append(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: errors.wait(), as: UTF8.self))")
        let objects = try Self.lines(String(decoding: buffer, as: UTF8.self))
        for object in objects {
            #expect(Set(object.keys) == ["index", "requested_s", "actual_s", "exact", "final", "path", "elapsed_s"])
            #expect(object["index"] is Int && object["requested_s"] is Double && object["actual_s"] is Double)
            #expect(object["exact"] is Bool && object["final"] is Bool && object["elapsed_s"] is Double)
        }
        let finals = objects.filter { $0["final"] as? Bool == true }
        #expect(finals.compactMap { $0["index"] as? Int }.sorted() == Array(0..<12), "every slot ends with one final line")
        #expect(finals.allSatisfy { $0["exact"] as? Bool == true })
        for index in 0..<12 {
            let slotLines = objects.filter { $0["index"] as? Int == index }
            #expect(slotLines.last?["final"] as? Bool == true, "slot \(index)'s last line is its final one")
        }
        let elapsed = objects.compactMap { $0["elapsed_s"] as? Double }
        #expect(elapsed == elapsed.sorted())
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(files.count == 12, "one image per slot, no temporary file left")
        // The images are PNGs of the fitted size: 160 wide, 90 high for 16:9.
        let png = try Data(contentsOf: URL(fileURLWithPath: firstPath))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png[16..<24] == Data([0, 0, 0, 160, 0, 0, 0, 90]))
    }

    @Test("--at times in any order; actual times match the frames strip shows")
    func explicitTimes() throws {
        let video = try TestSupport.video("h264-180p-3s")
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try TestSupport.runCLI(["thumbnails", video, "--at", "2.5,0:00.5,1", "--height", "32", "--out-dir", folder.path, "--format", "jpg"])
        #expect(result.status == 0, "\(result.standardError)")
        let objects = try Self.lines(result.standardOutput)
        #expect(objects.count == 3)
        let byIndex = Dictionary(uniqueKeysWithValues: objects.map { ($0["index"] as! Int, $0) })
        #expect(byIndex[1]?["requested_s"] as? Double == 0.5)
        for (index, seconds) in [(0, 2.5), (1, 0.5), (2, 1.0)] {
            // 30 fps: the frame displayed at T starts at most one frame before it.
            let actual = try #require(byIndex[index]?["actual_s"] as? Double)
            #expect(actual <= seconds + 1e-6 && actual > seconds - 1.0 / 30 - 1e-6)
            #expect((byIndex[index]?["path"] as? String)?.hasSuffix("thumbnail-000\(index).jpg") == true)
        }
    }

    @Test("bad input: one line naming the file and the reason, non-zero exit, no image")
    func badInput() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-180p-3s")
        let missing = folder.appendingPathComponent("missing.mp4").path
        for (arguments, mention) in [([missing, "--count", "3"], missing), ([video, "--at", "99"], video)] {
            let result = try TestSupport.runCLI(["thumbnails"] + arguments + ["--out-dir", folder.path])
            #expect(result.status != 0)
            #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(mention), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        let usage = try TestSupport.runCLI(["thumbnails", video, "--count", "3", "--at", "1", "--out-dir", folder.path])
        #expect(usage.status == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A frame whose data is gone cannot be shown exactly: the nearest good frame is written
    /// and announced with "exact":false, and the command fails, naming the video and the slot,
    /// instead of exiting 0 with a picture that only looks right. (MP4: its sample table still lists the frame whose bytes are zeroed.)
    @Test("an exact request a damaged frame cannot meet is an error, not a silent neighbour")
    func unmetExactRequestFails() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = FrameMatrixCase.video(.mp4, fps: 25, gop: 25, bFrames: 0, seconds: 3).spec
        let original = try TestSupport.cache.ensure(spec).url.path
        // Frame 30's packet (P-frames only, so decode order is display order) zeroed: no picture comes from it.
        let packets = try TimelineTests.tool("ffprobe", ["-select_streams", "v:0", "-show_entries", "packet=pos,size", "-of", "compact=p=0", original])
            .split(separator: "\n").map { line in
                Dictionary(uniqueKeysWithValues: line.split(separator: "|").map { field in
                    (String(field.prefix { $0 != "=" }), Int(field.drop { $0 != "=" }.dropFirst()) ?? 0)
                })
            }
        let damaged = try #require(packets.count > 30 ? packets[30] : nil)
        let (position, size) = (damaged["pos"] ?? 0, damaged["size"] ?? 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        bytes.replaceSubrange(position..<(position + size), with: Data(count: size))
        let video = folder.appendingPathComponent("damaged.mp4").path
        try bytes.write(to: URL(fileURLWithPath: video))
        let out = folder.appendingPathComponent("out").path
        for strategy in ["exact", "coarse-first"] {
            let result = try TestSupport.runCLI(["thumbnails", video, "--at", "0.42,1.22,2.22", "--strategy", strategy, "--out-dir", out])
            #expect(result.status == 1, "\(strategy): \(result.standardError)")
            #expect(result.standardError.contains(video) && result.standardError.contains("1 of 3 thumbnails could not show the exact frame")
                    && result.standardError.contains("slots 1"), "\(result.standardError)")
            let finals = try Self.lines(result.standardOutput).filter { $0["final"] as? Bool == true }
            #expect(finals.count == 3)
            #expect(finals.filter { $0["exact"] as? Bool == false }.compactMap { $0["index"] as? Int } == [1])
        }
        // Not asked to be exact: the nearest keyframe is what was asked for, and the command succeeds.
        let keyframes = try TestSupport.runCLI(["thumbnails", video, "--at", "1.22", "--accuracy", "keyframe", "--out-dir", out])
        #expect(keyframes.status == 0, "\(keyframes.standardError)")
    }
}
