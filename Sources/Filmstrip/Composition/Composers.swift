import Synchronization

/// Every composer under its registry name: the CLI, the tests and the benchmark harness
/// enumerate this one list, so a new strategy is one file plus one line here.
///
/// The list holds the library's own composers; a composer built outside the `Filmstrip`
/// product (the OpenMP one, which needs unsafe build flags a versioned dependency may not
/// have) is added with `register(_:)` when its program starts (`FilmstripOpenMP.register()`).
public enum Composers {
    /// The library's composers, default-configured, fastest-to-write baseline first.
    public static let builtIn: [any StripComposer] = [
        NaiveComposer(),
        RowCopyComposer(),
        SIMDComposer(),
        TiledComposer(),
        TaskGroupComposer(),
        StreamComposer(),
    ]

    /// Composers registered by the program, in registration order, after the built-in ones.
    private static let registered = Mutex<[any StripComposer]>([])

    /// Every composer: the built-in ones, then the registered ones.
    public static var all: [any StripComposer] { builtIn + registered.withLock { $0 } }

    /// The registry names of `all`, in the same order (the values `--composer` accepts).
    public static var names: [String] { all.map(\.name) }

    /// The composer the benchmark pairs with every extractor: plain and fast, so the
    /// extractor's cost dominates the run.
    public static var extractorSweepPartner: any StripComposer { RowCopyComposer() }

    /// The composer registered as `name`, or nil.
    public static func named(_ name: String) -> (any StripComposer)? {
        all.first { $0.name == name }
    }

    /// Adds `composer` to `all`; a second registration of the same name is ignored.
    public static func register(_ composer: any StripComposer) {
        registered.withLock { list in
            guard !builtIn.contains(where: { $0.name == composer.name }), !list.contains(where: { $0.name == composer.name }) else { return }
            list.append(composer)
        }
    }
}
