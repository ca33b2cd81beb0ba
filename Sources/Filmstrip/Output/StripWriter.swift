import Foundation

/// File formats a strip can be written in.
public enum StripFormat: String, Sendable, Codable, CaseIterable {
    /// 8-bit RGBA PNG.
    case png
    /// Baseline JPEG (alpha dropped); at most 65535 px a side.
    case jpeg
    /// Headerless RGBA rows without padding, for tests and other tools.
    case raw

    /// The file extensions that name this format, the usual one first.
    public var extensions: [String] {
        switch self {
        case .png: ["png"]
        case .jpeg: ["jpg", "jpeg"]
        case .raw: ["rgba", "raw"]
        }
    }

    /// The format a path's extension names (.png, .jpg/.jpeg, .rgba/.raw), or nil.
    public init?(path: String) {
        let pathExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
        guard let format = Self.allCases.first(where: { $0.extensions.contains(pathExtension) }) else { return nil }
        self = format
    }
}

/// Where a strip goes and in which format: decided once (from the path's extension or a
/// `--format`) and then used by every check and by the writer, so none works it out again.
public struct StripOutput: Sendable, Hashable {
    /// The file (or `-` for standard output, which the caller writes with `write(_:toDescriptor:named:format:jpegQuality:)`).
    public var path: String
    /// The image format written.
    public var format: StripFormat

    /// `path` in `format`.
    public init(path: String, format: StripFormat) {
        self.path = path
        self.format = format
    }

    /// `path` in the format its extension names (.png, .jpg/.jpeg, .rgba/.raw), PNG when it names none.
    public init(path: String) {
        self.init(path: path, format: StripFormat(path: path) ?? .png)
    }
}

/// Why a strip could not be written, as a one-line reason naming the file.
public struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path that could not be written.
    public let file: String
    /// Why, as a phrase (the system's or encoder's own words where there are any).
    public let reason: String
    /// The system's error number when a write to a caller's descriptor failed (`write(_:toDescriptor:named:format:jpegQuality:)`).
    public var systemCode: Int32? = nil
    /// "FILE: reason", the one line the tool prints on standard error.
    public var description: String { "\(file): \(reason)" }
}

/// Writes strips atomically: bytes go to a temporary file beside the target, which is
/// renamed over it only once complete, so a failure never leaves a half-written strip.
/// PNG and raw output stream the strip's rows from where they are, without copying the strip.
public enum StripWriter {
    /// Writes `pixels` to `path` in `format` (nil: from the extension, PNG when it names none;
    /// `jpegQuality` 1–100 for JPEG), and `manifest`'s bytes to its path when given: both are
    /// written in full under temporary names before either is renamed into place, so a
    /// manifest that cannot be written leaves no strip behind either.
    public static func write(_ pixels: some PixelRows, to path: String, format: StripFormat? = nil, jpegQuality: Int = 90,
                             manifest: (path: String, data: Data)? = nil) throws(OutputError) {
        let chosen = format ?? StripOutput(path: path).format
        if chosen == .jpeg { try checkJPEGSize(width: pixels.width, height: pixels.height, file: path) }
        // JPEG is encoded whole before the file is opened, so an image it cannot describe leaves nothing behind.
        let jpeg = chosen == .jpeg ? try jpegBytes(rgbaCopy(of: pixels, file: path), quality: jpegQuality, file: path) : nil
        let file = try AtomicFile(path: path)
        try write(pixels, as: chosen, jpeg: jpeg, to: file)
        guard let manifest else {
            try file.commit()
            return
        }
        let manifestFile = try AtomicFile(path: manifest.path)
        try manifestFile.write(manifest.data)
        try AtomicFile.commit(file, manifestFile)
    }

    /// Writes `pixels` to `output.path` in `output.format`, as `write(_:to:format:jpegQuality:manifest:)`.
    public static func write(_ pixels: some PixelRows, to output: StripOutput, jpegQuality: Int = 90,
                             manifest: (path: String, data: Data)? = nil) throws(OutputError) {
        try write(pixels, to: output.path, format: output.format, jpegQuality: jpegQuality, manifest: manifest)
    }

    /// Writes `pixels` in `format` straight to `descriptor`, which the caller opened and
    /// closes (standard output, a pipe): streamed as to a file, without a temporary copy.
    /// Nothing is renamed, so a failure part way leaves what was written; errors name the
    /// descriptor by `name` and keep the system's code (`OutputError.systemCode`).
    public static func write(_ pixels: some PixelRows, toDescriptor descriptor: Int32, named name: String, format: StripFormat,
                             jpegQuality: Int = 90) throws(OutputError) {
        if format == .jpeg { try checkJPEGSize(width: pixels.width, height: pixels.height, file: name) }
        let jpeg = format == .jpeg ? try jpegBytes(rgbaCopy(of: pixels, file: name), quality: jpegQuality, file: name) : nil
        try write(pixels, as: format, jpeg: jpeg, to: DescriptorSink(descriptor: descriptor, path: name))
    }

    /// The bytes of `pixels` in `format` (JPEG already encoded as `jpeg`) into `sink`.
    private static func write<Sink: ByteSink & ~Copyable>(_ pixels: some PixelRows, as format: StripFormat, jpeg: [UInt8]?,
                                                         to sink: borrowing Sink) throws(OutputError) {
        switch format {
        case .png: try PNGWriter.write(pixels, to: sink)
        case .jpeg: try sink.write(jpeg ?? [])
        case .raw: try writeRaw(pixels, to: sink)
        }
    }

