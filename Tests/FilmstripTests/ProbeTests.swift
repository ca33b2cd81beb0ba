import Filmstrip
import Testing

@Suite("Probe of generated reference videos")
struct ProbeTests {
    static let codecVideos = ["h264-180p-3s", "hevc-180p-2s", "vp9-180p-2s", "av1-180p-2s", "mpeg4-180p-2s"]

    @Test("probe reports the spec's codec, size, timing and keyframes", arguments: codecVideos)
    func probeMatchesSpec(id: String) throws {
        let spec = TestSupport.spec(id)
        let probe = try VideoProbe(path: try TestSupport.video(id))
        let expectedCodec = ["h264": "h264", "hevc": "hevc", "vp9": "vp9", "av1": "av1", "mpeg4": "mpeg4"][spec.codec.rawValue]
        #expect(probe.codec == expectedCodec)
        #expect(probe.width == spec.width && probe.height == spec.height)
        #expect(probe.frameCount == spec.frameCount)
        #expect(probe.frameCountIsExact)
        #expect(probe.frameRate == Rational(Int64(spec.framesPerSecond)))
        #expect(probe.duration.seconds == Rational(Int64(spec.frameCount), Int64(spec.framesPerSecond)))
        #expect(probe.startTime.seconds == .zero)
        #expect(probe.rotationDegrees == 0)
        #expect(probe.sampleAspectRatio == Rational(1))
        #expect(probe.pixelFormat == "yuv420p")
        #expect(!probe.dataEndsEarly)
        // A fixed GOP: a keyframe at every multiple of the interval (encoders may add one at the very end).
        let expected = stride(from: 0, to: spec.frameCount, by: spec.keyframeInterval).map { index in
            Timestamp(seconds: Rational(spec.presentationTime(ofFrame: index)) * spec.timeBase, timeBase: probe.timeBase).pts
        }
        #expect(Set(expected).isSubset(of: probe.keyframes))
        #expect(probe.keyframes.count <= expected.count + 1)
        #expect(probe.keyframes.first == probe.startTime.pts)
        #expect(probe.keyframes == probe.keyframes.sorted())
    }

    @Test func rotationAndDisplaySize() throws {
        let rotated = try VideoProbe(path: try TestSupport.video("h264-180p-2s-rot90"))
        #expect(rotated.rotationDegrees == 90)
        #expect(rotated.displaySize == (180, 320))
        let rotatedBack = try VideoProbe(path: try TestSupport.video("h264-180p-2s-rot270"))
        #expect(rotatedBack.rotationDegrees == 270)
        #expect(rotatedBack.displayAspectRatio == Rational(9, 16))
    }

    @Test func nonSquarePixels() throws {
        let probe = try VideoProbe(path: try TestSupport.video("h264-180p-2s-sar43"))
        #expect(probe.sampleAspectRatio == Rational(4, 3))
        #expect(probe.displaySize == (320, 180))
        #expect(probe.displayAspectRatio == Rational(16, 9))
    }

    @Test func nonZeroStartTimeAndVariableRate() throws {
        let offset = try VideoProbe(path: try TestSupport.video("h264-180p-2s-opengop-offset"))
        #expect(offset.startTime.seconds == Rational(3, 2))
        #expect(offset.keyframes.first == offset.startTime.pts)
        let variable = try VideoProbe(path: try TestSupport.video("h264-180p-2s-vfr"))
        #expect(variable.frameCount == 60)
        #expect(variable.duration.seconds >= Rational(19, 10))
    }

    @Test func oddDimensions() throws {
        let probe = try VideoProbe(path: try TestSupport.video("vp9-179p-2s-odd"))
        #expect(probe.width == 319 && probe.height == 179)
    }
}

