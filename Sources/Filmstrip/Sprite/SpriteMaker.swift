import Foundation

/// What one video's sprite run made.
public struct SpriteReport: Sendable {
    /// Length of the video in seconds.
    public let durationSeconds: Double
    /// The cue interval and count the sprites were made with.
    public let timing: SpriteTiming
    /// Tile size and sheet geometry of the written sheets (of the first size).
    public let grid: SpriteGrid
    /// The grid of every size, in the order of `SpriteSettings.sizes`.
    public let grids: [SpriteGrid]
    /// Which frames the tiles show (as set, or the timing's default).
    public let accuracy: Accuracy
    /// The largest distance between a cue's start and the start of the frame its tile shows.
    public let worstErrorSeconds: Double
    /// Thumbnails shown by a neighbouring frame because their own could not be decoded.
    public let substituted: Int
    /// Frames the decoders returned to make every tile.
    public let framesDecoded: Int
}

/// Makes one video's thumbnails once and writes every requested format from them.
///
/// Sheet by sheet: each sheet's slots of the plan are scaled straight into a canvas the
/// size of that sheet (`taskgroup` extractor, `fused` composer; frames that are neither shown
/// nor referred to are not decoded), which is encoded and dropped before the next sheet is
/// decoded, so memory is one sheet's whatever the number of cues a file claims (a 50 KB file
/// claiming 5,863 cues held them all at once, 1.13 GB, when the track was one strip); BIF's
/// per-thumbnail JPEGs are cut from the sheets.
/// Every file is written under a temporary name and renamed; images first, then the
/// indexes that name them, so an index on disk always points at complete images.
public struct SpriteMaker: Sendable {
    /// Spacing, grid, size and output formats, shared by every video the maker is given.
    public let settings: SpriteSettings

    /// A maker that writes what `settings` asks for.
    public init(settings: SpriteSettings) { self.settings = settings }

