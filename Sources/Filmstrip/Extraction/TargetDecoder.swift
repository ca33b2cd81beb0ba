/// When an extractor repositions the demuxer.
enum SeekPolicy: Sendable {
    /// Seek to the target's keyframe before every target (the `sequential` strategy).
    case beforeEveryTarget
    /// Decode forward; seek only when a keyframe lies between the current position and
    /// the next target, or the target is behind (the `forward` strategy).
    case whenKeyframeAhead
    /// Never seek: one pass from the current position (the `scan` strategy).
    case never
}

/// The decoding engine every extractor shares: one input, one decoder, one scaler, walking
/// an ascending list of target frames and delivering a thumbnail for each.
///
/// Damaged data does not end the walk: a target that cannot be decoded takes the nearest
/// good frame (marked `substituted`); only a walk in which nothing decodes is an error.
struct TargetDecoder: ~Copyable {
    private var input: InputFile
    private let decoder: Decoder
    private var packet: Packet
    private var frame: Frame
    private var previous: Frame
    private var renderer: ThumbnailRenderer
    private var request: ExtractionRequest
    private let frames: FrameTable
    private var counters = DecodeCounters()
    private var endOfInput = false
    /// True while `frame` holds a decoded picture not older than the last seek.
    private var holdsFrame = false
    private var holdsPrevious = false
    private var decodedAnything = false
    /// Keyframe-only mode: one keyframe packet was sent followed by end-of-stream.
    private var drainingOneKeyframe = false
    /// Presentation times of the frames the current `run` must show: with
    /// `skipNonReferenceFrames`, every other frame that no frame refers to is not decoded.
    private var targetTimes: Set<Int64> = []
    /// Presentation times of the packets sent since the last seek while non-reference frames
    /// were skipped: where such a frame was not a target then, the decoder dropped it, and a
    /// later target at that time (the next request to a decoder kept between requests) cannot
    /// come out of this decoder's state without decoding its GOP again.
    private var skippedTimes: Set<Int64> = []
    /// The keyframe the last seek went to: decoding since then started there (nil: from the
    /// start of the stream).
    private var decodingFrom: Int64?
    /// True when `packet` holds the keyframe a confirmed seek stopped at, not yet sent.
    private var holdsLandingPacket = false
    /// The time of the lone keyframe packet being drained in keyframe-only mode: the frame
    /// that comes out is that packet's picture, whatever time the decoder guesses for it.
    private var loneKeyframeTime: Int64?
    /// Where packets carry no presentation times: the display index of the next frame the
    /// decoder outputs, counted from the keyframe decoding started at (nil until a packet is read).
    private var nextDisplayIndex: Int?
    /// Raised by whoever no longer wants the current work (an interactive request that was
    /// cancelled or superseded); checked before every packet is read, so decoding stops within
    /// one packet. Nil for the batch extractors, which stop between targets.
    var stopSignal: StopSignal?
    /// From the probe, kept apart so the per-packet path does not copy the probe.
    private let seeksByIndex: Bool
    private let timesFromDecodeOrder: Bool
    /// True when the probe gives every packet's display time (`VideoProbe.displayTimesByDecodeTime`):
    /// packets are stamped with it instead of frames being counted.
    private let stampsDisplayTimes: Bool
    private let displayTimesByDecodeTime: [Int64: Int64]
    private let displayTimesByPosition: [Int64: Int64]
    private let repeatedFrameTimes: Set<Int64>

    init(request: ExtractionRequest) throws(MediaError) {
        let input = try InputFile(path: request.path, analyzeStreams: false, limits: request.limits)
        input.followTimestampResets(request.probe.timestampResets)
        // Made before any is stored: a noncopyable value's fields may not be set on some paths only.
        let decoder = try Decoder(for: input, options: request.options.decoder, codecSetup: request.probe.codecSetup)
        let packet = try Packet.reading(request.path), frame = try Frame.decoding(request.path), previous = try Frame.decoding(request.path)
        self.decoder = decoder
        self.packet = packet
        self.frame = frame
        self.previous = previous
        self.input = input
        renderer = ThumbnailRenderer(request: request)
        self.request = request
        frames = FrameTable(probe: request.probe)
        seeksByIndex = request.probe.seeksByIndex
        timesFromDecodeOrder = request.probe.timesFromDecodeOrder
        displayTimesByDecodeTime = request.probe.displayTimesByDecodeTime
        displayTimesByPosition = request.probe.displayTimesByPosition
        repeatedFrameTimes = request.probe.repeatedFrameTimes
        stampsDisplayTimes = request.probe.timesFromDecodeOrder && !(displayTimesByDecodeTime.isEmpty && displayTimesByPosition.isEmpty)
    }

    private var keyframeOnly: Bool {
        request.options.keyframeOnlyDecoding && request.plan.accuracy == .keyframe
    }

