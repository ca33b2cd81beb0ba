import Filmstrip

/// Adds the OpenMP composer to `Composers.all`: the tool and the benchmark harness call this
/// at start, so the one registry lists it beside the library's own composers.
public func register() {
    Composers.register(OpenMPComposer())
}