    /// Probes `target.input`, decodes its tiles once and writes every format of `settings` under `target`'s paths;
    /// `onProgress` sees (done, total) tiles. With a `budget` (a batch of videos made at the
    /// same time), the extraction also takes cores the batch has idle when no video waits to start.
    /// With a `memory` budget, the video's estimated memory is reserved in it before anything is
    /// allocated (waiting while the batch's other videos hold it), and refused when it exceeds it.
    /// Everything a file's claims decide (the number of cues, the sheets' sides, BIF's 32-bit
    /// timestamps, the memory) is checked before the first frame is decoded.
    public func make(_ target: SpriteTarget, sharing budget: CoreBudget? = nil, memory: MemoryBudget? = nil,
                     onProgress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> SpriteReport {
        // One deadline for the video's probe and every sheet's decoding.
        let limits = settings.limits.started()
        let probe = try VideoProbe(path: target.input, limits: limits)
        let timing = try SpriteTiming(durationSeconds: probe.duration.seconds, spacing: settings.spacing)
        if settings.formats.contains(.bif) { try SpriteIndex.checkBIFTimestamps(timing) }
        let accuracy = settings.accuracy ?? timing.defaultAccuracy
        let plan = try SamplePlan(probe: probe, timing: timing, accuracy: accuracy)
        let options = ExtractionOptions(skipNonReferenceFrames: true, workers: settings.workers)
        let tracks = try settings.sizedTargets(of: target).map { sized in
            let (width, height) = try ExtractionRequest(path: target.input, probe: probe, plan: plan, size: sized.size, options: options, limits: limits).thumbnailPixels
            return (size: sized.size, target: sized.target,
                    grid: SpriteGrid(tile: PixelSize(width: width, height: height), columns: settings.columns, rows: settings.rows, count: plan.count))
        }
        for track in tracks { try checkSheetSides(track.grid) }
        if settings.formats.contains(.jellyfin) { try checkJellyfinWidths(tracks.map { ($0.size, $0.grid) }) }
        // One decode for every size: at the largest, from whose tiles the others are scaled.
        let decoded = tracks.indices.max { tracks[$0].grid.tile.width * tracks[$0].grid.tile.height < tracks[$1].grid.tile.width * tracks[$1].grid.tile.height }!
        let grid = tracks[decoded].grid
        let extractor = TaskGroupExtractor()
        let pipeline = Pipeline(extractor: budget.map(extractor.sharing) ?? extractor, destination: .canvas)
        let sheetRequests = try (0..<grid.sheetCount).map { sheet in
            try ExtractionRequest(path: target.input, probe: probe, plan: plan.slots(grid.thumbnails(onSheet: sheet)), size: tracks[decoded].size,
                                  options: options, limits: limits)
        }
        func run() async throws -> SpriteReport {
            var writers = try tracks.map { try SheetWriter(settings: settings, target: $0.target, grid: $0.grid) }
            var scaler = Scaler(filter: .area)
            var worst = 0.0, substituted = 0, framesDecoded = 0
            for (sheet, sheetRequest) in sheetRequests.enumerated() {
                let first = grid.thumbnails(onSheet: sheet).lowerBound, total = grid.count
                var progress: (@Sendable (Int, Int) -> Void)?
                if let onProgress { progress = { @Sendable done, _ in onProgress(first + done, total) } }
                let result = try await pipeline.run(sheetRequest, options: grid.stripOptions, onProgress: progress)
                try Task.checkCancellation()
                for index in writers.indices {
                    if index == decoded {
                        try writers[index].write(sheet: sheet, pixels: result.pixels)
                    } else {
                        try writers[index].write(sheet: sheet, pixels: try Self.rescaled(result.pixels, from: grid, to: tracks[index].grid, sheet: sheet, scaler: &scaler))
                    }
                }
                worst = result.thumbnails.reduce(worst) { max($0, abs(($1.actualTime.seconds - $1.requestedTime.seconds).doubleValue)) }
                substituted += result.thumbnails.filter(\.substituted).count
                framesDecoded += result.counters.framesDecoded
            }
            for writer in writers { try writer.finish(timing: timing, accuracy: accuracy) }
            return SpriteReport(durationSeconds: probe.durationSeconds, timing: timing, grid: tracks[0].grid, grids: tracks.map(\.grid), accuracy: accuracy,
                                worstErrorSeconds: worst, substituted: substituted, framesDecoded: framesDecoded)
        }
        guard let memory else { return try await run() }
        let others = tracks.indices.filter { $0 != decoded }.map { tracks[$0].grid }
        return try await memory.reserving(try memoryEstimate(sheetRequests[0], grid: grid, otherSizes: others), run)
    }

    /// Sheet `sheet` of a track of `target`'s size, made from the same sheet decoded at
    /// `source`'s size (`pixels`, that sheet's tiles only): each tile scaled on its own, so no
    /// pixel of a neighbour bleeds into it.
    static func rescaled(_ pixels: some PixelRows, from source: SpriteGrid, to target: SpriteGrid, sheet: Int, scaler: inout Scaler) throws -> Image {
        let count = source.thumbnails(onSheet: sheet).count
        let sourceSheet = SpriteGrid(tile: source.tile, columns: source.columns, rows: source.rows, count: count)
        let targetSheet = SpriteGrid(tile: target.tile, columns: target.columns, rows: target.rows, count: count)
        let decoded = try sourceSheet.sheet(0, from: pixels, padded: false)
        let size = targetSheet.size(ofSheet: 0, padded: false)
        var image = try Image(width: size.width, height: size.height, fill: (0, 0, 0, 255), roomFor: "a rescaled sprite sheet's pixels")
        for index in 0..<count {
            let tile = try scaler.resized(decoded.cropped(to: sourceSheet.rectangle(ofThumbnail: index)), width: target.tile.width, height: target.tile.height)
            let place = targetSheet.rectangle(ofThumbnail: index)
            image.paste(tile, atX: place.x, y: place.y)
        }
        return image
    }

    /// The estimate `strip` uses (`MemoryEstimate`) for the first sheet's request (the largest:
    /// sheets are decoded one at a time into a canvas of their own), with what writing sheets
    /// takes instead of a JPEG strip: one sheet and its encoder's copy at a time, plus, for BIF
    /// and the page, every encoded image of the track until the index is written (JPEG and
    /// WebP tiles are far smaller than a quarter of their RGBA pixels).
    /// Each further size adds its sheet, its encoder's copy and its tiles' encoded images.
    func memoryEstimate(_ firstSheet: ExtractionRequest, grid: SpriteGrid, otherSizes: [SpriteGrid] = []) throws -> MemoryEstimate {
        let layout = try Pipeline.layout(for: firstSheet, options: grid.stripOptions)
        let sheet = grid.sheetSize.width.multipliedClamped(by: grid.sheetSize.height).multipliedClamped(by: 4)
        let keepsImages = settings.formats.contains(.bif) || settings.html
        let encodedTrack = grid.tile.width.multipliedClamped(by: grid.tile.height).multipliedClamped(by: grid.count)
        let others = otherSizes.reduce(0) { total, other in
            let sheet = other.sheetSize.width.multipliedClamped(by: other.sheetSize.height).multipliedClamped(by: 4)
            let encoded = other.tile.width.multipliedClamped(by: other.tile.height).multipliedClamped(by: other.count)
            return total.addingClamped(sheet.multipliedClamped(by: 2)).addingClamped(keepsImages ? encoded : 0)
        }
        return MemoryEstimate(request: firstSheet, layout: layout, fused: true) { _ in
            sheet.multipliedClamped(by: 2).addingClamped(keepsImages ? encodedTrack : 0).addingClamped(others)
        }
    }

    /// Refuses, from the layout, sheets their image format cannot describe (JPEG: 65535 px a
    /// side, WebP: 16383), rather than after the whole video is decoded.
    func checkSheetSides(_ grid: SpriteGrid) throws(SpriteError) {
        let formats = Set(settings.formats)
        let jellyfin = formats.contains(.jellyfin), sheets = formats.contains(.vtt) || settings.html
        // Sheet 0 is the largest: full, or the only one.
        let size = grid.size(ofSheet: 0, padded: jellyfin)
        var limits: [(name: String, side: Int)] = []
        if jellyfin || (sheets && settings.image == .jpeg) { limits.append(("JPEG", ResourceLimits.maximumJPEGSide)) }
        if sheets && settings.image == .webp { limits.append(("WebP", ImageEncoder.maximumWebPSide)) }
        for (name, side) in limits where size.width > side || size.height > side {
            throw .sheetTooLarge(width: size.width, height: size.height, format: name, maximumSide: side)
        }
    }

    /// Refuses, before anything is written, two sizes whose tiles have one width when Jellyfin's
    /// layout is written: its folder and playlist are named by the width alone (`W - CxR`), so
    /// `--height 10,11` of a portrait video (both 6 px wide) wrote one folder twice.
    func checkJellyfinWidths(_ tracks: [(size: ThumbnailSize, grid: SpriteGrid)]) throws(SpriteError) {
        var sizeOfWidth: [Int: ThumbnailSize] = [:]
        for track in tracks {
            let width = track.grid.tile.width
            if let earlier = sizeOfWidth[width] {
                throw .sameJellyfinWidth(first: earlier, second: track.size, width: width,
                                         folder: SpriteTarget.trickplayResolution(width: width, columns: settings.columns, rows: settings.rows))
            }
            sizeOfWidth[width] = track.size
        }
    }

    /// PNG bytes for the HTML page, through the streaming writer and a scratch file.
    fileprivate static func pngBytes(_ image: Image) throws -> [UInt8] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-sheet-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try StripWriter.write(image, to: scratch, format: .png)
        return Array(try Data(contentsOf: URL(fileURLWithPath: scratch)))
    }