    /// Refuses, before anything is allocated, a JPEG larger than the format can describe.
    public static func checkJPEGSize(width: Int, height: Int, file: String) throws(OutputError) {
        let limit = ResourceLimits.maximumJPEGSide
        if width > limit || height > limit {
            throw OutputError(file: file, reason: "a \(width)x\(height) strip cannot be a JPEG (at most \(limit) px a side); write a .png")
        }
    }

    /// Refuses, before any work, an output that is the input video or another output: the same
    /// file by device and inode (symbolic links followed) when it exists, or the same path in
    /// the same folder (folders resolved) when it does not yet. Each output is looked up once
    /// (comparing every pair looked up 100 thumbnails' paths 10,000 times: 51,000 `stat` calls
    /// before `thumbnails --count 100` could start).
    /// `inputKind` names what the input is in the message ("input video", "input results file").
    public static func checkDistinct(input: String, inputKind: String = "input video",
                                     outputs: [(option: String, path: String)]) throws(OutputError) {
        enum Key: Hashable {
            case file(FileIdentity)
            case path(String)
        }
        let inputIdentity = System.identity(input)
        var earlier: [Key: (option: String, path: String)] = [:]
        for output in outputs {
            let identity = System.identity(output.path)
            if let identity, identity == inputIdentity {
                throw OutputError(file: output.path, reason: "\(output.option) is the \(inputKind) \(input); refusing to overwrite it")
            }
            let key = identity.map(Key.file) ?? .path(resolvedPath(output.path))
            if let same = earlier[key] {
                // The message starts with the path: name the earlier one only where it is written differently.
                let earlierPath = same.path == output.path ? "" : " \(same.path)"
                throw OutputError(file: output.path, reason: "\(output.option) is the same file as \(same.option)\(earlierPath)")
            }
            earlier[key] = output
        }
    }

    /// `path` with its folder's symbolic links and `..` resolved, for comparing files that do not exist yet.
    private static func resolvedPath(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent).path
    }

    /// The pixels as an RGBA `Image` for the JPEG encoder: a copy unless they are one already
    /// (a fused pipeline's canvas), made only where the room for it was found (an
    /// `OutOfMemory` becomes the output's error, not the end of the process).
    private static func rgbaCopy(of pixels: some PixelRows, file: String) throws(OutputError) -> Image {
        if let image = pixels as? Image { return image }
        do {
            try Image.checkRoom(width: pixels.width, height: pixels.height, for: "the JPEG encoder's copy of the strip")
        } catch {
            throw OutputError(file: file, reason: error.description)
        }
        return pixels.rgbaImage()
    }

    private static func jpegBytes(_ image: Image, quality: Int, file: String) throws(OutputError) -> [UInt8] {
        do {
            return try ImageEncoder.jpeg(image, quality: quality)
        } catch {
            // The image is filmstrip's own and within JPEG's sides: an encoder that cannot
            // allocate, or cannot start its threads, is the process out of memory.
            if error.mayMeanOutOfMemory {
                throw OutputError(file: file, reason: "out of memory (the JPEG encoder's \(error.call) failed: \(error.reason); not a fault of the file)")
            }
            throw OutputError(file: file, reason: "cannot encode jpeg: \(error.call) (\(error.reason))")
        }
    }

    /// The visible pixels as RGBA, row after row, without row padding.
    private static func writeRaw<Sink: ByteSink & ~Copyable>(_ pixels: some PixelRows, to file: borrowing Sink) throws(OutputError) {
        var row = [UInt8](repeating: 0, count: pixels.width * 4)
        try pixels.withUnsafePixels { (first) throws(OutputError) in
            for y in 0..<pixels.height {
                row.withUnsafeMutableBytes { target in
                    PixelFormat.rgba.copy(pixels.width, from: first + y * pixels.bytesPerRow, in: pixels.pixelFormat, to: target.baseAddress!)
                }
                try file.write(row)
            }
        }
    }

    /// Checks, before any work is done, that `path` can be created: its folder exists and is writable.
    public static func checkWritable(_ path: String) throws(OutputError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard let folderStatus = System.status(folder), folderStatus.st_mode & S_IFMT == S_IFDIR else {
            throw OutputError(file: path, reason: "folder \(folder) does not exist")
        }
        guard FileSystemName.withCString(folder, { access($0, W_OK) }) == 0 else {
            throw OutputError(file: path, reason: "folder \(folder) is not writable")
        }
        if let status = System.status(path), status.st_mode & S_IFMT == S_IFDIR {
            throw OutputError(file: path, reason: "is a directory")
        }
        // A finished file is renamed over its target: over /dev/null or a FIFO that would put a
        // regular file in the device's place (`export -o /dev/null` replaced /dev/null).
        if let status = System.status(path), status.st_mode & S_IFMT != S_IFREG {
            throw OutputError(file: path, reason: "is not a regular file (a device, pipe or socket), which a finished file would replace; "
                + "write to standard output (-o - where the command has it) and redirect it there")
        }
    }

    /// Writes `bytes` to a temporary file next to `path`, then renames it into place.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(OutputError) {
        let file = try AtomicFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Writes `data` to a temporary file next to `path`, then renames it into place.
    public static func writeAtomically(_ data: Data, to path: String) throws(OutputError) {
        let file = try AtomicFile(path: path)
        try file.write(data)
        try file.commit()
    }
}
