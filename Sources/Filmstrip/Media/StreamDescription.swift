import Foundation
import CFFmpeg

/// What the container header and FFmpeg's stream analysis say about the video stream:
/// everything in a `VideoProbe` that does not come from reading the packets.
///
/// A plain value, so it can be made on one thread and used on another.
struct StreamDescription: Sendable {
    var streamIndex: Int32
    var container: String
    var containerLongName: String
    var codec: String
    var codecLongName: String
    var hasDecoder: Bool
    var pixelFormat: String
    var width: Int
    var height: Int
    var sampleAspectRatio: Rational
    /// Clockwise rotation (0, 90, 180 or 270) a player applies from the display matrix.
    var rotationDegrees: Int
    var timeBase: Rational
    var frameRate: Rational
    /// The frame count the container promises (MP4's sample table, as far as the edit list
    /// presents it), 0 when it does not say.
    var promisedFrames: Int
    /// Frames the decoder holds back to reorder (`video_delay`: B-frames), 0 when it reorders none.
    var reorderDepth: Int
    var bitRate: Int?
    /// The container's duration in microseconds (`AV_TIME_BASE`), 0 or less when unknown. MP4's
    /// and Matroska's count from time 0, not from the first frame (`VideoProbe.dataEndsEarly`).
    var containerDuration: Int64
    /// The codec's out-of-band setup (`extradata`: parameter sets, sequence headers), as stream
    /// analysis completed it. In a transport stream it is found only in the packets, perhaps
    /// only in the first keyframe's, so decoders of a file opened without analysis need it from here.
    var codecSetup: Data

    init(input: borrowing InputFile) {
        let stream = input.stream.pointee
        let parameters = stream.codecpar.pointee
        let rotation = filmstrip_stream_rotation(input.stream)
        // FFmpeg reports counter-clockwise degrees; players turn the picture clockwise by the negation.
        let clockwise = rotation.isNaN ? 0 : (Int((-rotation).rounded()) % 360 + 360) % 360
        let averageRate = stream.avg_frame_rate.den > 0 && stream.avg_frame_rate.num > 0 ? stream.avg_frame_rate : stream.r_frame_rate

        streamIndex = input.streamIndex
        container = input.containerName
        containerLongName = input.containerLongName
        codec = String(cString: avcodec_get_name(parameters.codec_id))
        codecLongName = avcodec_descriptor_get(parameters.codec_id).flatMap { $0.pointee.long_name.map { String(cString: $0) } } ?? codec
        hasDecoder = avcodec_find_decoder(parameters.codec_id) != nil
        pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) } ?? "unknown"
        width = Int(parameters.width)
        height = Int(parameters.height)
        sampleAspectRatio = parameters.sample_aspect_ratio.num > 0 && parameters.sample_aspect_ratio.den > 0
            ? Rational(Int64(parameters.sample_aspect_ratio.num), Int64(parameters.sample_aspect_ratio.den)) : Rational(1)
        rotationDegrees = (clockwise + 45) / 90 * 90 % 360
        timeBase = input.timeBase
        frameRate = averageRate.den > 0 && averageRate.num > 0 ? Rational(Int64(averageRate.num), Int64(averageRate.den)) : Rational(25)
        // MP4's frame count is its sample table's; an edit list that presents part of the media
        // (a cut, 10 s of 20 s) leaves the samples outside it out of the demuxer's index, and
        // only the index's packets are read. A truncated file's index still lists every sample.
        let indexed = input.indexEntryCount
        reorderDepth = Int(parameters.video_delay)
        // AVI's header counts its length in ticks of the stream's rate, which a stream copy of a
        // raw stream sets to twice the frame rate (one frame per two ticks): no frame count. Its
        // duration still shows a truncated file.
        promisedFrames = input.containerName == InputFile.aviDemuxerName ? 0
            : input.containerName == InputFile.mp4DemuxerName && indexed > 0
            ? min(Int(stream.nb_frames), indexed) : Int(stream.nb_frames)
        bitRate = input.context.pointee.bit_rate > 0 ? Int(input.context.pointee.bit_rate) : nil
        containerDuration = input.context.pointee.duration
        codecSetup = parameters.extradata.map { Data(bytes: $0, count: Int(max(0, parameters.extradata_size))) } ?? Data()
    }
}
