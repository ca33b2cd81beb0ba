import Foundation

/// What one video's sprite run made.
public struct SpriteReport: Sendable {
    /// Length of the video in seconds.
    public let durationSeconds: Double
    /// The cue interval and count the sprites were made with.
    public let timing: SpriteTiming
    /// Tile size and sheet geometry of the written sheets.
    public let grid: SpriteGrid
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
/// One decode: the plan's frames are scaled straight into one grid strip `columns` wide
/// (`taskgroup` extractor, `fused` composer; frames that are neither shown nor referred to
/// are not decoded); sheet `k` is the strip's k-th band of `rows`
/// rows, padded to a full sheet; BIF's per-thumbnail JPEGs are cut from the sheets.
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
        let probe = try VideoProbe(path: target.input)
        let timing = try SpriteTiming(durationSeconds: probe.duration.seconds, spacing: settings.spacing)
        if settings.formats.contains(.bif) { try SpriteIndex.checkBIFTimestamps(timing) }
        let accuracy = settings.accuracy ?? timing.defaultAccuracy
        let plan = try SamplePlan(probe: probe, timing: timing, accuracy: accuracy)
        let request = try ExtractionRequest(path: target.input, probe: probe, plan: plan, size: settings.size,
                                            options: ExtractionOptions(skipNonReferenceFrames: true, workers: settings.workers))
        let (width, height) = request.thumbnailPixels
        let grid = SpriteGrid(tile: PixelSize(width: width, height: height), columns: settings.columns, rows: settings.rows, count: plan.count)
        try checkSheetSides(grid)
        let extractor = TaskGroupExtractor()
        let pipeline = Pipeline(extractor: budget.map(extractor.sharing) ?? extractor, destination: .canvas)
        let run = { () async throws -> SpriteReport in
            let result = try await pipeline.run(request, options: grid.stripOptions, onProgress: onProgress)
            try Task.checkCancellation()
            try write(target, strip: result.pixels, timing: timing, grid: grid, accuracy: accuracy)
            let worst = result.thumbnails.map { abs(($0.actualTime.seconds - $0.requestedTime.seconds).doubleValue) }.max() ?? 0
            return SpriteReport(durationSeconds: probe.durationSeconds, timing: timing, grid: grid, accuracy: accuracy,
                                worstErrorSeconds: worst, substituted: result.thumbnails.filter(\.substituted).count,
                                framesDecoded: result.counters.framesDecoded)
        }
        guard let memory else { return try await run() }
        return try await memory.reserving(try memoryEstimate(request, grid: grid), run)
    }

    /// The estimate `strip` uses (`MemoryEstimate`), with what writing sheets takes instead
    /// of a JPEG strip: one sheet and its encoder's copy at a time, plus, for BIF and the page,
    /// every encoded image until the index is written (JPEG and WebP tiles are far smaller
    /// than a quarter of their RGBA pixels).
    func memoryEstimate(_ request: ExtractionRequest, grid: SpriteGrid) throws -> MemoryEstimate {
        let layout = try Pipeline.layout(for: request, options: grid.stripOptions)
        let sheet = grid.sheetSize.width.multipliedClamped(by: grid.sheetSize.height).multipliedClamped(by: 4)
        let keepsImages = settings.formats.contains(.bif) || settings.html
        return MemoryEstimate(request: request, layout: layout, fused: true) { strip in
            sheet.multipliedClamped(by: 2).addingClamped(keepsImages ? strip / 4 : 0)
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

    /// Sheet by sheet, so that besides the strip only one sheet's pixels are held at a time
    /// (a three-hour film has a dozen 23 MB sheets); the indexes come last.
    private func write(_ target: SpriteTarget, strip: some PixelRows, timing: SpriteTiming,
                       grid: SpriteGrid, accuracy: Accuracy) throws {
        let formats = Set(settings.formats)
        let vtt = formats.contains(.vtt), jellyfin = formats.contains(.jellyfin), bif = formats.contains(.bif), html = settings.html
        let resolution = SpriteTarget.trickplayResolution(width: grid.tile.width, columns: grid.columns, rows: grid.rows)
        // On the paths' bytes, as the files in them are written: the output folder may not be UTF-8.
        if vtt { try System.createDirectories(target.vttFolder) }
        if jellyfin { try System.createDirectories(URL(fileURLWithPath: target.trickplayFolder).appendingPathComponent(resolution).path) }
        if bif || html { try System.createDirectories(target.outputFolder) }

        var bifImages: [[UInt8]] = [], pageSheets: [[UInt8]] = []
        for index in 0..<grid.sheetCount {
            // Jellyfin wants every sheet at the grid's full size; players reading the WebVTT track
            // take any size, so without Jellyfin the last sheet holds only the rows it uses.
            let sheet = grid.sheet(index, from: strip, padded: jellyfin)
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
                    if html { pageSheets.append(try Self.pngBytes(sheet)) }
                }
            }
            if jellyfin {
                try StripWriter.writeAtomically(jpeg!, to: target.trickplaySheet(index, width: grid.tile.width, columns: grid.columns, rows: grid.rows))
            }
            if bif {
                for thumbnail in grid.thumbnails(onSheet: index) {
                    bifImages.append(try ImageEncoder.jpeg(sheet.cropped(to: grid.rectangle(ofThumbnail: thumbnail)), quality: settings.jpegQuality,
                                                           subsampledChroma: true))
                }
            }
        }

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
    }

    /// PNG bytes for the HTML page, through the streaming writer and a scratch file.
    private static func pngBytes(_ image: Image) throws -> [UInt8] {
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
                if case .width(let width) = settings.size {
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
