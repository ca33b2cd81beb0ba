import CFFmpeg

extension Scaler {
    /// `image` scaled to `width` × `height` RGBA pixels with this scaler's filter: `sprite`
    /// makes every further tile size from the tiles it decoded once, at the largest size.
    mutating func resized(_ image: Image, width: Int, height: Int) throws(FFmpegError) -> Image {
        var target = Image(width: width, height: height)
        context = sws_getCachedContext(context, Int32(image.width), Int32(image.height), AV_PIX_FMT_RGBA,
                                       Int32(width), Int32(height), AV_PIX_FMT_RGBA, filter.swsFlags | SWS_ACCURATE_RND, nil, nil, nil)
        guard let context else { throw FFmpegError(code: filmstrip_averror(EINVAL), call: "sws_getCachedContext") }
        let rows = image.pixels.withUnsafeBytes { source in
            target.pixels.withUnsafeMutableBytes { destination in
                let sourcePlanes: [UnsafePointer<UInt8>?] = [source.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
                let targetPlanes: [UnsafeMutablePointer<UInt8>?] = [destination.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
                return sws_scale(context, sourcePlanes, [Int32(image.bytesPerRow), 0, 0, 0], 0, Int32(image.height),
                                 targetPlanes, [Int32(target.bytesPerRow), 0, 0, 0])
            }
        }
        try FFmpegError.check(rows, "sws_scale")
        return target
    }
}