    /// The work done so far, over every `run`.
    var workDone: DecodeCounters { counters }

    /// Delivers every target of `targets` (ascending, distinct frames). May be called again
    /// with later targets; it goes on from where the last call left the decoder.
    mutating func run(_ targets: ArraySlice<(target: SamplePlan.Target, slots: [Int])>, policy: SeekPolicy,
                      delivery: ThumbnailDelivery) throws {
        try run(targets, policy: policy) { delivery.deliver($0) }
    }

    /// Points the engine at another plan, size or probe view (rotation) of the same video,
    /// keeping its open input and decoder. Where it stands in the stream stays valid unless
    /// the walk switches between keyframe-only and full decoding, whose decoder states differ.
    mutating func retarget(_ newRequest: ExtractionRequest) {
        if newRequest.size != request.size || newRequest.probe.rotationDegrees != request.probe.rotationDegrees
            || newRequest.options.filter != request.options.filter {
            renderer = ThumbnailRenderer(request: newRequest)
        }
        let wasKeyframeOnly = keyframeOnly
        request = newRequest
        if wasKeyframeOnly != keyframeOnly {
            decoder.skipping = .none
            holdsFrame = false
            holdsPrevious = false
        }
    }

    /// As `run(_:policy:delivery:)`, handing each thumbnail to `deliver` as it is made.
    ///
    /// `alsoWanted` are the times of frames later calls will ask for (the rest of an
    /// interactive request, taken one frame per call): they are decoded on the way, not skipped.
    mutating func run(_ targets: ArraySlice<(target: SamplePlan.Target, slots: [Int])>, policy: SeekPolicy,
                      alsoWanted: Set<Int64> = [], deliver: (Thumbnail) -> Void) throws {
        if keyframeOnly { decoder.skipping = .nonKeyframes }
        targetTimes = alsoWanted.union(targets.map(\.target.framePts))
        for (target, slots) in targets {
            try Task.checkCancellation()
            let position = holdsFrame ? frame.presentationTime : nil
            let mustSeek: Bool = switch policy {
            case .beforeEveryTarget: true
            case .whenKeyframeAhead:
                position.map { $0 > target.framePts || target.keyframePts > $0 } ?? (counters.packetsRead > 0 || target.keyframePts > frames.times[0])
            case .never: false
            }
            if mustSeek { try seek(to: target.keyframePts) }
            try decode(upTo: target.framePts)
            // Decoding from the target's keyframe (sought now or for an earlier target) did not
            // bring out the target: one more try from the keyframe before. A demuxer may land
            // past the target on seek; and an open GOP's keyframe is no IDR picture, so a frame
            // after it may still name pictures from before it, and the decoder drops it (H.264,
            // 25 fps, GOP 12, 3 B-frames: the last frame of the short last GOP, "mmco: unref
            // short failure"; the ffmpeg CLI seeking there drops it too). From the keyframe
            // before, those pictures are there. A frame damaged in the file stays missing and
            // is substituted as before, at the cost of one more GOP.
            if !holdsTarget(target.framePts), let start = decodingFrom, start >= target.keyframePts,
               let earlier = FrameTable.lastIndex(in: frames.keyframes, atOrBefore: target.keyframePts - 1) {
                try seek(to: frames.keyframes[earlier])
                try decode(upTo: target.framePts)
            }
            // The target's packet went to the decoder earlier with non-reference frames skipped:
            // it may have been dropped, and then only its GOP decoded afresh brings it back.
            if !mustSeek, skippedTimes.contains(target.framePts), !holdsTarget(target.framePts) {
                try seek(to: target.keyframePts)
                try decode(upTo: target.framePts)
            }
            try self.deliver(target, slots: slots, to: deliver)
        }
    }

    private mutating func seek(to keyframePts: Int64) throws(MediaError) {
        nextDisplayIndex = nil
        if seeksByIndex {
            try input.seek(toKeyframeAtOrBefore: keyframePts)
            holdsLandingPacket = false
        } else {
            try seekConfirmed(to: keyframePts)
        }
        loneKeyframeTime = nil
        decoder.flush()
        skippedTimes.removeAll(keepingCapacity: true)
        decodingFrom = keyframePts
        counters.seeks += 1
        endOfInput = false
        drainingOneKeyframe = false
        holdsFrame = false
        holdsPrevious = false
    }

