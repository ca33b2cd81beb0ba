import Foundation

/// Why a file cannot be used as a video, phrased for a one-line message that names the file.
public struct MediaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the file cannot be used, each case with the detail the message needs.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// No file exists at the path.
        case fileNotFound
        /// The path names a directory.
        case isDirectory
        /// The file has zero bytes.
        case emptyFile
        /// The path names something other than a regular file or a directory; what it is ("a FIFO (named pipe)").
        case notRegularFile(String)
        /// The file cannot be opened or read; the system's reason.
        case unreadable(String)
        /// FFmpeg cannot read the file as a video; FFmpeg's reason.
        case notAVideo(String)
        /// The container could not be opened or analysed.
        case unreadableContainer(FFmpegError)
        /// The file is a container filmstrip does not open (`InputPolicy.acceptedContainers`).
        case refusedContainer(name: String, longName: String)
        /// The picture is larger than the caller's `InputLimits.maximumPixels`.
        case pictureTooLarge(width: Int, height: Int, limit: Int)
        /// The deadline of the caller's `InputLimits.timeoutSeconds` passed.
        case timedOut(seconds: Int)
        /// The container holds no video stream (audio-only or data-only).
        case noVideoStream
        /// The stream's codec (named) has no decoder in this FFmpeg build; "none" when the header names none.
        case unsupportedCodec(String)
        /// The video stream has no frames.
        case noFrames
        /// The video stream's duration is zero, so there is no range to sample.
        case zeroDuration
        /// No frame of the video stream decodes (corrupt or truncated data).
        case nothingDecodes
        /// Frames decode, but none from the keyframe before a thumbnail's time up to it.
        case noFrameNear(seconds: Double)
        /// The first frame does not decode; the decoder's last complaint.
        case firstFrameFails(FFmpegError)
        /// Another FFmpeg call failed.
        case ffmpeg(FFmpegError)
        /// The process was out of memory when the data seemed to be at fault (`readAs`): FFmpeg
        /// turns some failed allocations into "invalid data" or an early end of the data.
        indirect case outOfMemory(readAs: Reason)

        /// The reason as a phrase that follows "FILE: " in a one-line message.
        public var description: String {
            switch self {
            case .fileNotFound: "no such file"
            case .isDirectory: "is a directory, not a video file"
            case .emptyFile: "file is empty"
            case .notRegularFile(let kind): "is \(kind), not a regular file"
            case .unreadable(let why): "cannot be read (\(why))"
            case .notAVideo(let why): "not a video file FFmpeg can read (\(why))"
            case .noVideoStream: "has no video stream (audio-only or data-only file)"
            // Out of memory says nothing about the file: it is named as it is, not as the file's fault.
            case .unreadableContainer(let error) where error.processOutOfMemory: error.explained
            case .firstFrameFails(let error) where error.processOutOfMemory: error.explained
            case .unreadableContainer(let error): "not a video file FFmpeg can read: \(error.explained)"
            case .refusedContainer(let name, let longName):
                "is a '\(name)' file (\(longName)), which filmstrip does not open: it reads only video files "
                    + "(\(InputPolicy.acceptedContainers.joined(separator: ", "))), not playlists, image sequences, devices or raw data"
            case .pictureTooLarge(let width, let height, let limit):
                "picture of \(width)x\(height) exceeds the limit of \(limit) pixels"
            case .timedOut(let seconds): "gave up after \(seconds) s, the time limit: reading and decoding it took too long"
            case .unsupportedCodec("none"): "no video codec is named in the stream's header (damaged header)"
            case .unsupportedCodec(let name): "video codec '\(name)' has no decoder in this FFmpeg build"
            case .noFrames: "video stream has no frames"
            case .zeroDuration: "video stream has zero duration"
            case .nothingDecodes: "no frame of the video stream could be decoded (corrupt or truncated data)"
            case .noFrameNear(let seconds):
                "no frame near \(String(format: "%.3f", seconds)) s could be decoded (the data there is damaged or missing)"
            case .firstFrameFails(let error): "the first frame cannot be decoded: \(error.explained)"
            case .ffmpeg(let error): error.explained
            case .outOfMemory(let readAs): "out of memory (the process could not allocate more; not a fault of the file; it read as: \(readAs))"
            }
        }
    }

    /// The path of the file the error is about.
    public let file: String
    /// Why the file cannot be used.
    public let reason: Reason

    /// An error saying `file` cannot be used because of `reason`; a reason that blames the
    /// data becomes `.outOfMemory(readAs:)` when the process has no memory left to speak of
    /// (not even `FFmpegError.headroomBytes`), as the ENOMEM of `FFmpegError` does.
    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason.blamesTheData && !FFmpegError.hasHeadroom() ? .outOfMemory(readAs: reason) : reason
    }

    /// `error` (an allocation that failed, say) as an error about `file`.
    static func ffmpeg(_ error: FFmpegError, file: String) -> MediaError {
        MediaError(file: file, reason: .ffmpeg(error.about(file)))
    }

    /// "FILE: reason", the one line the tool prints on standard error.
    public var description: String { "\(file): \(reason)" }
}

extension MediaError.Reason {
    /// True for the reasons that say the file's data is damaged or missing, which a failed
    /// allocation inside FFmpeg can also cause; out of memory already named is not among them.
    var blamesTheData: Bool {
        switch self {
        case .notAVideo, .noFrames, .zeroDuration, .nothingDecodes, .noFrameNear: true
        case .unreadableContainer(let error), .firstFrameFails(let error), .ffmpeg(let error):
            !error.processOutOfMemory && error.code != FFmpegError.exit
        default: false
        }
    }
}
