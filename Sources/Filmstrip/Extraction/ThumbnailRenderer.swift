/// Scales decoded frames to the request's thumbnail size and turns them upright.
///
/// One per worker: it owns the worker's single `Scaler`, reused for every thumbnail.
struct ThumbnailRenderer: ~Copyable {
    private var scaler: Scaler
    /// Upright size of every thumbnail.
    let width: Int
    let height: Int
    let rotationDegrees: Int

    init(request: ExtractionRequest) {
        scaler = Scaler(filter: request.options.filter)
        (width, height) = request.thumbnailPixels
        rotationDegrees = request.probe.rotationDegrees
    }

    /// Size of the scaled frame before rotation (coded orientation).
    private var scaledSize: (width: Int, height: Int) { rotationDegrees % 180 == 0 ? (width, height) : (height, width) }

    /// Scales `frame` straight into slot `slot` of `canvas`; rotated videos go through a
    /// small upright thumbnail first, since swscale cannot rotate.
    mutating func render(_ frame: borrowing Frame, into canvas: StripCanvas, slot: Int) throws(FFmpegError) {
        guard rotationDegrees == 0 else {
            canvas.place(try render(frame), inSlot: slot)
            return
        }
        try scaler.scale(frame, into: canvas.origin(ofSlot: slot), bytesPerRow: canvas.bytesPerRow, width: width, height: height,
                         format: canvas.pixelFormat)
    }

    mutating func render(_ frame: borrowing Frame) throws(FFmpegError) -> Image {
        // Room for the thumbnail and, rotated, its upright copy: a Swift array that cannot be
        // had would end the process; this way the video fails with out of memory.
        do {
            try Image.checkRoom(width: scaledSize.width, height: scaledSize.height * (rotationDegrees == 0 ? 1 : 2), for: "a thumbnail's pixels")
        } catch {
            throw .outOfMemory(in: "allocating a thumbnail's pixels")
        }
        var image = Image(width: scaledSize.width, height: scaledSize.height)
        try scaler.scale(frame, into: &image)
        return rotationDegrees == 0 ? image : image.rotated(clockwise: rotationDegrees)
    }
}
