import Foundation

/// The index formats `filmstrip sprite` writes; all come from the same decoded thumbnails.
public enum SpriteFormat: String, Sendable, Hashable, CaseIterable {
    /// `NAME/sheet-K.EXT` and `NAME/thumbnails.vtt` (web players).
    case vtt
    /// `NAME.trickplay/W - CxR/K.jpg` and an HLS image playlist (Jellyfin 10.9+).
    case jellyfin
    /// `NAME.bif`, Roku's archive of one JPEG per thumbnail (Roku, Plex, Emby).
    case bif
}

/// The image format of the WebVTT track's sheets (Jellyfin and BIF are JPEG by definition).
public enum SheetImageFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG (`.jpg`), WebP (`.webp`) or PNG (`.png`) sheets.
    case jpeg, webp, png

    /// The sheet files' extension without the dot (`jpg` for JPEG).
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .webp: "webp"
        case .png: "png"
        }
    }

    /// The MIME type the HTML preview page and playlists give the sheets, e.g. "image/webp".
    public var mimeType: String { "image/\(rawValue)" }

    /// The default quality: mjpeg's 90 and libwebp's 80 are both about what servers ship.
    public var defaultQuality: Int { self == .webp ? 80 : 90 }
}

/// Everything `filmstrip sprite` was asked for, parsed once.
public struct SpriteSettings: Sendable, Hashable {
    /// How far apart the cues are: a fixed interval or a count over the whole video.
    public var spacing: SpriteSpacing
    /// Tiles across one sheet.
    public var columns: Int
    /// Tiles down one sheet.
    public var rows: Int
    /// The tiles' widths or heights in pixels, one track per size (the other side follows the
    /// display aspect ratio); every size is scaled from the same decoded frames.
    public var sizes: [ThumbnailSize]
    /// The first size; setting it makes it the only one.
    public var size: ThumbnailSize {
        get { sizes[0] }
        set { sizes = [newValue] }
    }
    /// nil: tolerance of half the interval.
    public var accuracy: Accuracy?
    /// The index formats to write, each from the same decoded tiles.
    public var formats: [SpriteFormat]
    /// The image format of the WebVTT track's sheets.
    public var image: SheetImageFormat
    /// nil: the image format's default.
    public var quality: Int?
    /// Also write `NAME.html`, a page that previews the WebVTT track.
    public var html: Bool
    /// Extraction workers for one file (nil: one per core).
    public var workers: Int?
    /// The largest picture, and the time one video's probe and decoding may take together.
    public var limits: InputLimits

    /// Settings with the tool's defaults: a tile every 10 s, 10 × 10 tiles of 320 px wide per sheet, WebVTT with JPEG
    /// sheets.
    public init(spacing: SpriteSpacing = .interval(milliseconds: 10_000), columns: Int = 10, rows: Int = 10,
                size: ThumbnailSize = .width(320), moreSizes: [ThumbnailSize] = [], accuracy: Accuracy? = nil, formats: [SpriteFormat] = [.vtt],
                image: SheetImageFormat = .jpeg, quality: Int? = nil, html: Bool = false, workers: Int? = nil,
                limits: InputLimits = InputLimits()) {
        self.spacing = spacing
        self.columns = columns
        self.rows = rows
        self.sizes = [size] + moreSizes.filter { $0 != size }
        self.accuracy = accuracy
        self.formats = formats
        self.image = image
        self.quality = quality
        self.html = html
        self.workers = workers
        self.limits = limits
    }

    var imageQuality: Int { quality ?? image.defaultQuality }

    /// The settings that shape the WebVTT track, written in its NOTE block, so a later run
    /// with other settings does not take the old track for its own.
    var stamp: String {
        let spacing: String
        switch self.spacing {
        case .interval(let milliseconds): spacing = "interval=\(milliseconds)ms"
        case .count(let count): spacing = "count=\(count)"
        }
        return "filmstrip sprite \(spacing) tile=\(columns)x\(rows) size=\(size) accuracy=\(accuracy.map { "\($0)" } ?? "half-interval") image=\(image.rawValue) quality=\(imageQuality)"
    }
    var jpegQuality: Int { image == .jpeg ? imageQuality : quality ?? SheetImageFormat.jpeg.defaultQuality }

