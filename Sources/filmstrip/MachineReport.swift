import Filmstrip
import Foundation

/// Placeholder until the harness's fingerprint lands.
enum MachineReport {
    static func text() -> String { FFmpegLibraries.versions.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n") }
    static func json() throws -> String { String(decoding: try JSONEncoder().encode(FFmpegLibraries.versions), as: UTF8.self) }
}