    /// True when every requested output exists, is newer than the video, and every image
    /// its index names exists, the WebVTT track was made with these settings (its NOTE) and
    /// Jellyfin's playlist with this interval: then the run for this video can be skipped.
    /// (BIF's own header is not compared: a BIF made with other settings needs --force.) Outputs are only
    /// ever renamed into place complete, images before their index, so an index that is
    /// there is whole and so are the images it names.
    public func outputsAreCurrent(for target: SpriteTarget) -> Bool {
        settings.sizedTargets(of: target).allSatisfy { outputsAreCurrent(for: $0.target, size: $0.size) }
    }

    /// `outputsAreCurrent(for:)` for the track of one size.
    private func outputsAreCurrent(for target: SpriteTarget, size: ThumbnailSize) -> Bool {
        guard let inputTime = Self.modificationTime(target.input) else { return false }
        func current(_ path: String) -> Bool { (Self.modificationTime(path) ?? .distantPast) >= inputTime }
        func namesExisting(_ index: String, folder: String, mustContain: String, reference: (Substring) -> Substring?) -> Bool {
            guard current(index), let text = try? String(contentsOfFile: index, encoding: .utf8), text.contains(mustContain) else { return false }
            let names = text.split(separator: "\n").compactMap(reference)
            return !names.isEmpty && names.allSatisfy { name in
                let decoded = String(name).removingPercentEncoding ?? String(name)
                return FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).appendingPathComponent(decoded).path)
            }
        }
        for format in settings.formats {
            switch format {
            case .vtt:
                guard namesExisting(target.vttIndex, folder: target.vttFolder, mustContain: "\nNOTE \(settings.stamp)\n", reference: { line in
                    line.contains("#xywh=") ? line.split(separator: "#").first : nil
                }) else { return false }
            case .jellyfin:
                // The playlist's name holds the thumbnail width, known before probing only when --width is given.
                let suffix = " - \(settings.columns)x\(settings.rows).m3u8"
                let names: [String]
                if case .width(let width) = size {
                    names = ["\(SpriteTarget.trickplayResolution(width: width, columns: settings.columns, rows: settings.rows)).m3u8"]
                } else {
                    names = ((try? FileManager.default.contentsOfDirectory(atPath: target.trickplayFolder)) ?? []).filter { $0.hasSuffix(suffix) }
                }
                // The tile duration is the interval; with --count it depends on the video's duration.
                var duration = ",DURATION="
                if case .interval(let milliseconds) = settings.spacing { duration += "\(SpriteIndex.decimal(milliseconds: milliseconds))\n" }
                guard names.contains(where: { name in
                    namesExisting(URL(fileURLWithPath: target.trickplayFolder).appendingPathComponent(name).path, folder: target.trickplayFolder,
                                  mustContain: duration, reference: { $0.hasPrefix("#") || $0.isEmpty ? nil : $0 })
                }) else { return false }
            case .bif:
                guard current(target.bif) else { return false }
            }
        }
        return !settings.html || current(target.html)
    }

    /// `stat`'s modification time: the path may carry bytes that are not UTF-8 (`FileSystemName`).
    static func modificationTime(_ path: String) -> Date? {
        guard let status = System.status(path) else { return nil }
        return Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }
}