    /// Seeks where the demuxer finds packets by searching (transport and program streams, Ogg,
    /// FLV, ASF, AVI), not by an index of every packet: such a seek may land on any packet near
    /// the time asked for — after the keyframe (a search by decode times for a presentation
    /// time), or on a packet that is not a keyframe at all (a transport stream has no key
    /// flags to search by), and decoding from there makes garbage or nothing. So read on from
    /// where it lands to the keyframe's own packet (its byte position from the probe), and
    /// when it landed past it, seek again from earlier keyframes, and at last from the start.
    /// Packets before the keyframe are dropped unsent; the keyframe's is kept in `packet`.
    private mutating func seekConfirmed(to keyframePts: Int64) throws(MediaError) {
        let keyframes = request.probe.keyframes
        guard !keyframes.isEmpty else {
            try input.seek(toKeyframeAtOrBefore: keyframePts)
            holdsLandingPacket = false
            return
        }
        let index = FrameTable.lastIndex(in: keyframes, atOrBefore: keyframePts) ?? 0
        let position = request.probe.keyframePositions.indices.contains(index) ? request.probe.keyframePositions[index] : -1
        // Earlier and earlier search targets (up to three keyframes back), then the start: a
        // keyframe that cannot be found costs a few reads of a GOP, not a read of the file per keyframe.
        let attempts = [keyframePts] + (max(0, index - 3)..<index).reversed().map { keyframes[$0] } + [keyframes[0]]
        for (attempt, target) in attempts.enumerated() {
            if attempt == attempts.count - 1 {
                // The last resort is certain: a freshly opened file reads from its first packet.
                input = try InputFile(path: request.path, analyzeStreams: false, limits: request.limits)
                input.followTimestampResets(request.probe.timestampResets)
            } else if (try? input.seek(toKeyframeAtOrBefore: target)) == nil {
                continue
            }
            counters.seeks += attempt == 0 ? 0 : 1
            while try input.read(into: &packet) == .packet {
                counters.packetsRead += 1
                counters.packetBytes += packet.size
                let pts = packet.isKeyframe ? displayTime(ofKeyframe: packet) : packet.pts
                let isTheKeyframe = packet.isKeyframe
                    && (position >= 0 ? packet.position == position : pts == keyframePts)
                if isTheKeyframe {
                    holdsLandingPacket = true
                    nextDisplayIndex = frames.exactFrame(at: keyframePts)
                    return
                }
                let passed = position >= 0 ? (packet.position ?? Int64.min) > position : packet.isKeyframe && (pts ?? Int64.min) > keyframePts
                if passed { break }
            }
        }
        // Not found even from the start: decode from wherever reading stands, as before.
        holdsLandingPacket = false
    }

    /// Decodes until the held frame starts at or after `pts`, or the stream ends. Where several
    /// frames share `pts`, on to the last of them (`VideoProbe.repeatedFrameTimes`): it is left
    /// in `previous` when the frame after it is decoded to find the run's end.
    private mutating func decode(upTo pts: Int64) throws {
        while !(holdsFrame && (frame.presentationTime ?? Int64.min) >= pts) {
            guard try decodeOneMore() else { return }
        }
        while holdsFrame, frame.presentationTime == pts, repeatedFrameTimes.contains(pts) {
            guard try decodeOneMore() else { return }
        }
    }

    /// Moves the held frame to `previous` and decodes the next; false at the end of the stream.
    private mutating func decodeOneMore() throws -> Bool {
        if holdsFrame {
            try previous.reference(frame)
            holdsPrevious = true
        }
        guard try decodeNext() else {
            holdsFrame = false
            return false
        }
        holdsFrame = true
        return true
    }

    /// True when the frame to show for `pts` has been decoded: held, or in `previous` after the
    /// last of several frames sharing that time.
    private func holdsTarget(_ pts: Int64) -> Bool {
        (holdsFrame && frame.presentationTime == pts)
            || (holdsPrevious && previous.presentationTime == pts && repeatedFrameTimes.contains(pts))
    }

