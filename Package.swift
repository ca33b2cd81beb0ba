// swift-tools-version: 6.1
import PackageDescription

/// libomp from Debian's libomp-dev: the unversioned libomp.so lives only in LLVM's own folder.
let openMPLibraryFolder = "/usr/lib/llvm-14/lib"

/// Tests paint, encode, decode and compare real video frames; unoptimised that is 20-50x slower.
/// `scripts/test.sh` sets FILMSTRIP_OPTIMIZED_DEBUG=1 to optimise the library in debug builds
/// too. It is off by default because `-O` is an unsafe flag: a package depending on filmstrip by
/// version builds the library with none (SwiftPM refuses a product with unsafe flags).
let optimizedDebug = Context.environment["FILMSTRIP_OPTIMIZED_DEBUG"] == "1"
let optimizedDebugSwift: [SwiftSetting] = optimizedDebug ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []
let optimizedDebugC: [CSetting] = optimizedDebug ? [.unsafeFlags(["-O3"], .when(configuration: .debug))] : []

let package = Package(
    name: "filmstrip",
    // Linux only (no `platforms:` claim): the C kernels use x86 vectors, the harness imports Glibc,
    // the OpenMP link path is Debian's, and nothing is built or tested on macOS.
    products: [
        .library(name: "Filmstrip", targets: ["Filmstrip"]),
        // The reference videos, for the allocation benchmarks in Benchmarks/ (a package of its own).
        .library(name: "FilmstripFixtures", targets: ["FilmstripFixtures"]),
        .executable(name: "filmstrip", targets: ["filmstrip"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        // `swift package generate-documentation --target Filmstrip` (DocC). A plugin only, used by
        // no target, so packages depending on filmstrip do not resolve it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The font rasteriser behind the contact sheets' text (antialiased glyphs of a DejaVu font).
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // glibc's malloc.h (`mallopt`), which the Glibc module leaves out: `System/`'s heap
        // perturbation, so that nothing outside `Media/` imports `CFFmpeg`.
        .systemLibrary(name: "CMalloc"),
        // The stream composer's kernel: safe flags only (AVX2 per function, by attribute), as it is
        // part of the `Filmstrip` product that other packages depend on by version.
        .target(name: "CKernels", cSettings: optimizedDebugC),
        // The OpenMP composer: -fopenmp and libomp's folder are unsafe flags, which a versioned
        // dependency may not carry, so it lives outside the `Filmstrip` product; the tool and the
        // harness register it into `Composers` at start (`FilmstripOpenMP.register()`).
        .target(
            name: "COpenMPKernels",
            dependencies: ["CKernels"],
            cSettings: [.headerSearchPath("../CKernels"), .unsafeFlags(["-fopenmp", "-O3"])],
            linkerSettings: [
                .unsafeFlags(["-L\(openMPLibraryFolder)", "-Xlinker", "-rpath", "-Xlinker", openMPLibraryFolder]),
                .linkedLibrary("omp"),
            ]
        ),
        .target(name: "FilmstripOpenMP", dependencies: ["Filmstrip", "CKernels", "COpenMPKernels"]),
        .target(
            name: "Filmstrip",
            dependencies: ["CFFmpeg", "CZlib", "CFreeType", "CMalloc", "CKernels"],
            swiftSettings: optimizedDebugSwift
        ),
        // The harness's system side, kept out of the `Filmstrip` product (as NIOPosix beside NIOCore):
        // the one child-process launcher (posix_spawn, process groups, kill at a time limit).
        .target(name: "FilmstripProcess", dependencies: ["Filmstrip", "CThreadTimes"]),
        // Each thread's on-CPU, run-queue and blocked time, threads that end early included: replaces
        // pthread_create (forwarding to glibc's) so a thread records its times as it ends; off until
        // a `bench-run` child turns it on.
        .target(name: "CThreadTimes"),
        // The synthetic reference videos (painted, encoded, cached) that the tests and the bench
        // decode; no app needs them. Optimised like the library: tests paint thousands of frames.
        .target(name: "FilmstripFixtures", dependencies: ["Filmstrip"], swiftSettings: optimizedDebugSwift),
        // Counts heap allocations by replacing malloc and its family (forwarding to glibc's).
        .target(name: "CAllocationCounter"),
        // Empty functions marking a bench child's phases for callgrind (`bench --measure instructions`).
        .target(name: "CInstructionMarks"),
        // Judging results: reading and writing the results CSV, statistics, the regression gate,
        // trend, export, the machine fingerprint and the callgrind profile readers, and the
        // judgement's JSON. Nothing here runs a measurement (`FilmstripBench` does) or renders
        // text tables and pictures (`FilmstripReport` does); nothing here starts a process.
        .target(
            name: "FilmstripResults",
            dependencies: ["Filmstrip", .product(name: "CSV", package: "CSV.swift")],
            // Optimised as the harness was: the gate's simulations and the plots' sample sets are
            // thousands of rows in the tests.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Renderings of judged results: compare's text tables, the HTML report and the charts (SVG for the report, gnuplot
        // for `plot`, started through `FilmstripProcess`), rendered from `FilmstripResults`'
        // judgement, never judging anew.
        .target(
            name: "FilmstripReport",
            dependencies: ["Filmstrip", "FilmstripResults", "FilmstripProcess"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Running measurements: the matrix, sessions, the bench-run child protocol, callgrind,
        // peers, interactive and sprite runs.
        .target(
            name: "FilmstripBench",
            dependencies: ["Filmstrip", "FilmstripResults", "FilmstripProcess", "FilmstripFixtures", "CAllocationCounter", "CInstructionMarks"],
            // The bench child paints 500 synthetic thumbnails pixel by pixel before each compose
            // run; unoptimised that takes seconds per run in the tests.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Refuses to start, before main, when an address-space limit leaves the runtime too little
        // room to reach the tool's own out-of-memory handling (it would hang or trap instead).
        .target(name: "CStartupCheck"),
        .executableTarget(
            name: "filmstrip",
            dependencies: [
                "Filmstrip", "FilmstripOpenMP", "FilmstripBench", "FilmstripResults", "FilmstripReport", "FilmstripProcess", "FilmstripFixtures", "CStartupCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The Swift runtime and Foundation linked in: the dynamic loader then binds a dozen
            // fewer libraries' symbols at every start (about 6 ms of CPU of the 40 ms start-up,
            // most of the rest being FFmpeg's 130 dependencies). The tool is started once per
            // strip, and the benchmark starts it for every timed run.
            swiftSettings: [.unsafeFlags(["-static-stdlib"])],
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld"])],
            plugins: ["BuildInfo"]
        ),
        // Writes the commit being built into the executable (`filmstrip --version`, `executable_commit`).
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // Runs the built `filmstrip` from any test target.
        .target(name: "CLITestSupport", path: "Tests/CLITestSupport"),
        // Sample result rows, machines and scratch folders for both harness test targets.
        .target(name: "ResultsTestSupport", dependencies: ["FilmstripResults", "CLITestSupport"], path: "Tests/ResultsTestSupport"),
        // One test target per module: the library (with the tool's commands on it), judging, running.
        .testTarget(name: "FilmstripTests", dependencies: ["Filmstrip", "FilmstripProcess", "FilmstripFixtures", "FilmstripResults", "FilmstripOpenMP", "COpenMPKernels", "CLITestSupport"]),
        .testTarget(name: "FilmstripResultsTests", dependencies: ["FilmstripResults", "FilmstripReport", "Filmstrip", "FilmstripProcess", "CLITestSupport", "ResultsTestSupport", .product(name: "CSV", package: "CSV.swift")]),
        .testTarget(name: "FilmstripBenchTests", dependencies: ["FilmstripBench", "FilmstripResults", "FilmstripReport", "FilmstripProcess", "FilmstripFixtures", "FilmstripOpenMP", "CLITestSupport", "ResultsTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
