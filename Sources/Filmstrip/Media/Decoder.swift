import Foundation
import CFFmpeg

/// Which frames the decoder may skip, mirroring `AVCodecContext.skip_frame`.
public enum FrameSkipping: String, Sendable, Codable, CaseIterable {
    /// Decode everything.
    case none
    /// Skip frames no other frame references (B-frames that are not targets).
    case nonReference
    /// Decode keyframes only.
    case nonKeyframes

    var discard: AVDiscard {
        switch self {
        case .none: AVDISCARD_DEFAULT
        case .nonReference: AVDISCARD_NONREF
        case .nonKeyframes: AVDISCARD_NONKEY
        }
    }
}

/// Decoder settings that every extractor takes and the benchmark records.
public struct DecoderOptions: Hashable, Sendable, Codable {
    /// Codec threads; 0 lets FFmpeg choose (one per core).
    public var threads: Int
    /// Skip the in-loop deblocking filter (faster, slightly blockier; the CSV names it).
    public var skipLoopFilter: Bool

    /// Decoder settings; by default one codec thread and the in-loop filter kept.
    public init(threads: Int = 1, skipLoopFilter: Bool = false) {
        self.threads = threads
        self.skipLoopFilter = skipLoopFilter
    }
}

/// Owns an opened `AVCodecContext` for the input's video stream.
public struct Decoder: ~Copyable {
    let context: UnsafeMutablePointer<AVCodecContext>
    let path: String

    /// Opens a decoder for `input`'s video stream with `options`; throws `MediaError` when no decoder exists for the
    /// codec or FFmpeg cannot open it.
    ///
    /// - Parameter input: the opened file whose video stream is decoded.
    /// - Parameter options: decoder threads and loop-filter skipping.
    /// - Parameter codecSetup: the codec's parameter sets as stream analysis found them, used when
    ///   `input` was opened without analysis and its header carries none (a transport stream's
    ///   HEVC, whose parameter sets may come only with the first keyframe: a decoder starting at
    ///   a later keyframe would otherwise make garbage of every frame).
    public init(for input: borrowing InputFile, options: DecoderOptions = DecoderOptions(), codecSetup: Data? = nil) throws(MediaError) {
        let parameters = input.codecParameters
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw MediaError(file: input.path, reason: .unsupportedCodec(name))
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw MediaError(file: input.path, reason: .ffmpeg(.outOfMemory(in: "avcodec_alloc_context3", file: input.path)))
        }
        func fail(_ error: FFmpegError) -> MediaError {
            var toFree: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&toFree)
            return MediaError(file: input.path, reason: .ffmpeg(error))
        }
        func fail(_ code: Int32, _ call: String) -> MediaError { fail(FFmpegError(code: code, call: call, file: input.path)) }
        let copied = avcodec_parameters_to_context(context, parameters)
        if copied < 0 { throw fail(copied, "avcodec_parameters_to_context") }
        if context.pointee.extradata == nil || context.pointee.extradata_size == 0, let codecSetup, !codecSetup.isEmpty {
            // libavcodec reads extradata with padding past its end, zeroed, and frees it with the context.
            guard let bytes = av_mallocz(codecSetup.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                throw fail(.outOfMemory(in: "av_mallocz", file: input.path))
            }
            codecSetup.copyBytes(to: bytes.assumingMemoryBound(to: UInt8.self), count: codecSetup.count)
            context.pointee.extradata = bytes.assumingMemoryBound(to: UInt8.self)
            context.pointee.extradata_size = Int32(codecSetup.count)
        }
        context.pointee.pkt_timebase = input.stream.pointee.time_base
        context.pointee.thread_count = Int32(options.threads)
        if options.skipLoopFilter { context.pointee.skip_loop_filter = AVDISCARD_ALL }
        // Pictures larger than the limit fail in the decoder before their buffers are allocated.
        context.pointee.max_pixels = Int64(input.limits.maximumPixels)
        let opened = avcodec_open2(context, codec, nil)
        if opened < 0 { throw fail(opened, "avcodec_open2") }
        self.context = context
        self.path = input.path
    }

    deinit {
        var toFree: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&toFree)
    }

    /// Frames the decoder skips from now on (may change between packets).
    public var skipping: FrameSkipping {
        get { FrameSkipping.allCases.first { $0.discard == context.pointee.skip_frame } ?? .none }
        nonmutating set { context.pointee.skip_frame = newValue.discard }
    }

    /// What happened to a packet sent to the decoder.
    public enum SendOutcome: Equatable, Sendable {
        /// The decoder took the packet (or had already reached the end of the stream).
        case accepted
        /// The decoder holds frames that must be received before it takes more input.
        case full
        /// The packet was damaged and dropped; decoding can go on with the next packet.
        case damaged(Int32)
    }

    /// Sends one compressed packet to the decoder (`avcodec_send_packet`); the packet is not consumed and can be
    /// reused.
    public func send(_ packet: borrowing Packet) -> SendOutcome {
        outcome(of: avcodec_send_packet(context, packet.pointer))
    }

    /// Tells the decoder no more packets follow, so it releases the frames it holds back.
    public func sendEndOfStream() {
        _ = avcodec_send_packet(context, nil)
    }

    private func outcome(of result: Int32) -> SendOutcome {
        if result >= 0 || result == FFmpegError.endOfFile { return .accepted }
        if result == FFmpegError.tryAgain { return .full }
        return .damaged(result)
    }

    /// What a request for the next decoded frame returned.
    public enum ReceiveOutcome: Equatable, Sendable {
        /// A frame was written into the `Frame` passed in.
        case frame
        /// The decoder needs more packets before it can return a frame.
        case needsInput
        /// Every frame has been returned after `sendEndOfStream()`; nothing more will come.
        case endOfStream
        /// A frame failed to decode; the next receive may still succeed.
        case damaged(Int32)
    }

    /// Takes the next decoded frame (`avcodec_receive_frame`) into `frame`, replacing the buffers it held.
    public func receive(into frame: inout Frame) -> ReceiveOutcome {
        frame.unreference()
        let result = avcodec_receive_frame(context, frame.pointer)
        if result >= 0 { return .frame }
        if result == FFmpegError.tryAgain { return .needsInput }
        if result == FFmpegError.endOfFile { return .endOfStream }
        return .damaged(result)
    }

    /// Drops every buffered frame; call after seeking.
    public func flush() { avcodec_flush_buffers(context) }
}
