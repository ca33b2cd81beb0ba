import Filmstrip
import FilmstripResults
import Foundation

/// `filmstrip info --machine`: the fingerprint every benchmark row carries.
enum MachineReport {
    static var current: MachineFingerprint { MachineFingerprint.current(ffmpegVersions: FFmpegLibraries.versions) }
    static func text() -> String { current.text }
    /// One line, as `--json` promises everywhere (JSON lines).
    static func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(current), as: UTF8.self)
    }
}