/// Writes one video's sprite outputs as its sheets arrive, then the indexes that name them:
/// each sheet's pixels are encoded and dropped before the next is decoded, and only the
/// encoded images BIF and the page embed are kept until their index is written.
private struct SheetWriter {
    let settings: SpriteSettings, target: SpriteTarget, grid: SpriteGrid
    let vtt: Bool, jellyfin: Bool, bif: Bool, html: Bool
    /// Jellyfin's folder name: the tile width and the grid.
    let resolution: String
    private var bifImages: [[UInt8]] = [], pageSheets: [[UInt8]] = []
    /// The sheets the earlier run's indexes name (WebVTT's, and Jellyfin's of this grid), read
    /// before this run replaces them: those this run does not write again are removed once its
    /// own indexes are in place, so a rerun with fewer sheets or another `--image` leaves none
    /// of the earlier run's behind. Only names of the writer's own pattern count (`sheet-K.EXT`,
    /// `W - CxR/K.jpg`): an index never gets another file removed.
    private let earlierSheets: Set<String>

    /// Creates the output folders (on the paths' bytes: the output folder may not be UTF-8).
    init(settings: SpriteSettings, target: SpriteTarget, grid: SpriteGrid) throws {
        self.settings = settings
        self.target = target
        self.grid = grid
        let formats = Set(settings.formats)
        (vtt, jellyfin, bif, html) = (formats.contains(.vtt), formats.contains(.jellyfin), formats.contains(.bif), settings.html)
        resolution = SpriteTarget.trickplayResolution(width: grid.tile.width, columns: grid.columns, rows: grid.rows)
        earlierSheets = (vtt ? Self.sheets(namedBy: target.vttIndex, in: target.vttFolder, reference: { line in
            line.contains("#xywh=") ? line.split(separator: "#").first : nil
        }, accepting: { $0.wholeMatch(of: /sheet-[0-9]+\.(jpg|webp|png)/) != nil }) : [])
            .union(jellyfin ? Self.sheets(namedBy: target.trickplayPlaylist(width: grid.tile.width, columns: grid.columns, rows: grid.rows),
                                          in: target.trickplayFolder, reference: { $0.hasPrefix("#") || $0.isEmpty ? nil : $0 },
                                          accepting: { [resolution] name in
                                              name.hasPrefix(resolution + "/") && name.dropFirst(resolution.count + 1).wholeMatch(of: /[0-9]+\.jpg/) != nil
                                          }) : [])
        if vtt { try System.createDirectories(target.vttFolder) }
        if jellyfin { try System.createDirectories(URL(fileURLWithPath: target.trickplayFolder).appendingPathComponent(resolution).path) }
        if bif || html { try System.createDirectories(target.outputFolder) }
    }

