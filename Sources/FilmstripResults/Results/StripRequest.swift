/// What a strip request is, whatever pipeline made it: the video, the thumbnail count and size,
/// the accuracy. The gate's tables, the hardware comparison's rankings and scalings and the
/// bounds table each group a request's configurations by it.
package struct StripRequest: Sendable, Hashable, Comparable {
    package var videoID: String
    package var thumbnailCount: Int
    package var thumbWidth: Int
    package var thumbHeight: Int
    package var accuracy: RowAccuracy

    package init(_ key: ConfigurationKey) {
        (videoID, thumbnailCount, thumbWidth, thumbHeight, accuracy) = (key.videoID, key.thumbnailCount, key.thumbWidth, key.thumbHeight, key.accuracy)
    }

    /// `h264-180p-3s ×50 114x64 exact`; a calibration row's empty parts left out.
    package var text: String {
        [videoID, "×\(thumbnailCount)", thumbWidth > 0 ? "\(thumbWidth)x\(thumbHeight)" : "", accuracy.description].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `h264-180p-3s ×50 h64 exact`: by the height asked for, as the hardware comparison names it.
    package var byHeight: String { "\(videoID) ×\(thumbnailCount) h\(thumbHeight) \(accuracy)" }

    /// By video, count, size, then accuracy.
    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.videoID, lhs.thumbnailCount, lhs.thumbWidth, lhs.thumbHeight, lhs.accuracy)
            < (rhs.videoID, rhs.thumbnailCount, rhs.thumbWidth, rhs.thumbHeight, rhs.accuracy)
    }
}
