import Foundation

/// One function's share of an instruction-count change, as `cg_diff` would show it.
package struct FunctionChange: Sendable, Hashable {
    package var function: CallgrindPart.Function
    /// Candidate minus baseline self instructions in the phase.
    package var instructions: Int
    /// The change in percentage points of the baseline phase's total.
    package var percentagePoints: Double

    /// `avcodec_send_packet (shim.so) +1.9 pp`; a Swift symbol demangled (``SwiftSymbol``).
    package var text: String {
        "\(SwiftSymbol.readable(function.name))\(function.object.isEmpty ? "" : " (\(function.object))") \(String(format: "%+.1f", percentagePoints)) pp"
    }
}

/// Finds the functions behind an instruction-count change from the two builds' profiles.
package enum InstructionAttribution {
    /// Functions named per change.
    package static let shown = 3

    /// The profiles of a two-build instruction run, found from the rows' `profile` column.
    struct ProfileIndex {
        private var baseline: [ConfigurationKey: String] = [:]
        private var candidate: [ConfigurationKey: String] = [:]
        private let root: String?

        init(baseline: [RawResultRow], candidate: [RawResultRow], root: String?) {
            self.root = root
            // The first repetition's profile of each configuration and phase.
            for row in baseline.sorted(by: { $0.repetition > $1.repetition }) where !row.profile.isEmpty {
                self.baseline[row.configurationKey] = row.profile
            }
            for row in candidate.sorted(by: { $0.repetition > $1.repetition }) where !row.profile.isEmpty {
                self.candidate[row.configurationKey] = row.profile
            }
        }

        /// The functions that moved most in `key`'s phase, in the direction of the change;
        /// empty when a profile is missing or unreadable (the verdict stands without it).
        func attribution(for key: ConfigurationKey, baselineTotal: Double, grew: Bool) -> [FunctionChange] {
            guard let before = baseline[key].flatMap(load), let after = candidate[key].flatMap(load), baselineTotal > 0 else { return [] }
            return InstructionAttribution.changes(before: before.functions(for: key.phase), after: after.functions(for: key.phase),
                                                  baselineTotal: baselineTotal, grew: grew)
        }

        private func load(_ path: String) -> InstructionProfile? {
            let full = path.hasPrefix("/") || root == nil ? path : root! + "/" + path
            guard let text = try? String(contentsOfFile: full, encoding: .utf8) else { return nil }
            return try? InstructionProfile(fileText: text)
        }
    }

    /// The `shown` functions whose self counts grew (or shrank) most between the two profiles;
    /// after the first, only those that moved by at least 0.05 pp (a line of "+0.0 pp" names nothing).
    package static func changes(before: [CallgrindPart.Function: Int], after: [CallgrindPart.Function: Int],
                               baselineTotal: Double, grew: Bool) -> [FunctionChange] {
        var deltas: [CallgrindPart.Function: Int] = [:]
        for (function, count) in after { deltas[function, default: 0] += count }
        for (function, count) in before { deltas[function, default: 0] -= count }
        return deltas.filter { grew ? $0.value > 0 : $0.value < 0 }
            .sorted { abs($0.value) != abs($1.value) ? abs($0.value) > abs($1.value) : $0.key < $1.key }
            .prefix(shown)
            .map { FunctionChange(function: $0.key, instructions: $0.value, percentagePoints: Double($0.value) / baselineTotal * 100) }
            .enumerated().filter { $0.offset == 0 || abs($0.element.percentagePoints) >= 0.05 }.map(\.element)
    }
}
