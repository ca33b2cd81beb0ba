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
        .executableTarget(
            name: "ComposerBenchmarks",
            dependencies: [
                .product(name: "Filmstrip", package: "filmstrip"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
            ],
            path: "Benchmarks/ComposerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ExtractorBenchmarks",
            dependencies: [
                .product(name: "Filmstrip", package: "filmstrip"),
                .product(name: "FilmstripFixtures", package: "filmstrip"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
            ],
            path: "Benchmarks/ExtractorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