    /// Writes sheet `index` from `pixels`, a canvas holding that sheet's thumbnails only.
    mutating func write(sheet index: Int, pixels: some PixelRows) throws {
        let thumbnails = grid.thumbnails(onSheet: index)
        let local = SpriteGrid(tile: grid.tile, columns: grid.columns, rows: grid.rows, count: thumbnails.count)
        // Jellyfin wants every sheet at the grid's full size; players reading the WebVTT track
        // take any size, so without Jellyfin the last sheet holds only the rows it uses.
        let sheet = try local.sheet(0, from: pixels, padded: jellyfin)
        // One JPEG encode serves the WebVTT track, Jellyfin and the page.
        let jpeg = jellyfin || (settings.image == .jpeg && (vtt || html)) ? try ImageEncoder.jpeg(sheet, quality: settings.jpegQuality, subsampledChroma: true) : nil
        if vtt || html {
            let path = target.vttSheet(index, image: settings.image)
            switch settings.image {
            case .jpeg:
                if vtt { try StripWriter.writeAtomically(jpeg!, to: path) }
                if html { pageSheets.append(jpeg!) }
            case .webp:
                let bytes = try ImageEncoder.webp(sheet, quality: settings.imageQuality)
                if vtt { try StripWriter.writeAtomically(bytes, to: path) }
                if html { pageSheets.append(bytes) }
            case .png:
                if vtt { try StripWriter.write(sheet, to: path, format: .png) }
                if html { pageSheets.append(try SpriteMaker.pngBytes(sheet)) }
            }
        }
        if jellyfin {
            try StripWriter.writeAtomically(jpeg!, to: target.trickplaySheet(index, width: grid.tile.width, columns: grid.columns, rows: grid.rows))
        }
        if bif {
            for thumbnail in 0..<thumbnails.count {
                bifImages.append(try ImageEncoder.jpeg(sheet.cropped(to: local.rectangle(ofThumbnail: thumbnail)), quality: settings.jpegQuality,
                                                       subsampledChroma: true))
            }
        }
    }

    /// Writes the indexes, after every sheet they name.
    func finish(timing: SpriteTiming, accuracy: Accuracy) throws {
        if vtt {
            let text = SpriteIndex.webVTT(timing: timing, grid: grid, note: settings.stamp) { SpriteTarget.vttSheetName($0, image: settings.image) }
            try StripWriter.writeAtomically(Array(text.utf8), to: target.vttIndex)
        }
        if jellyfin {
            let folderURL = resolution.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? resolution
            let text = SpriteIndex.hlsPlaylist(timing: timing, grid: grid) { "\(folderURL)/\($0).jpg" }
            try StripWriter.writeAtomically(Array(text.utf8), to: target.trickplayPlaylist(width: grid.tile.width, columns: grid.columns, rows: grid.rows))
        }
        if bif { try StripWriter.writeAtomically(try SpriteIndex.bif(timing: timing, images: bifImages), to: target.bif) }
        if html {
            let note = "\(timing.count) thumbnails, one every \(SpriteIndex.decimal(milliseconds: timing.intervalMilliseconds)) s, \(grid.tile.width)x\(grid.tile.height) px, accuracy \(accuracy)"
            let page = SpriteIndex.html(title: target.name, note: note, timing: timing, grid: grid, sheets: pageSheets, mimeType: settings.image.mimeType)
            try StripWriter.writeAtomically(Array(page.utf8), to: target.html)
        }
        var written = Set<String>()
        for sheet in 0..<grid.sheetCount {
            if vtt { written.insert(target.vttSheet(sheet, image: settings.image)) }
            if jellyfin { written.insert(target.trickplaySheet(sheet, width: grid.tile.width, columns: grid.columns, rows: grid.rows)) }
        }
        for stale in earlierSheets.subtracting(written) { unlink(stale) }
    }

    /// The paths, in `folder`, of the sheets the index at `indexPath` names (none when there is no
    /// index): each line's `reference`, percent-decoded, kept when `accepting` says it is a sheet's name.
    static func sheets(namedBy indexPath: String, in folder: String, reference: (Substring) -> Substring?,
                       accepting: (String) -> Bool) -> Set<String> {
        guard let text = try? String(contentsOfFile: indexPath, encoding: .utf8) else { return [] }
        let names = text.split(separator: "\n").compactMap(reference).map { String($0).removingPercentEncoding ?? String($0) }
        return Set(names.filter(accepting).map { URL(fileURLWithPath: folder).appendingPathComponent($0).path })
    }
}
