/// Every composer under its registry name: the CLI, the tests and the benchmark harness
/// enumerate this one list, so a new strategy is one file plus one line here.
public enum Composers {
    /// Default-configured instances, fastest-to-write baseline first.
    /// `fused` (scaling straight into the strip) needs an extractor and joins the list with it.
    public static let all: [any StripComposer] = [
        NaiveComposer(),
        RowCopyComposer(),
        SIMDComposer(),
        TiledComposer(),
        TaskGroupComposer(),
        OpenMPComposer(),
    ]

    public static var names: [String] { all.map(\.name) }

    /// The composer registered as `name`, or nil.
    public static func named(_ name: String) -> (any StripComposer)? {
        all.first { $0.name == name }
    }
}