    /// Leaves the next good decoded frame in `frame`; false at the end of the stream.
    private mutating func decodeNext() throws -> Bool {
        while true {
            switch decoder.receive(into: &frame) {
            case .frame:
                counters.framesDecoded += 1
                if drainingOneKeyframe, let loneKeyframeTime {
                    frame.replacePresentationTime(with: loneKeyframeTime)
                    // Keyframe-only decoding reorders nothing: counting starts afresh at the next keyframe.
                    nextDisplayIndex = nil
                } else if timesFromDecodeOrder, !stampsDisplayTimes, let index = nextDisplayIndex {
                    // Decode times in the packets, so the decoder's frame times are guesses
                    // shifted by its reorder delay; frames come out in display order, so count.
                    nextDisplayIndex = index + 1
                    if index < frames.times.count { frame.replacePresentationTime(with: frames.times[index]) }
                }
                if frame.isCorrupt || frame.presentationTime == nil { counters.damagedFrames += 1; continue }
                decodedAnything = true
                return true
            case .damaged:
                counters.damagedFrames += 1
            case .endOfStream:
                guard drainingOneKeyframe else { return false }
                // The lone keyframe is out; reset the decoder so the next keyframe packet starts afresh.
                decoder.flush()
                drainingOneKeyframe = false
            case .needsInput:
                if endOfInput { return false }
                if let stopSignal, stopSignal.isRaised { throw CancellationError() }
                if holdsLandingPacket {
                    holdsLandingPacket = false
                } else {
                    if try input.read(into: &packet) == .endOfFile {
                        decoder.sendEndOfStream()
                        endOfInput = true
                        continue
                    }
                    counters.packetsRead += 1
                    counters.packetBytes += packet.size
                }
                if keyframeOnly && !packet.isKeyframe { continue }
                if stampsDisplayTimes, let shown = probeDisplayTime(of: packet) {
                    // The probe knows where this packet's frame is shown: the frame carries it out
                    // of the decoder, through any reordering, and no count can slip.
                    packet.stampPresentationTime(shown)
                } else if timesFromDecodeOrder && nextDisplayIndex == nil {
                    // Decoding starts here without a confirmed seek: at the first frame, or else
                    // at a keyframe whose time the probe knows.
                    nextDisplayIndex = counters.packetsRead <= 1 ? 0 : displayTime(ofKeyframe: packet).map { frames.exactFrame(at: $0) } ?? 0
                }
                loneKeyframeTime = keyframeOnly ? displayTime(ofKeyframe: packet) : nil
                // Counting frames needs every frame decoded, so skipping is off where times are counted.
                if request.options.skipNonReferenceFrames && !keyframeOnly && !timesFromDecodeOrder {
                    // A frame that is not shown and that no other frame refers to needs no decoding,
                    // whether it comes before the target or between targets. Packets without a
                    // time are decoded, to be safe.
                    decoder.skipping = packet.pts.map { !targetTimes.contains($0) } ?? false ? .nonReference : .none
                    if decoder.skipping == .nonReference, let pts = packet.pts { skippedTimes.insert(pts) }
                }
                if case .damaged = decoder.send(packet) { counters.damagedFrames += 1 }
                if keyframeOnly {
                    // A keyframe decodes alone: drain it now instead of waiting out the decoder's
                    // reordering delay, which would take further keyframes (and reading past
                    // every packet in between) to push it out.
                    decoder.sendEndOfStream()
                    drainingOneKeyframe = true
                }
            }
        }
    }

    /// The display time the probe worked out for `packet` (`timesFromDecodeOrder`): by byte
    /// position where it keyed packets so, else by decode time; nil where it has none.
    private func probeDisplayTime(of packet: borrowing Packet) -> Int64? {
        if let position = packet.position, let shown = displayTimesByPosition[position] { return shown }
        return packet.decodeTime.flatMap { displayTimesByDecodeTime[$0] }
    }

    /// The display time of a keyframe packet: its presentation time, or where it has none, the
    /// one the probe worked out for its decode time.
    private func displayTime(ofKeyframe packet: borrowing Packet) -> Int64? {
        if stampsDisplayTimes, let shown = probeDisplayTime(of: packet) { return shown }
        if timesFromDecodeOrder, let dts = packet.decodeTime, let index = request.probe.keyframeDecodeTimes.firstIndex(of: dts) {
            return request.probe.keyframes[index]
        }
        return packet.pts
    }

    private mutating func deliver(_ target: SamplePlan.Target, slots: [Int], to sink: (Thumbnail) -> Void) throws {
        let heldPts = holdsFrame ? frame.presentationTime : nil
        let previousPts = holdsPrevious ? previous.presentationTime : nil
        let shownPts: Int64
        var image: Image?
        // The planned frame, or the nearest good one around it (ties go to the earlier frame).
        if let heldPts, heldPts == target.framePts || previousPts.map({ heldPts - target.framePts < target.framePts - $0 }) ?? true {
            if let canvas = request.canvas { try renderer.render(frame, into: canvas, slot: slots[0]) } else { image = try renderer.render(frame) }
            shownPts = heldPts
        } else if let previousPts {
            if let canvas = request.canvas { try renderer.render(previous, into: canvas, slot: slots[0]) } else { image = try renderer.render(previous) }
            shownPts = previousPts
        } else {
            let seconds = (Rational(target.framePts) * request.probe.timeBase - request.probe.startTime.seconds).doubleValue
            throw MediaError(file: request.path, reason: decodedAnything ? .noFrameNear(seconds: seconds) : .nothingDecodes)
        }
        for slot in slots.dropFirst() { request.canvas?.duplicate(slot: slots[0], into: slot) }
        let timeBase = request.probe.timeBase
        for slot in slots {
            let requested = request.plan.targets[slot].requestedTime
            sink(Thumbnail(slot: slot, requestedTime: requested, actualTime: Timestamp(pts: shownPts, timeBase: timeBase),
                                       frameIndex: frames.exactFrame(at: shownPts), substituted: shownPts != target.framePts,
                                       image: image))
        }
    }
}
