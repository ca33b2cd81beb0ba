/// Darkening of everything outside a selected range of strip columns, as a trimming
/// slider shows the part of the clip that will be cut away.
///
/// Pixels (thumbnails and background alike) in columns outside
/// `selectedFromX..<selectedToX` get R, G and B replaced by
/// `(c * factor256 + 128) >> 8`; alpha is never changed. The factor is an integer
/// number of 256ths so that every composer, scalar, SIMD or C, computes the same bytes;
/// the rounding term makes 256 the identity and keeps every intermediate below 2^16.
public struct Dimming: Sendable, Hashable {
    /// 60 %: 153/256 ≈ 0.598.
    public static let defaultFactor256 = 153

    /// First selected (undimmed) column, in strip pixels.
    public var selectedFromX: Int
    /// One past the last selected column, in strip pixels.
    public var selectedToX: Int
    /// Brightness kept outside the selection, in 256ths (0...256).
    public var factor256: Int

    /// Dims strip columns outside `selectedFromX..<selectedToX` (strip pixels) to `factor256`/256 of their brightness.
    public init(selectedFromX: Int, selectedToX: Int, factor256: Int = Dimming.defaultFactor256) {
        self.selectedFromX = selectedFromX
        self.selectedToX = selectedToX
        self.factor256 = factor256
    }

    /// The one dimming formula every composer must reproduce bit for bit.
    @inline(__always)
    public static func dim(_ channel: UInt8, factor256: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(channel) &* factor256 &+ 128) &>> 8)
    }
}

extension StripLayout {
    /// The strip columns that show a selected time range, for a one-row strip.
    ///
    /// Thumbnail `i` stands for the times `thumbnailStarts[i]..<thumbnailStarts[i + 1]`
    /// (the last one up to `end`), spread linearly over its destination's columns. A time
    /// before the first start maps to column 0, a time at or after `end` to `width`; a
    /// boundary that falls on a thumbnail's start maps to that thumbnail's left edge, so
    /// the gap before it belongs to the earlier side.
    /// - Parameters:
    ///   - selection: the selected times, in seconds.
    ///   - thumbnailStarts: one start time per thumbnail in seconds, non-decreasing, all before `end`.
    ///   - end: the end of the last thumbnail's span, in seconds.
    /// - Returns: `selectedFromX..<selectedToX` for `Dimming`.
    public func selectedColumns(forTimes selection: Range<Rational>, thumbnailStarts: [Rational],
                                end: Rational) throws(LayoutError) -> Range<Int> {
        guard gridRows == 1 else { throw .timeSelectionNeedsSingleRow }
        guard thumbnailStarts.count == thumbnailCount else {
            throw .invalidThumbnailTimes("\(thumbnailStarts.count) start times for \(thumbnailCount) thumbnails")
        }
        for index in thumbnailStarts.indices.dropFirst() where thumbnailStarts[index] < thumbnailStarts[index - 1] {
            throw .invalidThumbnailTimes("start time \(index) is earlier than the one before it")
        }
        guard thumbnailStarts.last! < end else {
            throw .invalidThumbnailTimes("the last start time is not before the end \(end)")
        }
        return column(at: selection.lowerBound, starts: thumbnailStarts, end: end)
            ..< column(at: selection.upperBound, starts: thumbnailStarts, end: end)
    }

    /// The same layout dimmed outside a selected time range (see `selectedColumns(forTimes:thumbnailStarts:end:)`).
    public func dimmed(outsideTimes selection: Range<Rational>, thumbnailStarts: [Rational], end: Rational,
                       factor256: Int = Dimming.defaultFactor256) throws(LayoutError) -> StripLayout {
        let columns = try selectedColumns(forTimes: selection, thumbnailStarts: thumbnailStarts, end: end)
        return try with(dimming: Dimming(selectedFromX: columns.lowerBound, selectedToX: columns.upperBound,
                                         factor256: factor256))
    }

    private func column(at time: Rational, starts: [Rational], end: Rational) -> Int {
        if time <= starts[0] { return 0 }
        if time >= end { return width }
        // The last thumbnail starting at or before `time`; its span is never empty.
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= time { low = middle } else { high = middle - 1 }
        }
        let spanEnd = low + 1 < starts.count ? starts[low + 1] : end
        let fraction = (time - starts[low]) / (spanEnd - starts[low])
        let destination = destinations[low]
        return destination.x + Int((fraction * Rational(Int64(destination.width))).floor)
    }
}

extension RGBAColor {
    /// This colour with R, G, B dimmed by `Dimming.dim(_:factor256:)`; alpha is kept.
    func dimmed(factor256: Int) -> RGBAColor {
        RGBAColor(red: Dimming.dim(red, factor256: factor256), green: Dimming.dim(green, factor256: factor256),
                  blue: Dimming.dim(blue, factor256: factor256), alpha: alpha)
    }
}
