/// Every composer under its registry name: the CLI, the tests and the benchmark harness
/// enumerate this one list, so a new strategy is one file plus one line here.
public enum Composers {
    /// Default-configured instances, fastest-to-write baseline first.
    public static let all: [any StripComposer] = [
        NaiveComposer(),
        RowCopyComposer(),
        SIMDComposer(),
        TiledComposer(),
        TaskGroupComposer(),
        OpenMPComposer(),
        StreamComposer(),
        FusedComposer(),
    ]

    public static var names: [String] { all.map(\.name) }

    /// The composer registered as `name`, or nil.
    public static func named(_ name: String) -> (any StripComposer)? {
        all.first { $0.name == name }
    }
}
