import Foundation
import Synchronization

/// Writes reference videos with libavcodec's own encoders and caches them by spec.
///
/// A video is encoded to a temporary name in the cache folder and renamed into place
/// only when complete, so an interrupted run never leaves a half-written file that a
/// later run would trust.
public struct ReferenceVideoCache: Sendable {
    public let directory: URL

    /// `FILMSTRIP_FIXTURES` if set, else `fixtures-cache/` in the current directory (git-ignored).
    public static var defaultDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["FILMSTRIP_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            .appendingPathComponent("fixtures-cache", isDirectory: true)
    }

    public init(directory: URL = ReferenceVideoCache.defaultDirectory) {
        self.directory = directory
    }

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
        let temporary = directory.appendingPathComponent(".\(spec.fileName).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString.prefix(8)).partial")
        do {
            try ReferenceVideoGenerator.write(spec, to: temporary.path)
            // rename(2) is atomic: a concurrent generator of the same spec simply wins or loses the race.
            if rename(temporary.path, target.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        removeOutdatedVersions(of: spec)
        return (target, true)
    }

    /// Generates every video of `suite` that is missing.
    public func ensure(suite: ReferenceSuite) throws -> [ReferenceVideoSpec: URL] {
        var urls: [ReferenceVideoSpec: URL] = [:]
        for spec in suite.specs { urls[spec] = try ensure(spec).url }
        return urls
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

    /// Removes temporary files left by runs that were killed mid-write.
    public func removeAbandonedPartials() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix(".partial") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}

public enum ReferenceVideoGenerator {
    /// Encodes `spec` to `path` (container chosen by the spec, not the extension).
    public static func write(_ spec: ReferenceVideoSpec, to path: String) throws {
        // SVT-AV1 prints its configuration banner unless told to log errors only.
        setenv("SVT_LOG", "1", 0)
        var writer = try VideoWriter(path: path, containerName: spec.container.muxerName,
                                     settings: spec.encoderSettings, rotationDegrees: spec.rotationDegrees)
        let painter = FramePainter(codedWidth: spec.width, codedHeight: spec.height, rotationDegrees: spec.rotationDegrees,
                                   fieldOrder: spec.fieldOrder)
        for index in 0..<spec.frameCount {
            try Task.checkCancellation()
            try writer.encodeFrame(pts: spec.presentationTime(ofFrame: index)) { frame in
                painter.paint(frame, index: index)
            }
        }
        try writer.finish()
    }
}
