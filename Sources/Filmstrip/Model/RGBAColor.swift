/// An 8-bit RGBA colour, in the byte order of `Image`.
public struct RGBAColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    public static let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The four bytes as one little-endian word, so one 32-bit store writes a pixel in memory order.
    var word: UInt32 { UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24 }
}
