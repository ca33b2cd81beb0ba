/// A size in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Horizontal extent in pixels.
    public var width: Int
    /// Vertical extent in pixels.
    public var height: Int

    /// A size of `width` x `height` pixels (not validated; layouts check sizes are positive).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WIDTHxHEIGHT`, e.g. `320x180`.
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in pixels; `x`, `y` are the top-left corner in strip coordinates.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge in pixels from the strip's left.
    public var x: Int
    /// Top edge in pixels from the strip's top.
    public var y: Int
    /// Extent to the right of `x`, in pixels.
    public var width: Int
    /// Extent below `y`, in pixels.
    public var height: Int

    /// A rectangle whose top-left corner is (`x`, `y`), in pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// One past the rightmost column (`x + width`), in pixels.
    public var maxX: Int { x + width }
    /// One past the bottom row (`y + height`), in pixels.
    public var maxY: Int { y + height }
    /// `(x, y) WIDTHxHEIGHT`, for messages and test failures.
    public var description: String { "(\(x), \(y)) \(width)x\(height)" }
}
