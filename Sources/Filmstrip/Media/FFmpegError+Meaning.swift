import CFFmpeg

extension FFmpegError {
    /// What the code says happened to the file, in words about the file rather than about
    /// the machine: FFmpeg's own text for a damaged Theora header is "Operation not
    /// permitted", and for a sample size field of 2^31 "Cannot allocate memory", which reads
    /// as if the server were out of memory. The caller keeps FFmpeg's text after this.
    public var meaning: String {
        let opening = call.hasPrefix("avformat_open_input") || call.hasPrefix("avformat_find_stream_info")
        let decoding = call.hasPrefix("avcodec_")
        if processOutOfMemory { return "out of memory (the process could not allocate more; not a fault of the file)" }
        if call.hasPrefix("av_seek_frame") || call.hasPrefix("avformat_seek_file"), code != Self.exit {
            return "cannot seek in the file (damaged index or timestamps)"
        }
        switch code {
        case Self.invalidData:
            return opening ? "damaged container header, or not a video file" : decoding ? "damaged video data" : "damaged container data"
        case filmstrip_averror(ENOMEM):
            return "a size in the file claims more memory than a video needs (damaged size field, e.g. a sample that claims 2 GB)"
        case filmstrip_averror(EPERM), filmstrip_averror(EINVAL), filmstrip_averror(EDOM), filmstrip_averror(ERANGE):
            return decoding ? "damaged codec header (the decoder refuses the stream's set-up data)" : "damaged header (a value is out of range)"
        case filmstrip_averror_patchwelcome(), filmstrip_averror(ENOSYS):
            return "uses a feature FFmpeg does not implement, or damaged data that looks like one"
        case filmstrip_averror_decoder_not_found():
            return "no decoder for the video codec"
        case filmstrip_averror(EAGAIN) where call.hasPrefix("avcodec_open2"):
            return "the decoder's threads could not be started (the process's thread limit, or memory for their stacks)"
        case filmstrip_averror(EIO):
            return "read error (truncated or damaged file)"
        case Self.endOfFile:
            return "the data ends before a complete frame"
        case Self.exit:
            return "stopped at the deadline"
        case filmstrip_averror_bug():
            return "damaged data that confuses FFmpeg"
        default:
            return opening ? "FFmpeg cannot read the container" : "FFmpeg cannot read the video"
        }
    }

    /// `meaning`, then FFmpeg's call and text: "damaged codec header (FFmpeg avcodec_open2: Operation not permitted)".
    public var explained: String { "\(meaning) (FFmpeg \(call): \(reason))" }
}
