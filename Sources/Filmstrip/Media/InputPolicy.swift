import CFFmpeg
import Foundation

/// What FFmpeg may do with a file filmstrip is given, which may come from a stranger.
///
/// FFmpeg opens a path as a URL with every protocol and demuxer enabled: a file named
/// `concat:a.ts|b.ts` or `pipe:0` reads other files or standard input, and a playlist named
/// `x.mp4` reads whatever it lists (other users' uploads on a server) or loops forever.
/// filmstrip therefore opens `file:` plus the absolute path, allows the `file` protocol alone
/// (nested opens inherit that), allows only the demuxers of video files, and gives every
/// blocking call an interrupt callback that stops it at the deadline of the caller's
/// `InputLimits`.
public enum InputPolicy {
    /// Demuxers (FFmpeg's short names) of files that hold video: MP4/MOV/3GP, Matroska/WebM,
    /// MPEG-TS (M2TS too), MPEG-PS, AVI, FLV, Ogg, ASF (WMV), MXF, IVF, and elementary
    /// streams of H.264, HEVC, MPEG-1/2, MPEG-4 part 2 and AV1; and the common audio files
    /// (WAV, MP3, FLAC, AAC), so that they get "has no video stream". Left out on purpose:
    /// playlists and manifests (hls, dash, concat, ffconcat), image sequences and single
    /// images (image2, *_pipe), devices, network and raw-data demuxers (rawvideo, data,
    /// tty, subfile), which read other files, wait on something, or take any bytes as pictures.
    public static let acceptedContainers = [
        "mov", "matroska", "mpegts", "mpeg", "avi", "flv", "ogg", "asf", "mxf", "ivf",
        "h264", "hevc", "mpegvideo", "m4v", "obu",
        "wav", "mp3", "flac", "aac",
    ]

    /// Single still images, which the tests and the sprite benchmark read back as FFmpeg
    /// decodes them (the outside reference for written strips and sheets); never accepted
    /// from the command line. `image2` is how FFmpeg names a lone `.jpg` it recognises by
    /// its extension; the protocol whitelist still keeps it to that one file.
    public static let stillImageContainers = ["png_pipe", "jpeg_pipe", "webp_pipe", "image2"]

    /// The FFmpeg URL that opens exactly the file at `path`: the `file:` protocol with the
    /// absolute path, so no part of a file's name is read as a protocol or option.
    static func url(forFileAt path: String) -> String {
        if path.hasPrefix("/") { return "file:" + path }
        return "file:" + FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The options every `avformat_open_input` and `avformat_find_stream_info` of an input gets.
    static func openOptions(containers: [String]) -> OpaquePointer? {
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "format_whitelist", containers.joined(separator: ","), 0)
        return options
    }

    /// The container FFmpeg detects at `url` when it is not one of `acceptedContainers`; nil
    /// when it is accepted or nothing is detected. Called only after an open failed, to say why.
    static func refusedContainer(at url: String, accepted: [String], deadline: InputDeadline) -> (name: String, longName: String)? {
        var callback = deadline.interruptCallback
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        var io: UnsafeMutablePointer<AVIOContext>?
        let opened = FileSystemName.withCString(url) { avio_open2(&io, $0, AVIO_FLAG_READ, &callback, &options) }
        av_dict_free(&options)
        guard opened >= 0, let io else { return nil }
        defer { var toClose: UnsafeMutablePointer<AVIOContext>? = io; avio_closep(&toClose) }
        var format: UnsafePointer<AVInputFormat>?
        let probed = FileSystemName.withCString(url) { av_probe_input_buffer2(io, &format, $0, nil, 0, 0) }
        guard probed >= 0, let format else { return nil }
        let name = String(cString: format.pointee.name)
        let names = name.split(separator: ",").map(String.init)
        guard !names.contains(where: accepted.contains) else { return nil }
        return (name, format.pointee.long_name.map { String(cString: $0) } ?? name)
    }
}
