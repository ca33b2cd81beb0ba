import Foundation

/// File formats a strip can be written in.
public enum StripFormat: String, Sendable, Codable, CaseIterable {
    /// 8-bit RGBA PNG.
    case png
    /// Baseline JPEG (alpha dropped); at most 65535 px a side.
    case jpeg
    /// Headerless RGBA rows without padding, for tests and other tools.
    case raw

    /// The format a path's extension names (.png, .jpg/.jpeg, .rgba/.raw), or nil.
    public init?(path: String) {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "rgba", "raw": self = .raw
        default: return nil
        }
    }
}

/// Why a strip could not be written, as a one-line reason naming the file.
public struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let reason: String
    public var description: String { "\(file): \(reason)" }
}

/// Writes strips atomically: bytes go to a temporary file beside the target, which is
/// renamed over it only once complete, so a failure never leaves a half-written strip.
public enum StripWriter {
    /// Encoded bytes of `image` in `format`.
    public static func encode(_ image: Image, as format: StripFormat, file: String) throws(OutputError) -> [UInt8] {
        do {
            switch format {
            // An opaque strip needs no alpha channel: a quarter less to compress and store.
            case .png: return try ImageEncoder.png(image, keepAlpha: !image.isOpaque)
            case .jpeg: return try ImageEncoder.jpeg(image)
            case .raw: return rawBytes(image)
            }
        } catch {
            throw OutputError(file: file, reason: "cannot encode \(format.rawValue): \(error.call) (\(error.reason))")
        }
    }

    /// The visible pixels row after row, without row padding.
    public static func rawBytes(_ image: Image) -> [UInt8] {
        let rowBytes = image.width * Image.bytesPerPixel
        var bytes = [UInt8]()
        bytes.reserveCapacity(rowBytes * image.height)
        for row in 0..<image.height {
            bytes.append(contentsOf: image.pixels[row * image.bytesPerRow..<row * image.bytesPerRow + rowBytes])
        }
        return bytes
    }

    /// Writes `image` to `path` in `format` (nil: from the extension, PNG when it names none).
    public static func write(_ image: Image, to path: String, format: StripFormat? = nil) throws(OutputError) {
        let chosen = format ?? StripFormat(path: path) ?? .png
        let bytes = try encode(image, as: chosen, file: path)
        try writeAtomically(Data(bytes), to: path)
    }

    /// Checks, before any work is done, that `path` can be created: its folder exists and is writable.
    public static func checkWritable(_ path: String) throws(OutputError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OutputError(file: path, reason: "folder \(folder) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw OutputError(file: path, reason: "folder \(folder) is not writable")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw OutputError(file: path, reason: "is a directory")
        }
    }

    /// Writes `data` to a temporary file next to `path`, then renames it into place.
    public static func writeAtomically(_ data: Data, to path: String) throws(OutputError) {
        try checkWritable(path)
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else {
                throw OutputError(file: path, reason: String(cString: strerror(errno)))
            }
        } catch let error as OutputError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw OutputError(file: path, reason: "cannot write (\(error.localizedDescription))")
        }
    }
}
