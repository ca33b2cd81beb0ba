import Filmstrip
import FilmstripBench
import Foundation

/// `filmstrip info --machine`: the fingerprint every benchmark row carries.
enum MachineReport {
    static var current: MachineFingerprint { MachineFingerprint.current(ffmpegVersions: FFmpegLibraries.versions) }
    static func text() -> String { current.text }
    static func json() throws -> String { String(decoding: try current.json(), as: UTF8.self) }
}
