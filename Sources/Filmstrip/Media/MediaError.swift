/// Why a file cannot be used as a video, phrased for a one-line message that names the file.
public struct MediaError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        case fileNotFound
        case isDirectory
        case emptyFile
        case unreadable(String)
        case notAVideo(String)
        case noVideoStream
        case unsupportedCodec(String)
        case noFrames
        case zeroDuration
        case nothingDecodes
        case ffmpeg(FFmpegError)

        public var description: String {
            switch self {
            case .fileNotFound: "no such file"
            case .isDirectory: "is a directory, not a video file"
            case .emptyFile: "file is empty"
            case .unreadable(let why): "cannot be read (\(why))"
            case .notAVideo(let why): "not a video file FFmpeg can read (\(why))"
            case .noVideoStream: "has no video stream (audio-only or data-only file)"
            case .unsupportedCodec(let name): "video codec '\(name)' has no decoder in this FFmpeg build"
            case .noFrames: "video stream has no frames"
            case .zeroDuration: "video stream has zero duration"
            case .nothingDecodes: "no frame of the video stream could be decoded (corrupt or truncated data)"
            case .ffmpeg(let error): "\(error.call) failed: \(error.reason)"
            }
        }
    }

    public let file: String
    public let reason: Reason

    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
