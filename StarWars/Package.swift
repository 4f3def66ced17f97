// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode plus the upcoming features that keep
/// existentials explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// Holocron: the static Star Wars character site, an app built on FlowSite (the package at the
/// top of this repository, which it depends on by path like any other app would by version).
/// This package adds what only the Star Wars site needs: SWAPI's data, the live crawler (over
/// the system's libcurl, loaded only when it fetches), the `holocron` command line and its
/// preview server.
let package = Package(
    name: "Holocron",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "holocron", targets: ["holocron"]),
        .executable(name: "cmark-floor", targets: ["cmark-floor"]),
        .executable(name: "json-reader-fuzz", targets: ["JSONReaderFuzz"])
    ],
    dependencies: [
        .package(name: "FlowSite", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0")
    ],
    targets: [
        .target(
            name: "SWAPI",
            dependencies: [
                // For StableHash, the one hash of everything stored or named.
                .product(name: "FlowSite", package: "FlowSite"),
                .product(name: "Logging", package: "swift-log")
            ],
            // The embedded snapshot of SWAPI's data, Resources/snapshot.
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "EmbedFiles", package: "FlowSite")]
        ),
        // libcurl's entry points, found with dlopen on the first request: linked, libcurl and the
        // thirty libraries it needs would load at every start of holocron, fetching or not.
        // Its header comes from Debian's libcurl4-openssl-dev (scripts/install-deps.sh).
        .target(name: "CLibcurl"),
        .target(
            name: "SWAPILive",
            dependencies: [
                "SWAPI",
                "CLibcurl",
                .product(name: "FlowSite", package: "FlowSite"),
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StarWarsApp",
            dependencies: [
                .product(name: "FlowSite", package: "FlowSite"),
                "SWAPI",
                .product(name: "Logging", package: "swift-log")
            ],
            // One string table per language, Resources/Strings/<language>.json.
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "EmbedFiles", package: "FlowSite")]
        ),
        .target(
            name: "HolocronKit",
            dependencies: [
                .product(name: "FlowSite", package: "FlowSite"),
                "SWAPI",
                "SWAPILive",
                "StarWarsApp",
                .product(name: "FlowSiteCommandLine", package: "FlowSite"),
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HolocronCLI",
            dependencies: [
                "HolocronKit",
                .product(name: "FlowSite", package: "FlowSite"),
                .product(name: "FlowSiteCommandLine", package: "FlowSite"),
                "SWAPI",
                "SWAPILive",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            swiftSettings: swiftSettings
        ),
        // SWAPI's JSON readers under libFuzzer (`make fuzz` builds it with -DFUZZING and the
        // fuzzer sanitizer); any other build makes a program that runs the same checks over
        // the files it is given, so every build compiles it.
        .executableTarget(
            name: "JSONReaderFuzz",
            dependencies: ["SWAPI"],
            path: "Fuzz",
            swiftSettings: swiftSettings
        ),
        // For `make bench` only, outside Sources: the cmark floor a build is compared with.
        .executableTarget(
            name: "cmark-floor",
            dependencies: [
                "HolocronKit", "SWAPI", "StarWarsApp",
                .product(name: "FlowSite", package: "FlowSite"),
                .product(name: "FlowSiteCommandLine", package: "FlowSite"),
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            path: "Benchmarks/CmarkFloor",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "holocron",
            dependencies: ["HolocronCLI", "HolocronKit"],
            swiftSettings: swiftSettings,
            // jemalloc instead of glibc's malloc: a build allocates and frees millions of small
            // buffers from both cores, and glibc's arenas cost it (see bench/RESULTS.md).
            // Debian's libjemalloc-dev; scripts/install-deps.sh installs it. `make tsan` builds
            // without it (HOLOCRON_TSAN): ThreadSanitizer brings its own allocator.
            // `--no-export-dynamic`: the static Swift runtime's link arguments export each of the
            // program's symbols (about 33,000) for dynamic lookup, which nothing here does; the
            // loader then binds and searches them at every start (what that costs is in
            // bench/RESULTS.md). The program stays position-independent.
            linkerSettings: (Context.environment["HOLOCRON_TSAN"] == nil
                ? [.linkedLibrary("jemalloc", .when(platforms: [.linux]))] : [])
                + [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))]
        ),
        // The library's test helpers (the folder links to the library's own). A name of its own: with the
        // library's `TestSupport` in the same build folder, each package's build would compile the other's
        // over it, and every test target above it again.
        .target(
            name: "StarWarsTestSupport",
            path: "Tests/Support/TestSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SwapiTestServer",
            // A SWAPI server on FlowSiteCommandLine's HTTP server (through `@testable import`).
            dependencies: ["SWAPI", .product(name: "FlowSiteCommandLine", package: "FlowSite")],
            path: "Tests/Support/SwapiTestServer",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SWAPITests",
            dependencies: [
                "SWAPI", "SWAPILive", "SwapiTestServer", "StarWarsTestSupport",
                .product(name: "FlowSite", package: "FlowSite"),
                .product(name: "PropertyBased", package: "swift-property-based")
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StarWarsAppTests",
            dependencies: [
                "StarWarsApp", "SWAPI", "StarWarsTestSupport",
                .product(name: "FlowSite", package: "FlowSite"),
                .product(name: "FlowSiteTesting", package: "FlowSite"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing")
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HolocronCLITests",
            dependencies: [
                "HolocronCLI", "HolocronKit", "SWAPI", "SWAPILive", "StarWarsApp", "SwapiTestServer",
                "StarWarsTestSupport", "cmark-floor",
                .product(name: "FlowSite", package: "FlowSite"),
                .product(name: "FlowSiteCommandLine", package: "FlowSite")
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
