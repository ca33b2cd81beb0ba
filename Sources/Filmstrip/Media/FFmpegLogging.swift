import CFFmpeg
import Foundation

/// FFmpeg logs every damaged packet to stderr; filmstrip reports errors itself, so the
/// library's own log is silenced unless `FILMSTRIP_FFMPEG_LOG` names a level
/// (quiet, error, warning, info, verbose, debug).
enum FFmpegLogging {
    static let configured: Void = {
        let level: Int32 = switch ProcessInfo.processInfo.environment["FILMSTRIP_FFMPEG_LOG"] {
        case "error": AV_LOG_ERROR
        case "warning": AV_LOG_WARNING
        case "info": AV_LOG_INFO
        case "verbose": AV_LOG_VERBOSE
        case "debug": AV_LOG_DEBUG
        default: AV_LOG_QUIET
        }
        av_log_set_level(level)
    }()

    static func configure() { _ = configured }
}
