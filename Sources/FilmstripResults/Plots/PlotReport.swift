/// What `Plotter` drew and what it skipped.
public struct PlotReport: Sendable {
    public struct Drawn: Sendable, Hashable {
        public var kind: ChartKind
        public var title: String
        /// Paths of the `.dat`, `.gp`, `.svg` and `.png` files.
        public var files: [String]
    }

    public struct Skipped: Sendable, Hashable {
        public var kind: ChartKind
        /// Why the data cannot make this chart, e.g. "the inputs come from one machine".
        public var reason: String
    }

    public var drawn: [Drawn] = []
    public var skipped: [Skipped] = []

    /// One line per chart: its image paths, or `skipped <chart>: <reason>`.
    public var lines: [String] {
        drawn.map { "\($0.kind.rawValue): \($0.files.filter { $0.hasSuffix(".svg") || $0.hasSuffix(".png") }.joined(separator: " "))" }
            + skipped.map { "skipped \($0.kind.rawValue): \($0.reason)" }
    }
}
