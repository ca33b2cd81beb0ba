import Foundation

/// Why a file cannot be used as a video, phrased for a one-line message that names the file.
public struct MediaError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        case fileNotFound
        case isDirectory
        case emptyFile
        case unreadable(String)
        case notAVideo(String)
        /// The container could not be opened or analysed.
        case unreadableContainer(FFmpegError)
        /// The file is a container filmstrip does not open (`InputPolicy.acceptedContainers`).
        case refusedContainer(name: String, longName: String)
        /// The picture is larger than `InputPolicy.maximumPixels`.
        case pictureTooLarge(width: Int, height: Int, limit: Int)
        /// The deadline (`InputPolicy.setTimeout`) passed.
        case timedOut(seconds: Int)
        case noVideoStream
        case unsupportedCodec(String)
        case noFrames
        case zeroDuration
        case nothingDecodes
        /// Frames decode, but none from the keyframe before a thumbnail's time up to it.
        case noFrameNear(seconds: Double)
        /// The first frame does not decode; the decoder's last complaint.
        case firstFrameFails(FFmpegError)
        case ffmpeg(FFmpegError)

        public var description: String {
            switch self {
            case .fileNotFound: "no such file"
            case .isDirectory: "is a directory, not a video file"
            case .emptyFile: "file is empty"
            case .unreadable(let why): "cannot be read (\(why))"
            case .notAVideo(let why): "not a video file FFmpeg can read (\(why))"
            case .noVideoStream: "has no video stream (audio-only or data-only file)"
            case .unreadableContainer(let error): "not a video file FFmpeg can read: \(error.explained)"
            case .refusedContainer(let name, let longName):
                "is a '\(name)' file (\(longName)), which filmstrip does not open: it reads only video files "
                    + "(\(InputPolicy.acceptedContainers.joined(separator: ", "))), not playlists, image sequences, devices or raw data"
            case .pictureTooLarge(let width, let height, let limit):
                "picture of \(width)x\(height) exceeds the limit of \(limit) pixels (raise it with --max-pixels)"
            case .timedOut(let seconds): "gave up after \(seconds) s (--timeout): reading and decoding it took too long"
            case .unsupportedCodec("none"): "no video codec is named in the stream's header (damaged header)"
            case .unsupportedCodec(let name): "video codec '\(name)' has no decoder in this FFmpeg build"
            case .noFrames: "video stream has no frames"
            case .zeroDuration: "video stream has zero duration"
            case .nothingDecodes: "no frame of the video stream could be decoded (corrupt or truncated data)"
            case .noFrameNear(let seconds):
                "no frame near \(String(format: "%.3f", seconds)) s could be decoded (the data there is damaged or missing)"
            case .firstFrameFails(let error): "the first frame cannot be decoded: \(error.explained)"
            case .ffmpeg(let error): error.explained
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
