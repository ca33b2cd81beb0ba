import FilmstripResults
/// What `Plotter` drew and what it skipped.
package struct PlotReport: Sendable {
    package struct Drawn: Sendable, Hashable {
        package var kind: ChartKind
        package var title: String
        /// Paths of the `.dat`, `.gp`, `.svg` and `.png` files.
        package var files: [String]
    }

    package struct Skipped: Sendable, Hashable {
        package var kind: ChartKind
        /// Why the data cannot make this chart, e.g. "the inputs come from one machine".
        package var reason: String
    }

    package var drawn: [Drawn] = []
    package var skipped: [Skipped] = []
    /// What the files answer (``Judge``), which the gate chart draws: its verdict lines lead.
    package var judgements: [Judgement] = []

    /// The judgements' headlines (`verdict: …`), then one line per chart: its image paths, or
    /// `skipped <chart>: <reason>`.
    package var lines: [String] {
        judgements.map { "verdict (\($0.title)): \($0.headline)" }
            + drawn.map { "\($0.kind.rawValue): \($0.files.filter { $0.hasSuffix(".svg") || $0.hasSuffix(".png") }.joined(separator: " "))" }
            + skipped.map { "skipped \($0.kind.rawValue): \($0.reason)" }
    }
}
