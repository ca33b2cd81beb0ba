/// An 8-bit RGBA colour, in the byte order of `Image`.
public struct RGBAColor: Sendable, Hashable {
    /// Red intensity, 0–255.
    public var red: UInt8
    /// Green intensity, 0–255.
    public var green: UInt8
    /// Blue intensity, 0–255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) to 255 (opaque); not premultiplied into the colour bytes.
    public var alpha: UInt8

    /// A colour from its four 8-bit channels; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black, the default strip background.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Fully transparent (all four bytes zero), for strips written as PNG with alpha.
    public static let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The four bytes as one little-endian word, so one 32-bit store writes a pixel in memory order.
    var word: UInt32 { UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24 }
}
