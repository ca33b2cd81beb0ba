/// Real tools doing the same job (or its floor) on the same videos, timed as whole processes.
/// The names are the `pipeline` of their `peer` rows; how each is run is `FilmstripBench`'s
/// (`Peers/Peer.swift`).
package enum Peer: String, Sendable, CaseIterable, Codable {
    /// ffmpeg CLI, frames evenly spread by the fps filter, scaled and tiled into one image.
    case ffmpegExact = "ffmpeg-exact"
    /// ffmpeg CLI decoding keyframes only (`-skip_frame nokey`), scaled and tiled.
    case ffmpegKeyframes = "ffmpeg-keyframes"
    /// ffmpegthumbnailer, one process per thumbnail, as a script around it would run.
    case ffmpegthumbnailer = "ffmpegthumbnailer"
    /// Decode floor: ffmpeg decoding every frame to nowhere.
    case decodeAll = "ffmpeg-decode-all"
    /// Decode floor in keyframe mode: ffmpeg decoding keyframes only to nowhere.
    case decodeKeyframes = "ffmpeg-decode-keyframes"
    /// filmstrip's own `filmstrip strip` as a whole process, so it is timed exactly like the
    /// others (start-up, probing and PNG writing included); the pipeline comes from the configuration.
    case filmstrip = "filmstrip-cli"
}
