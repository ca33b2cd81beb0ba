/// The size asked for: a height or a width, the other side following the display aspect ratio.
public enum ThumbnailSize: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Thumbnails this many pixels high; the width follows the display aspect ratio.
    case height(Int)
    /// Thumbnails this many pixels wide; the height follows the display aspect ratio.
    case width(Int)

    /// 64 pixels high, the tool's default.
    public static let `default` = ThumbnailSize.height(64)

    /// Pixel size of an upright thumbnail for a video with `displayAspectRatio` (width / height).
    public func pixels(forDisplayAspectRatio ratio: Rational) -> (width: Int, height: Int) {
        switch self {
        case .height(let height): (Int(max(1, (Rational(Int64(height)) * ratio).rounded)), height)
        case .width(let width): (width, Int(max(1, (Rational(Int64(width)) / ratio).rounded)))
        }
    }

    /// The side that makes a thumbnail of `ratio` (width / height) fit in `box`: the box's
    /// width when the picture is wider than the box, else its height.
    public static func fitting(in box: PixelSize, displayAspectRatio ratio: Rational) -> ThumbnailSize {
        ratio > Rational(Int64(box.width), Int64(box.height)) ? .width(box.width) : .height(box.height)
    }

    /// `hN` or `wN`, as written in CSV rows and manifests.
    public var description: String {
        switch self {
        case .height(let value): "h\(value)"
        case .width(let value): "w\(value)"
        }
    }
}
