// swift-tools-version: 6.1
import PackageDescription

// A package of its own, so that the main package's `swift build` and `swift test` never
// build package-benchmark, its plugin and its dependencies.
let package = Package(
    name: "FilmstripBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named so that the identity does not depend on the checkout folder's name.
        .package(name: "filmstrip", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")]
        ),
        benchmarkSuite("ComposerBenchmarks", products: ["Filmstrip"]),
        benchmarkSuite("ExtractorBenchmarks", products: ["Filmstrip", "FilmstripFixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

/// A package-benchmark suite: the executable in `Benchmarks/NAME`, run by the benchmark plugin,
/// with the filmstrip library products it times.
func benchmarkSuite(_ name: String, products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: products.map { .product(name: $0, package: "filmstrip") }
            + [.product(name: "Benchmark", package: "benchmark"), "BenchmarkSupport"],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
