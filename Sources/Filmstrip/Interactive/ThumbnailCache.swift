/// Recent thumbnails of one video, by frame and pixel size, evicting the least recently used
/// once their pixels pass a byte budget: zooming back to a range seen before needs no decoding.
struct ThumbnailCache {
    struct Key: Hashable {
        var frameIndex: Int
        var size: PixelSize
        var rotated: Bool
    }

    struct Entry {
        var image: Image
        var actualPts: Int64
        var lastUse: Int
    }

    /// Pixel bytes kept at most; 0 turns the cache off.
    let byteBudget: Int
    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    private var clock = 0

    init(byteBudget: Int) { self.byteBudget = byteBudget }

    var count: Int { entries.count }
    var storedBytes: Int { bytes }

    mutating func image(for key: Key) -> (image: Image, actualPts: Int64)? {
        guard var entry = entries[key] else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[key] = entry
        return (entry.image, entry.actualPts)
    }

    mutating func store(_ image: Image, actualPts: Int64, for key: Key) {
        let size = image.bytesPerRow * image.height
        guard size <= byteBudget, entries[key] == nil else { return }
        clock += 1
        entries[key] = Entry(image: image, actualPts: actualPts, lastUse: clock)
        bytes += size
        // A linear scan per eviction: the cache holds hundreds of thumbnails, not millions.
        while bytes > byteBudget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= oldest.value.image.bytesPerRow * oldest.value.image.height
            entries[oldest.key] = nil
        }
    }
}
