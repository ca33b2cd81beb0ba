import CFFmpeg

/// Reads each packet's place in display order from its own bytes, for containers that give no
/// presentation times (AVI, raw elementary streams): libavcodec's parser decodes the slice
/// headers (no pictures) and reports what the decoder will do with the frame.
///
/// H.264 and HEVC carry it as the picture order count (POC), which the decoder sorts by; it
/// starts again at every IDR picture. MPEG-4 Part 2 (and MPEG-1/2) carry only the picture
/// type: a B-picture is shown as it is decoded, any other picture when the next non-B one
/// arrives. Either way the display order of an open GOP's leading pictures (decoded after
/// their keyframe, shown before it) comes out right, which counting frames from the keyframe
/// in decode order does not.
///
/// It also says which pictures are keyframes (H.264: IDR or a recovery point; HEVC: IRAP),
/// where AVI's index may flag every chunk. Kept by reference, as `PacketTimeFixes`, so that
/// reading a borrowed `InputFile` advances it; each `InputFile` has its own and uses it on one
/// thread at a time.
final class PictureOrderParser {
    /// What the parser read from one packet.
    enum Mark: Sendable, Equatable {
        /// The picture order count (H.264, HEVC): display order within one coded sequence.
        case pictureOrderCount(Int32)
        /// A B-picture, shown as soon as it is decoded (MPEG-4 Part 2, MPEG-1/2).
        case bidirectional
        /// Any other picture, shown when the next non-B picture arrives.
        case reference
    }

    private let parser: UnsafeMutablePointer<AVCodecParserContext>
    private let codecContext: UnsafeMutablePointer<AVCodecContext>
    private let readsOrderCount: Bool

    /// A parser for the codec of `input`'s video stream; nil for codecs whose display order
    /// needs no parser here, or when FFmpeg has none.
    init?(for parameters: UnsafeMutablePointer<AVCodecParameters>) {
        let codecID = parameters.pointee.codec_id
        let readsOrderCount = codecID == AV_CODEC_ID_H264 || codecID == AV_CODEC_ID_HEVC
        guard readsOrderCount || codecID == AV_CODEC_ID_MPEG4 else { return nil }
        guard let parser = av_parser_init(Int32(codecID.rawValue)) else { return nil }
        guard let codecContext = avcodec_alloc_context3(nil) else {
            av_parser_close(parser)
            return nil
        }
        // The parameter sets given out of band (extradata) are what the parser reads first.
        _ = avcodec_parameters_to_context(codecContext, parameters)
        // The demuxer's packets are whole frames already: the parser reads, never reassembles.
        parser.pointee.flags |= filmstrip_parser_flag_complete_frames()
        self.parser = parser
        self.codecContext = codecContext
        self.readsOrderCount = readsOrderCount
    }

    deinit {
        av_parser_close(parser)
        var context: UnsafeMutablePointer<AVCodecContext>? = codecContext
        avcodec_free_context(&context)
    }

    /// The mark of the packet last read; nil when the parser could not read one (damaged or empty data).
    private(set) var lastMark: Mark?

    /// Reads `packet`'s picture: sets `lastMark`, and sets the packet's key flag to what the
    /// picture is (AVI's index may flag every chunk a keyframe, and decoding from a picture that
    /// is none draws concealment).
    func read(_ packet: borrowing Packet) {
        lastMark = mark(of: packet)
        guard lastMark != nil else { return }
        // MPEG-4 Part 2: an I-picture is a keyframe; unpacking gives a packed packet's flags to
        // both its pictures, so the B-picture split off an I-picture's packet needs its own.
        let isKeyframe: Bool? = readsOrderCount ? [0: false, 1: true][parser.pointee.key_frame]
            : parser.pointee.pict_type == Int32(bitPattern: AV_PICTURE_TYPE_I.rawValue)
        let key = filmstrip_packet_flag_key()
        switch isKeyframe {
        case true: packet.pointer.pointee.flags |= key
        case false: packet.pointer.pointee.flags &= ~key
        case nil: break
        }
    }

    private func mark(of packet: borrowing Packet) -> Mark? {
        let raw = packet.pointer.pointee
        guard let data = raw.data, raw.size > 0 else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: Int32 = 0
        parser.pointee.pict_type = Int32(bitPattern: AV_PICTURE_TYPE_NONE.rawValue)
        let nopts = filmstrip_nopts_value()
        _ = av_parser_parse2(parser, codecContext, &output, &outputSize, data, raw.size, nopts, nopts, 0)
        let type = AVPictureType(rawValue: UInt32(bitPattern: parser.pointee.pict_type))
        guard type != AV_PICTURE_TYPE_NONE else { return nil }
        if readsOrderCount { return .pictureOrderCount(parser.pointee.output_picture_number) }
        return type == AV_PICTURE_TYPE_B ? .bidirectional : .reference
    }

    /// The display order of packets whose marks are picture order counts (decode order): their
    /// indices, first shown first. Nil unless every packet has a count.
    static func displayOrder(of marks: [Mark?], keyframes: [Bool]) -> [Int]? {
        var counts: [Int32] = []
        counts.reserveCapacity(marks.count)
        for mark in marks {
            guard case .pictureOrderCount(let count) = mark else { return nil }
            counts.append(count)
        }
        guard !counts.isEmpty else { return nil }
        var order: [Int] = []
        order.reserveCapacity(counts.count)
        var sequence: [(count: Int32, index: Int)] = []
        var sequenceHighest = Int32.min
        func closeSequence() {
            order += sequence.sorted { ($0.count, $0.index) < ($1.count, $1.index) }.map(\.index)
            sequence.removeAll(keepingCapacity: true)
            sequenceHighest = Int32.min
        }
        for (index, count) in counts.enumerated() {
            // A keyframe whose count is not above every count so far starts a new coded
            // sequence (an IDR picture resets the count); an open GOP's keyframe (CRA, or
            // H.264's recovery point) goes on counting, its leading pictures below it.
            if keyframes[index], !sequence.isEmpty, count <= sequenceHighest { closeSequence() }
            sequence.append((count, index))
            sequenceHighest = max(sequenceHighest, count)
        }
        closeSequence()
        return order
    }
}
