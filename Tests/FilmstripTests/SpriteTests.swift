import CLITestSupport
import Filmstrip
import FilmstripFixtures
import Foundation
import Testing

/// `filmstrip sprite`: every output parsed back, and on reference videos the tile under
/// each cue read through its frame marker.
@Suite("filmstrip sprite")
struct SpriteTests {
    /// The frame displayed `milliseconds` after the first frame of a reference video.
    static func displayedFrame(_ spec: ReferenceVideoSpec, atMilliseconds milliseconds: Int64) -> Int {
        let time = Rational(milliseconds, 1000), first = spec.presentationTime(ofFrame: 0)
        return (0..<spec.frameCount).last { Rational(spec.presentationTime(ofFrame: $0) - first) * spec.timeBase <= time } ?? 0
    }

    static func seconds(ofFrame frame: Int, _ spec: ReferenceVideoSpec) -> Rational {
        Rational(spec.presentationTime(ofFrame: frame) - spec.presentationTime(ofFrame: 0)) * spec.timeBase
    }

    /// Runs `sprite` on `video` into a fresh folder; returns the folder and the video's outputs' base name.
    static func run(_ video: String, _ arguments: [String]) throws -> (folder: URL, name: String) {
        let folder = try TestSupport.scratchDirectory()
        let result = try TestSupport.runCLI(["sprite", video, "-o", folder.path] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return (folder, URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent)
    }

    /// Checks a WebVTT track against the video's duration and its sheets, and returns the
    /// cues with each tile's pixels.
    static func checkedTrack(folder: URL, name: String, video: String) throws -> [(SpriteParsers.Cue, Image)] {
        let trackFolder = folder.appendingPathComponent(name)
        let cues = try SpriteParsers.webVTT(String(contentsOf: trackFolder.appendingPathComponent("thumbnails.vtt"), encoding: .utf8))
        let duration = (try VideoProbe(path: video).duration.seconds * Rational(1000)).floor
        #expect(cues.first?.start == 0)
        #expect(cues.last?.end == duration, "cues end at the duration")
        for (cue, next) in zip(cues, cues.dropFirst()) { #expect(cue.end == next.start, "contiguous, no gap or overlap") }
        #expect(cues.allSatisfy { $0.start < $0.end })
        var sheets: [String: Image] = [:]
        return try cues.map { cue in
            if sheets[cue.sheet] == nil { sheets[cue.sheet] = try SpriteParsers.decodeImage(trackFolder.appendingPathComponent(cue.sheet).path) }
            let sheet = sheets[cue.sheet]!
            #expect(cue.rect.maxX <= sheet.width && cue.rect.maxY <= sheet.height, "\(cue.rect) inside the \(sheet.width)x\(sheet.height) sheet")
            return (cue, sheet.cropped(to: cue.rect))
        }
    }

    @Test("exact: the tile under every cue shows the frame displayed at the cue's start", arguments: [
        "h264-180p-3s", "hevc-180p-2s", "vp9-180p-2s", "av1-180p-2s", "mpeg4-180p-2s", "h264-180p-2s-rot90",
        "h264-180p-2s-rot270", "h264-180p-2s-sar43", "h264-180p-2s-opengop-offset", "h264-180p-2s-vfr", "vp9-179p-2s-odd",
    ])
    func exactTiles(id: String) throws {
        let video = try TestSupport.video(id), spec = TestSupport.spec(id)
        let (folder, name) = try Self.run(video, ["--accuracy", "exact", "--interval", "0.15", "--tile", "4x2", "--width", "160",
                                                  "--format", "vtt,jellyfin,bif"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = try Self.checkedTrack(folder: folder, name: name, video: video)
        #expect(tiles.count == Int((spec.durationSeconds * 1000 + 149) / 150))
        for (cue, tile) in tiles {
            #expect(FrameIndexMarker.read(from: tile) == Self.displayedFrame(spec, atMilliseconds: cue.start), "\(id) cue at \(cue.start) ms")
        }
        // The other two formats of the same run: every sheet listed, one BIF image per cue at its time.
        let trickplay = folder.appendingPathComponent("\(name).trickplay")
        let playlist = try #require(try FileManager.default.contentsOfDirectory(atPath: trickplay.path).first { $0.hasSuffix(".m3u8") })
        let entries = try SpriteParsers.playlist(String(contentsOf: trickplay.appendingPathComponent(playlist), encoding: .utf8))
        #expect(entries.count == (tiles.count + 7) / 8)
        #expect(entries.allSatisfy { FileManager.default.fileExists(atPath: trickplay.appendingPathComponent($0.url.removingPercentEncoding!).path) })
        let bif = try SpriteParsers.bif(Data(contentsOf: folder.appendingPathComponent("\(name).bif")))
        #expect(bif.entries.map { Int64($0.timestamp) * Int64(bif.multiplier) } == tiles.map(\.0.start))
    }

    @Test("tolerance (the default) and keyframe: each tile's frame within the stated bound", arguments: ["h264-360p-20s", "h264-180p-2s-opengop-offset"])
    func boundedTiles(id: String) throws {
        let video = try TestSupport.video(id), spec = TestSupport.spec(id)
        for (accuracy, bound) in [(nil, Rational(1, 4)), ("tolerance:0.1", Rational(1, 10))] as [(String?, Rational)] {
            let (folder, name) = try Self.run(video, ["--interval", "0.5", "--width", "128"] + (accuracy.map { ["--accuracy", $0] } ?? []))
            defer { try? FileManager.default.removeItem(at: folder) }
            for (cue, tile) in try Self.checkedTrack(folder: folder, name: name, video: video) {
                let frame = try #require(FrameIndexMarker.read(from: tile))
                let offset = Self.seconds(ofFrame: frame, spec) - Rational(cue.start, 1000)
                #expect(offset <= bound && Rational(0) - offset <= bound, "\(id) cue \(cue.start) ms shows frame \(frame)")
            }
        }
        let (folder, name) = try Self.run(video, ["--interval", "1", "--width", "128", "--accuracy", "keyframe"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyframes = Set(try VideoProbe(path: video).keyframes)
        let probe = try VideoProbe(path: video)
        for (cue, tile) in try Self.checkedTrack(folder: folder, name: name, video: video) {
            let frame = try #require(FrameIndexMarker.read(from: tile))
            #expect(keyframes.contains(probe.frameTimes[frame]), "\(id) cue \(cue.start) ms shows frame \(frame), a keyframe")
        }
    }

    @Test("--count N: N cues of one whole-millisecond interval, the last ending at the duration; --height sets the tile height")
    func countSpacing() throws {
        let video = try TestSupport.video("h264-180p-3s")
        let (folder, name) = try Self.run(video, ["--count", "7", "--height", "40", "--accuracy", "exact"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = try Self.checkedTrack(folder: folder, name: name, video: video)
        #expect(tiles.map(\.0.start) == (0..<7).map { Int64($0) * 429 })
        #expect(tiles.allSatisfy { $0.1.height == 40 && $0.1.width == 71 })
        for (cue, tile) in tiles {
            #expect(FrameIndexMarker.read(from: tile) == Self.displayedFrame(TestSupport.spec("h264-180p-3s"), atMilliseconds: cue.start))
        }
    }

    @Test("jellyfin and bif from the same run: the playlist line by line, the BIF by its layout, frames by their markers")
    func jellyfinAndBIF() throws {
        let id = "h264-360p-20s"
        let video = try TestSupport.video(id), spec = TestSupport.spec(id)
        let (folder, name) = try Self.run(video, ["--accuracy", "exact", "--interval", "1.5", "--tile", "3x2", "--width", "128",
                                                  "--format", "vtt,jellyfin,bif"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 14  // ⌈20 s / 1.5 s⌉
        let trickplay = folder.appendingPathComponent("\(name).trickplay")
        let entries = try SpriteParsers.playlist(String(contentsOf: trickplay.appendingPathComponent("128 - 3x2.m3u8"), encoding: .utf8))
        #expect(entries.count == 3)
        #expect(entries.map(\.seconds) == ["9", "9", "3"])
        #expect(entries.allSatisfy { $0.resolution == "128x72" && $0.layout == "3x2" && $0.tileSeconds == "1.5" })
        for (index, entry) in entries.enumerated() {
            #expect(entry.url == "128%20-%203x2/\(index).jpg")
            let sheet = try SpriteParsers.decodeImage(trickplay.appendingPathComponent(entry.url.removingPercentEncoding!).path)
            #expect(sheet.width == 3 * 128 && sheet.height == 2 * 72, "every sheet has the full grid's size")
            for cell in 0..<6 where index * 6 + cell < count {
                let tile = sheet.cropped(to: PixelRect(x: cell % 3 * 128, y: cell / 3 * 72, width: 128, height: 72))
                #expect(FrameIndexMarker.read(from: tile) == Self.displayedFrame(spec, atMilliseconds: Int64(index * 6 + cell) * 1500))
            }
        }
        let bif = try SpriteParsers.bif(Data(contentsOf: folder.appendingPathComponent("\(name).bif")))
        #expect(bif.version == 0 && bif.multiplier == 500)
        #expect(bif.entries.map { Int64($0.timestamp) * Int64(bif.multiplier) } == (0..<count).map { Int64($0) * 1500 })
        let scratch = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (index, image) in bif.images.enumerated() {
            #expect(image.prefix(2) == Data([0xFF, 0xD8]) && image.suffix(2) == Data([0xFF, 0xD9]), "a whole JPEG")
            let path = scratch.appendingPathComponent("\(index).jpg")
            try image.write(to: path)
            let decoded = try SpriteParsers.decodeImage(path.path)
            #expect(decoded.width == 128 && decoded.height == 72)
            #expect(FrameIndexMarker.read(from: decoded) == Self.displayedFrame(spec, atMilliseconds: Int64(index) * 1500))
        }
        // The WebVTT sheets of the same run are the Jellyfin sheets, byte for byte (one encode).
        #expect(try Data(contentsOf: folder.appendingPathComponent("\(name)/sheet-1.jpg")) == Data(contentsOf: trickplay.appendingPathComponent("128 - 3x2/1.jpg")))
    }

    /// `--force` with fewer sheets, or with another `--image`, left the earlier run's sheets
    /// beside the new ones. Now what the earlier run's indexes named and this run did not
    /// write again is removed, and nothing else: a file of the user's in the same folders stays.
    @Test("--force with fewer sheets or another --image removes the earlier run's sheets, only those")
    func forceRemovesTheEarlierRunsSheets() throws {
        let video = try TestSupport.video("h264-360p-20s")
        let (folder, name) = try Self.run(video, ["--format", "vtt,jellyfin", "--interval", "0.5", "--tile", "2x2", "--width", "96"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent(name), trickplay = folder.appendingPathComponent("\(name).trickplay/96 - 2x2")
        func files(_ url: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
        #expect(files(track).count == 11, "10 sheets and the index: \(files(track))")
        try Data("mine".utf8).write(to: track.appendingPathComponent("sheet-99.jpg"))
        try Data("mine".utf8).write(to: trickplay.appendingPathComponent("notes.txt"))

        let fewer = try TestSupport.runCLI(["sprite", video, "-o", folder.path, "--format", "vtt,jellyfin", "--interval", "2", "--tile", "2x2",
                                            "--width", "96", "--force"])
        #expect(fewer.status == 0, "\(fewer.standardError)")
        #expect(files(track) == ["sheet-0.jpg", "sheet-1.jpg", "sheet-2.jpg", "sheet-99.jpg", "thumbnails.vtt"], "\(files(track))")
        #expect(files(trickplay) == ["0.jpg", "1.jpg", "2.jpg", "notes.txt"], "\(files(trickplay))")
        _ = try Self.checkedTrack(folder: folder, name: name, video: video)

        let webp = try TestSupport.runCLI(["sprite", video, "-o", folder.path, "--format", "vtt", "--interval", "2", "--tile", "2x2",
                                           "--width", "96", "--image", "webp", "--force"])
        #expect(webp.status == 0, "\(webp.standardError)")
        #expect(files(track) == ["sheet-0.webp", "sheet-1.webp", "sheet-2.webp", "sheet-99.jpg", "thumbnails.vtt"], "\(files(track))")
        _ = try Self.checkedTrack(folder: folder, name: name, video: video)
    }

    @Test("webp and png sheets; the HTML page is self-contained")
    func imageFormatsAndHTML() throws {
        let video = try TestSupport.video("h264-180p-3s")
        for (image, magic) in [("webp", Data("RIFF".utf8)), ("png", Data([0x89, 0x50, 0x4E, 0x47]))] {
            let (folder, name) = try Self.run(video, ["--image", image, "--interval", "0.5", "--tile", "3x3", "--width", "160", "--html", "--quality", "70"])
            defer { try? FileManager.default.removeItem(at: folder) }
            let sheet = try Data(contentsOf: folder.appendingPathComponent("\(name)/sheet-0.\(image)"))
            #expect(sheet.prefix(4) == magic)
            if image == "webp" { #expect(sheet[8..<12] == Data("WEBP".utf8)) }
            let tiles = try Self.checkedTrack(folder: folder, name: name, video: video)
            #expect(tiles.count == 6)
            #expect(tiles.allSatisfy { FrameIndexMarker.read(from: $0.1) != nil })
            let page = try String(contentsOf: folder.appendingPathComponent("\(name).html"), encoding: .utf8)
            #expect(page.hasPrefix("<!DOCTYPE html>"))
            #expect(!page.contains("http:") && !page.contains("https:") && !page.contains("//cdn"), "nothing fetched")
            #expect(!page.contains("<script src") && !page.contains("<link"), "no external scripts or styles")
            #expect(page.components(separatedBy: "src=\"data:image/\(image);base64,").count - 1 == 1, "the one sheet inlined")
            #expect(page.contains("const cues = [[0,500,0,0,0],[500,1000,0,160,0]"))
            #expect(page.contains(": Math.floor(duration / 2))));"), "opens on the middle cue, not cue 0's often black frame")
        }
    }

    @Test("the HTML page in headless Chromium: the preview shows the cue's tile for the time in the address",
          .enabled(if: HeadlessBrowser.enabled, "\(HeadlessBrowser.disabledReason)"))
    func htmlInChromium() throws {
        let video = try TestSupport.video("h264-360p-20s")
        let (folder, name) = try Self.run(video, ["--interval", "1", "--tile", "5x4", "--width", "160", "--html", "--accuracy", "exact"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = "file://\(folder.appendingPathComponent("\(name).html").path)#t=12.3"
        let dom = try HeadlessBrowser.run(["--dump-dom", page]).standardOutput
        // Cue 12 (12 s to 13 s) is tile 12 of the 5x4 sheet: column 2, row 2.
        #expect(dom.contains("0:12.300 (cue 0:12.000 to 0:13.000)"), "the script ran")
        #expect(dom.contains("background-position: -320px -180px"), "the preview shows tile 12")
        // Without a time in the address: the middle of the video (10 s, tile 10: column 0, row 2), not cue 0.
        let opened = try HeadlessBrowser.run(["--dump-dom", "file://\(folder.appendingPathComponent("\(name).html").path)"]).standardOutput
        #expect(opened.contains("(cue 0:10.000 to 0:11.000)") && opened.contains("background-position: 0px -180px"), "opens on the middle cue")
    }

    @Test("strip --interval sets the count, --quality the JPEG's quality")
    func stripIntervalAndQuality() throws {
        let folder = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestSupport.video("h264-180p-3s")
        var sizes: [Int] = []
        for quality in ["20", "95"] {
            let path = folder.appendingPathComponent("strip-\(quality).jpg").path
            let result = try TestSupport.runCLI(["strip", video, "-o", path, "--interval", "0.5", "--quality", quality])
            #expect(result.status == 0 && result.standardOutput.contains("6 thumbnails"), "\(result.standardOutput)\(result.standardError)")
            let strip = try ImageDecoder.decode(path: path)
            #expect(strip.width == 6 * 114 && strip.height == 64)
            sizes.append(try Data(contentsOf: URL(fileURLWithPath: path)).count)
        }
        #expect(sizes[0] < sizes[1])
        let bad = try TestSupport.runCLI(["strip", video, "-o", folder.appendingPathComponent("bad.jpg").path, "--quality", "0"])
        #expect(bad.status != 0 && bad.standardError.contains("quality"))
    }

    @Test("all three formats on every real-world video", .enabled(if: RealWorldVideos.available), arguments: RealWorldVideos.names)
    func realWorld(name: String) throws {
        let video = RealWorldVideos.folder.appendingPathComponent(name).path
        let (folder, base) = try Self.run(video, ["--accuracy", "exact", "--interval", "1", "--tile", "5x5", "--format", "vtt,jellyfin,bif", "--width", "160"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = try Self.checkedTrack(folder: folder, name: base, video: video)
        let bif = try SpriteParsers.bif(Data(contentsOf: folder.appendingPathComponent("\(base).bif")))
        #expect(bif.images.count == tiles.count)
        let playlists = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("\(base).trickplay").path).filter { $0.hasSuffix(".m3u8") }
        #expect(playlists.count == 1)
        let entries = try SpriteParsers.playlist(String(contentsOf: folder.appendingPathComponent("\(base).trickplay/\(playlists[0])"), encoding: .utf8))
        #expect(entries.count == (tiles.count + 24) / 25)
        // BIF's thumbnails and the sheets' tiles are the same pixels through two JPEG encodes.
        let scratch = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for index in [0, tiles.count - 1] {
            let path = scratch.appendingPathComponent("\(index).jpg")
            try bif.images[index].write(to: path)
            let single = try SpriteParsers.decodeImage(path.path), tile = tiles[index].1
            #expect(single.width == tile.width && single.height == tile.height)
            var difference = 0
            for y in 0..<tile.height { for x in 0..<tile.width { difference += abs(Int(single.pixel(x: x, y: y).green) - Int(tile.pixel(x: x, y: y).green)) } }
            #expect(difference / (tile.width * tile.height) < 6, "\(name) thumbnail \(index)")
        }
    }
}

/// Libraries: folders, several files at a time, failures, resuming and shards.
@Suite("filmstrip sprite over a library")
struct SpriteLibraryTests {
    /// A library folder: three good videos (one in a subfolder) and a broken one.
    static func library() throws -> URL {
        let root = try TestSupport.scratchDirectory()
        let sub = root.appendingPathComponent("season 1")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for (id, target) in [("h264-180p-3s", root.appendingPathComponent("a.mp4")), ("vp9-180p-2s", root.appendingPathComponent("b.webm")),
                             ("hevc-180p-2s", sub.appendingPathComponent("c.mp4"))] {
            try TestSupport.copyOfVideo(id, at: target.path)
        }
        try Data("not a video".utf8).write(to: sub.appendingPathComponent("broken.mkv"))
        try Data("notes".utf8).write(to: root.appendingPathComponent("notes.txt"))
        return root
    }

    static func files(under folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("a folder with subfolders: errors reported and skipped, outputs complete, a second run skips, a newer video is remade")
    func batchResume() throws {
        let library = try Self.library(), output = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: library); try? FileManager.default.removeItem(at: output) }
        let arguments = ["sprite", library.path, "-o", output.path, "--recursive", "--interval", "1", "--width", "96", "--jobs", "2", "--format", "vtt,bif"]

        let stopped = try TestSupport.runCLI(arguments + ["--fail-fast"])
        #expect(stopped.status != 0, "a broken video fails the run")
        #expect(stopped.standardOutput.contains("stopped at the first failure"), "\(stopped.standardOutput)")
        try FileManager.default.removeItem(at: output)

        // Going on is the default; the flag that once asked for it is still taken.
        let first = try TestSupport.runCLI(arguments + ["--ignore-errors"])
        #expect(first.status != 0, "still non-zero: one video failed")
        let errorLines = first.standardError.split(separator: "\n")
        #expect(errorLines.count == 3 && errorLines.allSatisfy { $0.contains("broken.mkv") || $0.hasSuffix("1 of 4 videos failed:") }, "\(first.standardError)")
        #expect(first.standardOutput.contains("4 videos:") && first.standardOutput.contains("1 failed"))
        let made = Self.files(under: output)
        for expected in ["a/thumbnails.vtt", "a.bif", "b/sheet-0.jpg", "season 1/c/thumbnails.vtt", "season 1/c.bif"] {
            #expect(made.contains(expected), "\(expected) in \(made)")
        }
        #expect(!made.contains { $0.contains("broken") || $0.hasSuffix(".tmp") || $0.contains("notes") }, "\(made)")

        let second = try TestSupport.runCLI(arguments)
        #expect(second.standardOutput.contains("0 made, 3 up to date, 1 failed"), "\(second.standardOutput)")

        // A video newer than its outputs, and one whose sheet went missing, are made again.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: library.appendingPathComponent("a.mp4").path)
        try FileManager.default.removeItem(at: output.appendingPathComponent("b/sheet-0.jpg"))
        let third = try TestSupport.runCLI(arguments)
        #expect(third.standardOutput.contains("2 made, 1 up to date, 1 failed"), "\(third.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("b/sheet-0.jpg").path))

        // Other settings do not take the old track for theirs.
        let other = try TestSupport.runCLI(arguments.map { $0 == "96" ? "80" : $0 } + ["--format", "vtt"])
        #expect(other.standardOutput.contains("3 made, 0 up to date, 1 failed"), "\(other.standardOutput)")
    }

    @Test("the default batch (videos at a time, idle cores shared) makes the same bytes as one video at a time on one worker")
    func batchSchedulingKeepsBytes() throws {
        let library = try Self.library()
        defer { try? FileManager.default.removeItem(at: library) }
        try FileManager.default.removeItem(at: library.appendingPathComponent("season 1/broken.mkv"))
        var outputs: [[String: Data]] = []
        for scheduling in [[], ["--jobs", "1", "--workers", "1"], ["--jobs", "3"]] {
            let output = try TestSupport.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: output) }
            let result = try TestSupport.runCLI(["sprite", library.path, "-o", output.path, "--recursive", "--interval", "0.5", "--width", "64",
                                                 "--accuracy", "exact", "--format", "vtt,bif"] + scheduling)
            #expect(result.status == 0, "\(scheduling): \(result.standardError)")
            #expect(result.standardOutput.contains("3 made"), "\(result.standardOutput)")
            var files: [String: Data] = [:]
            for name in Self.files(under: output) {
                var isDirectory: ObjCBool = false
                let path = output.appendingPathComponent(name).path
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
                }
            }
            outputs.append(files)
        }
        #expect(!outputs[0].isEmpty)
        #expect(outputs[1] == outputs[0])
        #expect(outputs[2] == outputs[0])
    }

    @Test("shards split a library: every video in exactly one of N shards, the same way every time")
    func shards() throws {
        let library = try Self.library()
        defer { try? FileManager.default.removeItem(at: library) }
        try FileManager.default.removeItem(at: library.appendingPathComponent("season 1/broken.mkv"))
        var seen: [String] = []
        for index in 0..<2 {
            let output = try TestSupport.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: output) }
            let result = try TestSupport.runCLI(["sprite", library.path, "-o", output.path, "--recursive", "--interval", "1", "--width", "64",
                                                 "--shard", "\(index)/2"])
            #expect(result.status == 0, "\(result.standardError)")
            seen += Self.files(under: output).filter { $0.hasSuffix("thumbnails.vtt") }
        }
        #expect(seen.sorted() == ["a/thumbnails.vtt", "b/thumbnails.vtt", "season 1/c/thumbnails.vtt"])
        #expect(["a.mp4", "b.webm", "season 1/c.mp4"].map { SpriteLibrary.shard(of: $0, count: 2) } == [
            SpriteLibrary.shard(of: "a.mp4", count: 2), SpriteLibrary.shard(of: "b.webm", count: 2), SpriteLibrary.shard(of: "season 1/c.mp4", count: 2),
        ])
    }

    @Test("a run killed part way leaves only whole files, and the same command then finishes the job")
    func interrupted() throws {
        let video = try TestSupport.video("h264-360p-20s"), output = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let arguments = ["sprite", video, "-o", output.path, "--interval", "0.1", "--tile", "2x2", "--width", "64", "--format", "vtt,bif"]
        // Killed at growing delays, so some kills land while files are being written.
        for delay in [200_000, 500_000, 800_000, 1_100_000] as [useconds_t] {
            let (process, _, _) = try CLIProcess.start(arguments + ["--force"])
            usleep(delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let name = URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent
        let track = output.appendingPathComponent(name)
        for file in Self.files(under: output) where !URL(fileURLWithPath: file).lastPathComponent.hasPrefix(".")
            && (try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(file).path)[.type] as? FileAttributeType) == .typeRegular {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            if file.hasSuffix(".jpg") { #expect(data.prefix(2) == Data([0xFF, 0xD8]) && data.suffix(2) == Data([0xFF, 0xD9]), "\(file) whole") }
            if file.hasSuffix(".vtt") {
                for cue in try SpriteParsers.webVTT(String(decoding: data, as: UTF8.self)) {
                    #expect(FileManager.default.fileExists(atPath: track.appendingPathComponent(cue.sheet).path), "the index names only written sheets")
                }
            }
            if file.hasSuffix(".bif") { _ = try SpriteParsers.bif(data) }
        }
        let again = try TestSupport.runCLI(arguments)
        // Made now, or already complete when the last kill came after the run had finished.
        #expect(again.status == 0 && (again.standardOutput.contains("1 made") || again.standardOutput.contains("1 up to date")), "\(again.standardOutput) \(again.standardError)")
        #expect(try SpriteParsers.webVTT(String(contentsOf: track.appendingPathComponent("thumbnails.vtt"), encoding: .utf8)).count == 200)
        #expect(try SpriteParsers.bif(Data(contentsOf: output.appendingPathComponent("\(name).bif"))).images.count == 200)
    }

    @Test("bad requests fail with one line and write nothing", arguments: [
        (["--interval", "0"], "interval"), (["--tile", "10"], "tile"), (["--format", "mp4"], "format"),
        (["--image", "gif"], "image"), (["--shard", "2/2"], "shard"), (["--count", "3", "--interval", "2"], "count"),
    ])
    func badRequests(arguments: [String], keyword: String) throws {
        let output = try TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try TestSupport.runCLI(["sprite", try TestSupport.video("h264-180p-3s"), "-o", output.path] + arguments)
        #expect(result.status != 0)
        #expect(result.standardError.lowercased().contains(keyword))
        #expect(Self.files(under: output).isEmpty)
    }
}
