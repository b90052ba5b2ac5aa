// swift-tools-version:6.0
import PackageDescription

// Architecture (one module per concern; every edge points down; Docs/ARCHITECTURE.md draws it):
//
//   CLibXML2, CZstd, CZlib, CSystem   C libraries through their headers (shims only)
//   TonightBase            helpers both the reader and the pipeline need: concurrency primitives,
//                          UTF-8 key order, name keys, distances and geohashes, civil dates, quoting, files
//   TonightSnapshot        the public reader library for services (Foundation, libzstd, Base)
//   TonightSnapshotWriter  the pipeline's dataset writer (seekable zstd + key index)
//   TonightCore            pipeline internals: errors, record tables, input streams, hashing, JSON
//   TonightFeed            parse-feed: libxml2 SAX2 streaming parser of the Ticketmaster feed
//   TonightAffinity        parse-affinity: the artist affinity text file, name resolution
//   TonightGeo             the bundled geocoding table, geocoder, time zones (TZif), 1° grid
//   TonightExports         load-tickets / load-playmate: RFC 4180 reader, the apps' CSV exports
//   TonightRanking         catalog and indexes, per-user lists (recommendations.md)
//   TonightGenerator       deterministic generated data sets (tiny, small, full)
//   TonightPipeline        stage graph, runner, fingerprints, lock, config, run store, publish
//   tonight                the command line (swift-argument-parser)
//   tonight-bench          the benchmark harness (medians and ratios against baselines)
let package = Package(
    name: "Tonight",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tonight", targets: ["tonight"]),
        .executable(name: "tonight-bench", targets: ["tonight-bench"]),
        .library(name: "TonightSnapshot", targets: ["TonightSnapshot"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        // `make docs`: the reader's DocC catalog (swift package generate-documentation).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(
            name: "CZstd", pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSystem"),
        .target(name: "TonightBase"),
        .target(name: "TonightSnapshot", dependencies: ["TonightBase", "CZstd"]),
        .target(name: "TonightSnapshotWriter", dependencies: ["TonightSnapshot", "TonightBase", "CZstd"]),
        .target(
            name: "TonightCore",
            dependencies: ["TonightBase", "CZstd", "CZlib", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "TonightFeed", dependencies: ["CLibXML2", "TonightCore", "TonightBase"],
            // Exclusivity checks stay on: without them the parse was no faster (A/B of
            // `tonight-bench parse-feed --other-build`, Docs/BENCHMARKS.md). The unchecked
            // variant builds with TONIGHT_EXCLUSIVITY=unchecked, to measure again.
            swiftSettings: Context.environment["TONIGHT_EXCLUSIVITY"] == "unchecked"
                ? [.unsafeFlags(["-enforce-exclusivity=unchecked"])] : []),
        .target(name: "TonightAffinity", dependencies: ["TonightCore", "TonightBase"]),
        .target(name: "TonightGeo", dependencies: ["TonightCore", "TonightBase"], resources: [.copy("Resources/geotable.tsv.zst")]),
        .target(name: "TonightExports", dependencies: ["TonightCore", "TonightBase", "TonightGeo", "CSystem"]),
        .target(name: "TonightRanking", dependencies: ["TonightCore", "TonightBase", "TonightFeed", "TonightGeo", "TonightExports", "CSystem"]),
        .target(name: "TonightGenerator", dependencies: ["TonightCore", "TonightGeo", "TonightBase"]),
        .target(
            name: "TonightPipeline",
            dependencies: [
                "TonightCore", "TonightBase", "TonightFeed", "TonightAffinity", "TonightGeo", "TonightExports",
                "TonightRanking", "TonightSnapshot", "TonightSnapshotWriter", "CSystem",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "tonight",
            dependencies: [
                "TonightPipeline", "TonightCore", "TonightBase", "TonightGenerator", "TonightSnapshot",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "tonight-bench",
            dependencies: [
                "TonightPipeline", "TonightCore", "TonightFeed", "TonightGeo", "TonightGenerator", "TonightSnapshot",
                "TonightSnapshotWriter", "TonightBase", "CZstd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Helpers every test target shares (temporary directories, shell, the tonight executable,
        // which external tools are installed).
        .target(name: "TonightTesting", path: "Tests/TonightTesting"),
        .testTarget(
            name: "TonightFeedTests",
            dependencies: ["TonightTesting", "TonightFeed", "TonightCore", "TonightBase", "TonightGenerator"],
            resources: [.copy("Resources")]),
        .testTarget(name: "TonightSnapshotTests", dependencies: ["TonightTesting", "TonightSnapshot", "TonightSnapshotWriter", "TonightBase", "TonightGenerator", "CZstd"]),
        .testTarget(name: "TonightBaseTests", dependencies: ["TonightTesting", "TonightBase", "TonightGenerator"]),
        .testTarget(name: "TonightCoreTests", dependencies: ["TonightTesting", "TonightCore", "TonightBase", "TonightGenerator"]),
        .testTarget(name: "TonightAffinityTests", dependencies: ["TonightTesting", "TonightAffinity", "TonightCore", "TonightGenerator"]),
        .testTarget(name: "TonightExportsTests", dependencies: ["TonightTesting", "TonightExports", "TonightGeo", "TonightCore", "TonightBase", "TonightGenerator"]),
        .testTarget(name: "TonightGeoTests", dependencies: ["TonightTesting", "TonightGeo", "TonightFeed", "TonightCore", "TonightBase"]),
        .testTarget(
            name: "TonightPipelineTests",
            dependencies: ["TonightTesting", 
                "TonightPipeline", "TonightFeed", "TonightAffinity", "TonightGeo", "TonightCore", "TonightGenerator",
                "TonightExports", "TonightSnapshot", "TonightSnapshotWriter", "TonightRanking", "TonightBase",
                .product(name: "Yams", package: "Yams"),
            ]),
        // The libFuzzer targets' bodies (Fuzz/targets), in every build so that they compile with
        // the code they reach; the tests run each on its seeds and on mutations of them.
        .target(
            name: "TonightFuzzTargets",
            dependencies: ["TonightFeed", "TonightAffinity", "TonightExports", "TonightGeo", "TonightRanking",
                           "TonightPipeline", "TonightSnapshot", "TonightSnapshotWriter", "TonightGenerator", "TonightCore", "TonightBase",
                           .product(name: "Logging", package: "swift-log")],
            path: "Fuzz/targets"),
        // The bench's own measurements (a command's CPU, peak and status; compare's rounds).
        .testTarget(name: "TonightBenchTests", dependencies: ["TonightTesting", "tonight-bench"]),
        .testTarget(name: "TonightFuzzTargetsTests", dependencies: ["TonightTesting", "TonightFuzzTargets", "TonightSnapshot", "TonightGenerator"]),
        // The package itself: the module graph against Docs/ARCHITECTURE.md, the documentation's
        // examples compiled against the reader library.
        .testTarget(name: "TonightProjectTests", dependencies: ["TonightTesting", "TonightSnapshot"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (scripts/fuzz.sh TARGET SECONDS): built only with TONIGHT_FUZZ=1, with
// AddressSanitizer and coverage; each `main` runs libFuzzer's driver (Fuzz/support).
if Context.environment["TONIGHT_FUZZ"] != nil {
    package.targets.append(.target(name: "TonightFuzzSupport", dependencies: ["TonightFuzzTargets"], path: "Fuzz/support"))
    for name in ["feed", "affinity", "csv", "config", "snapshot", "playmate"] {
        package.targets.append(.executableTarget(
            name: "fuzz-\(name)", dependencies: ["TonightFuzzTargets", "TonightFuzzSupport"], path: "Fuzz/\(name)"))
        package.products.append(.executable(name: "fuzz-\(name)", targets: ["fuzz-\(name)"]))
    }
}
