import CFFmpeg

/// Versions of the FFmpeg libraries filmstrip runs against (not the headers it was built with).
public enum FFmpegLibraries {
    /// Library name (libavformat, libavcodec, libswscale, libavutil) to its run-time version, `MAJOR.MINOR.MICRO`.
    public static var versions: [String: String] {
        func text(_ packed: UInt32) -> String { "\(packed >> 16).\(packed >> 8 & 0xFF).\(packed & 0xFF)" }
        return [
            "libavformat": text(avformat_version()),
            "libavcodec": text(avcodec_version()),
            "libswscale": text(swscale_version()),
            "libavutil": text(avutil_version()),
        ]
    }

    /// The FFmpeg release string, for example "5.1.8-0+deb12u1".
    public static var release: String { String(cString: av_version_info()) }
}
