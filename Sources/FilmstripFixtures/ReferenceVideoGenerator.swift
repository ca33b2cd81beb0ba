import Filmstrip
import Foundation
import Synchronization

/// Writes reference videos with libavcodec's own encoders and caches them by spec.
///
/// A video is encoded to a temporary name in the cache folder and renamed into place
/// only when complete, so an interrupted run never leaves a half-written file that a
/// later run would trust.
public struct ReferenceVideoCache: Sendable {
    /// The folder the encoded reference videos are cached in.
    public let directory: URL

    /// `FILMSTRIP_FIXTURES` if set, else the user's cache folder, `$XDG_CACHE_HOME/filmstrip/fixtures`
    /// (`~/.cache/filmstrip/fixtures` without it): not a folder of whatever directory a run
    /// starts in. Only without a home folder, `fixtures-cache/` in the current directory.
    public static var defaultDirectory: URL {
        defaultDirectory(environment: ProcessInfo.processInfo.environment, currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// `defaultDirectory` for a process with `environment` started in `currentDirectory`.
    static func defaultDirectory(environment: [String: String], currentDirectory: String) -> URL {
        if let path = environment["FILMSTRIP_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // The XDG base directory rule: a relative XDG_CACHE_HOME is ignored.
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true).appendingPathComponent(".cache", isDirectory: true) : nil }
        guard let cache else {
            return URL(fileURLWithPath: currentDirectory, isDirectory: true).appendingPathComponent("fixtures-cache", isDirectory: true)
        }
        return cache.appendingPathComponent("filmstrip/fixtures", isDirectory: true)
    }

    /// A cache in `directory`, created on first use.
    public init(directory: URL = ReferenceVideoCache.defaultDirectory) {
        self.directory = directory
    }

    /// Where the video for `spec` is (or will be) cached; its name carries the spec's fingerprint, so a changed spec
    /// gets a new file.
    public func url(for spec: ReferenceVideoSpec) -> URL { directory.appendingPathComponent(spec.fileName) }

    /// The cached file for `spec`, generating it first when missing. Returns whether it was made now.
    @discardableResult
    public func ensure(_ spec: ReferenceVideoSpec) throws -> (url: URL, generated: Bool) {
        // One generator at a time in a process: parallel tests asking for the same video wait for it.
        try Self.generation.withLock { _ in try ensureUnlocked(spec) }
    }

    private static let generation = Mutex(())

    private func ensureUnlocked(_ spec: ReferenceVideoSpec) throws -> (url: URL, generated: Bool) {
        let target = url(for: spec)
        if FileManager.default.fileExists(atPath: target.path) { return (target, false) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Encoded under a temporary name and renamed into place, by the same helper as every
        // output; rename(2) is atomic: a concurrent generator of the same spec simply wins or loses the race.
        let temporary = try TemporaryFiles.createEmpty(besides: target.path, kind: .partialVideo)
        do {
            try ReferenceVideoGenerator.write(spec, to: temporary)
            try TemporaryFiles.publish(temporary, as: target.path)
        } catch {
            TemporaryFiles.discard(temporary)
            throw error
        }
        removeOutdatedVersions(of: spec)
        return (target, true)
    }

    /// Deletes files of the same id made from an older spec or generator version.
    private func removeOutdatedVersions(of spec: ReferenceVideoSpec) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let prefix = "\(spec.id)-", suffix = ".\(spec.container.fileExtension)"
        for name in names where name != spec.fileName && name.hasPrefix(prefix) && name.hasSuffix(suffix)
            && name.count == spec.fileName.count && name.dropFirst(prefix.count).dropLast(suffix.count).allSatisfy(\.isHexDigit) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Removes partial videos whose writer has died, never the file another live process (a
    /// parallel test, a second bench) is writing: removing every partial did that, and a
    /// `sprite-bench` test failed with "rename failed" while `fixtures` ran beside it.
    package func removePartialsOfDeadProcesses() {
        TemporaryFiles.removeStale(in: directory.path, kind: .partialVideo)
    }
}

/// Encodes one reference video: frames painted with their index marker, encoded and muxed as the spec says.
public enum ReferenceVideoGenerator {
    /// Encodes `spec` to `path` (container chosen by the spec, not the extension).
    public static func write(_ spec: ReferenceVideoSpec, to path: String) throws {
        // libx264 reads heap memory nobody wrote: made in a process that had made other videos
        // first, 4-9 of the 38 quick and formats videos (all H.264) decoded to other pixels in
        // frames 1-9 from one make to the next (by up to 2 levels), with x264 on one thread, on
        // one CPU, without address randomisation, and with our frame buffers zeroed. With the
        // heap's new blocks filled with a fixed pattern (glibc's M_PERTURB), 3 makes of all 38
        // were the same bytes.
        try HeapPerturbation.during { try writeUnperturbed(spec, to: path) }
    }

    private static func writeUnperturbed(_ spec: ReferenceVideoSpec, to path: String) throws {
        // SVT-AV1 prints its configuration banner unless told to log errors only.
        setenv("SVT_LOG", "1", 0)
        var writer = try VideoWriter(path: path, containerName: spec.container.muxerName,
                                     settings: spec.encoderSettings, rotationDegrees: spec.rotationDegrees)
        let painter = FramePainter(codedWidth: spec.width, codedHeight: spec.height, rotationDegrees: spec.rotationDegrees,
                                   fieldOrder: spec.fieldOrder)
        // HDR videos: the SDR picture painted as usual, then converted into the 10-bit frame.
        var sdrFrame = try spec.hdrTransfer.map { _ in try Frame.planar420(width: spec.width, height: spec.height) }
        for index in 0..<spec.frameCount {
            try Task.checkCancellation()
            if let transfer = spec.hdrTransfer, sdrFrame != nil {
                try sdrFrame!.makeWritable()
                painter.paint(sdrFrame!, index: index)
                try writer.encodeFrame(pts: spec.presentationTime(ofFrame: index)) { frame in
                    HDRPictureConverter.convert(sdrFrame!, into: frame, width: spec.width, height: spec.height, transfer: transfer)
                }
                continue
            }
            try writer.encodeFrame(pts: spec.presentationTime(ofFrame: index)) { frame in
                painter.paint(frame, index: index)
            }
        }
        try writer.finish()
    }
}

/// Converts a painted SDR frame (8-bit limited-range BT.601 Y'CbCr 4:2:0, as the SDR reference
/// videos are decoded) into HDR: 10-bit limited-range BT.2020 Y'CbCr 4:2:0 with the PQ or HLG
/// transfer, through `ToneMapping.sdrToHDR` (SDR white becomes HDR reference white). Each
/// 2×2 block's chroma comes from its top-left pixel.
enum HDRPictureConverter {
    static func convert(_ sdr: borrowing Frame, into hdr: borrowing Frame, width: Int, height: Int, transfer: HDRTransfer) {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        func bytes(_ plane: Int, columns: Int, rows: Int) -> [UInt8] {
            sdr.withPlane(plane, rows: rows) { base, stride in
                (0..<rows).flatMap { row in UnsafeRawBufferPointer(start: base + row * stride, count: columns).map { $0 } }
            }
        }
        let luma = bytes(0, columns: width, rows: height)
        let blue = bytes(1, columns: chromaWidth, rows: chromaHeight), red = bytes(2, columns: chromaWidth, rows: chromaHeight)
        // BT.601 limited range to R'G'B' in [0, 1].
        func sdrRGB(x: Int, y: Int) -> (Double, Double, Double) {
            let scaled = (Double(luma[y * width + x]) - 16) * 255 / 219
            let cb = (Double(blue[y / 2 * chromaWidth + x / 2]) - 128) * 255 / 224
            let cr = (Double(red[y / 2 * chromaWidth + x / 2]) - 128) * 255 / 224
            return ((scaled + 1.402 * cr) / 255, (scaled - 0.344136 * cb - 0.714136 * cr) / 255, (scaled + 1.772 * cb) / 255)
        }
        func sample(_ value: Double) -> UInt16 { UInt16(value.rounded().clamped(to: 0...1023)) }
        var hdrLuma = [UInt16](repeating: 0, count: width * height)
        var hdrBlue = [UInt16](repeating: 512, count: chromaWidth * chromaHeight), hdrRed = hdrBlue
        for y in 0..<height {
            for x in 0..<width {
                let rgb = ToneMapping.sdrToHDR(sdrRGB(x: x, y: y), transfer: transfer)
                // BT.2020 non-constant luminance, 10-bit limited range.
                let y2020 = 0.2627 * rgb.0 + 0.6780 * rgb.1 + 0.0593 * rgb.2
                hdrLuma[y * width + x] = sample(64 + 876 * y2020)
                guard x % 2 == 0, y % 2 == 0 else { continue }
                hdrBlue[y / 2 * chromaWidth + x / 2] = sample(512 + 896 * (rgb.2 - y2020) / 1.8814)
                hdrRed[y / 2 * chromaWidth + x / 2] = sample(512 + 896 * (rgb.0 - y2020) / 1.4746)
            }
        }
        for (plane, samples, columns, rows) in [(0, hdrLuma, width, height), (1, hdrBlue, chromaWidth, chromaHeight),
                                                (2, hdrRed, chromaWidth, chromaHeight)] {
            hdr.withPlane(plane, rows: rows) { base, stride in
                for row in 0..<rows {
                    for column in 0..<columns {
                        base.storeBytes(of: samples[row * columns + column], toByteOffset: row * stride + 2 * column, as: UInt16.self)
                    }
                }
            }
        }
    }
}

private extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