    /// The targets of `target`'s tracks, one per size: with one size, `target` itself; with
    /// several, the WebVTT folder, the BIF and the page get the size in their names
    /// (`NAME-w320/`, `NAME-h180.bif`), while Jellyfin's folder names each size itself.
    public func sizedTargets(of target: SpriteTarget) -> [(size: ThumbnailSize, target: SpriteTarget)] {
        guard sizes.count > 1 else { return [(size, target)] }
        return sizes.map { size in
            switch size {
            case .width(let pixels): (size, target.sized("-w\(pixels)"))
            case .height(let pixels): (size, target.sized("-h\(pixels)"))
            }
        }
    }
}

/// One video of a library and where its outputs go.
public struct SpriteTarget: Sendable, Hashable {
    /// The video's path.
    public let input: String
    /// The folder the outputs go in (the output folder, plus the video's folder relative to the input folder it was found in).
    public let outputFolder: String
    /// The video's file name without its extension.
    public let name: String
    /// The path relative to the input argument it was found under: the same on every host, whatever the mount point.
    public let shardKey: String
    /// Added to `name` in the WebVTT folder's, the BIF's and the page's names when a run makes
    /// several sizes (`SpriteSettings.sizedTargets(of:)`); Jellyfin's names carry the width anyway.
    public private(set) var sizeSuffix = ""

    /// A target for the video at `input`, writing under `outputFolder` with file names from `name`.
    public init(input: String, outputFolder: String, name: String, shardKey: String) {
        self.input = input
        self.outputFolder = outputFolder
        self.name = name
        self.shardKey = shardKey
    }

    func path(_ component: String) -> String { URL(fileURLWithPath: outputFolder).appendingPathComponent(component).path }

    /// This target with `suffix` added to the names of its size's own outputs.
    func sized(_ suffix: String) -> SpriteTarget {
        var target = self
        target.sizeSuffix = suffix
        return target
    }

    /// The name of the WebVTT folder, the BIF and the page.
    var sizedName: String { name + sizeSuffix }

    /// Folder of the WebVTT track's sheets and index: `OUTPUT/NAME`.
    public var vttFolder: String { path(sizedName) }
    /// Path of the WebVTT index, `OUTPUT/NAME/thumbnails.vtt`.
    public var vttIndex: String { path("\(sizedName)/thumbnails.vtt") }
    /// Path of WebVTT sheet `sheet` (from 0) in `image` format: `OUTPUT/NAME/sheet-K.EXT`.
    public func vttSheet(_ sheet: Int, image: SheetImageFormat) -> String { path("\(sizedName)/\(Self.vttSheetName(sheet, image: image))") }
    static func vttSheetName(_ sheet: Int, image: SheetImageFormat) -> String { "sheet-\(sheet).\(image.fileExtension)" }

    /// Jellyfin's trickplay folder, `OUTPUT/NAME.trickplay`.
    public var trickplayFolder: String { path("\(name).trickplay") }
    /// Jellyfin's folder for one resolution: `W - CxR` (thumbnail width, tiles across × down).
    public static func trickplayResolution(width: Int, columns: Int, rows: Int) -> String { "\(width) - \(columns)x\(rows)" }
    /// Path of Jellyfin tile sheet `sheet` (from 0): `OUTPUT/NAME.trickplay/W - CxR/K.jpg`.
    public func trickplaySheet(_ sheet: Int, width: Int, columns: Int, rows: Int) -> String {
        path("\(name).trickplay/\(Self.trickplayResolution(width: width, columns: columns, rows: rows))/\(sheet).jpg")
    }
    /// Beside the resolution's folder, not in it: Jellyfin counts the files in that folder when it imports tiles.
    public func trickplayPlaylist(width: Int, columns: Int, rows: Int) -> String {
        path("\(name).trickplay/\(Self.trickplayResolution(width: width, columns: columns, rows: rows)).m3u8")
    }

    /// What the target writes straight into its output folder for `formats` (and the page):
    /// files, and the folders the rest of its files go in.
    public func outputPaths(formats: [SpriteFormat], html: Bool) -> [String] {
        formats.map { format in
            switch format {
            case .vtt: vttFolder
            case .jellyfin: trickplayFolder
            case .bif: bif
            }
        } + (html ? [self.html] : [])
    }

    /// Path of the Roku BIF archive, `OUTPUT/NAME.bif`.
    public var bif: String { path("\(sizedName).bif") }
    /// Path of the HTML preview page, `OUTPUT/NAME.html`.
    public var html: String { path("\(sizedName).html") }
}
