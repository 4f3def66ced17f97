// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode plus the upcoming features that keep
/// existentials explicit. No unsafe flag: a package that depends on FlowSite by version can't
/// build one. The release build of an app can still pass `-Xswiftc -cross-module-optimization`
/// (the Star Wars app's `make release` does; see bench/RESULTS.md).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// FlowSite: an MVVM-C app's navigation graph as a static site. This package is the library
/// other apps depend on; the Star Wars site (`holocron`) is an app built on it, a package of its
/// own in `StarWars/`.
let package = Package(
    name: "FlowSite",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FlowSite", targets: ["FlowSite"]),
        .library(name: "FlowSiteTesting", targets: ["FlowSiteTesting"]),
        // The site executable's command line: `SiteBuilder.runCommandLine(coordinator:)` gives
        // any app `build`, `lint`, `diff` and `graph`, parsed by swift-argument-parser.
        .library(name: "FlowSiteCommandLine", targets: ["FlowSiteCommandLine"]),
        // `swift package generate-site`, `lint-site`, `diff-site` and `preview-site` for packages
        // that use FlowSite.
        .plugin(name: "GenerateSite", targets: ["GenerateSite"]),
        .plugin(name: "DiffSite", targets: ["DiffSite"]),
        .plugin(name: "LintSite", targets: ["LintSite"]),
        .plugin(name: "PreviewSite", targets: ["PreviewSite"]),
        // Embeds the files below a target's Resources folder in its code as text
        // (`EmbeddedFiles.text(_:)`): FlowSite's templates, and the Star Wars app's data and strings.
        .plugin(name: "EmbedFiles", targets: ["EmbedFiles"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
        // Used by this package's own tests only, so a package that depends on FlowSite never
        // resolves it.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0")
    ],
    targets: [
        .plugin(
            name: "GenerateSite",
            capability: .command(
                intent: .custom(
                    verb: "generate-site",
                    description: "Build the package's app as a static site of its screens and flow.")),
            path: "Plugins/GenerateSite"
        ),
        .plugin(
            name: "DiffSite",
            capability: .command(
                intent: .custom(
                    verb: "diff-site",
                    description: "Report what changed between two built sites of the app, by screen kind.")),
            path: "Plugins/DiffSite"
        ),
        .plugin(
            name: "LintSite",
            capability: .command(
                intent: .custom(
                    verb: "lint-site",
                    description: """
                        Check the app's flow (unreachable screens, dead ends, deep pages…) as text, JSON or SARIF \
                        for code scanning.
                        """
                )),
            path: "Plugins/LintSite"
        ),
        .plugin(
            name: "PreviewSite",
            capability: .command(
                intent: .custom(
                    verb: "preview-site",
                    description:
                        "Serve the app's site with live reload, rebuilding it when the app's code or templates change.")
            ),
            path: "Plugins/PreviewSite"
        ),
        .plugin(name: "EmbedFiles", capability: .buildTool(), path: "Plugins/EmbedFiles"),
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        // Graphviz lays out the flow map at build time (Debian's libgraphviz-dev;
        // scripts/install-deps.sh installs it).
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        // ICU's CLDR plural rules pick "1 film" or "2 films" in any language (Debian's
        // libicu-dev; scripts/install-deps.sh installs it). A C target, not a system library:
        // its header hides ICU's types, which Foundation's own copy of ICU also declares.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]
        ),
        // Maps a file so that another process shortening it can't end the build with SIGBUS
        // (see FileContents.swift).
        .target(name: "CMapGuard"),
        // The rooms below the engine: internal targets (no product), reached with `package` access, so the
        // compiler keeps their arrows pointing down. FlowSiteUtilities knows nothing of FlowSite: the lock, the
        // HTML escaper and scanner, file identities and mapped files.
        .target(
            name: "FlowSiteUtilities",
            dependencies: ["CMapGuard"],
            swiftSettings: swiftSettings
        ),
        // FlowMapLayout is Graphviz's layout behind a value in and a value out: the one module that calls Graphviz.
        .target(
            name: "FlowMapLayout",
            dependencies: ["CGraphviz", "FlowSiteUtilities"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FlowSite",
            dependencies: [
                "CCmark",
                "FlowSiteUtilities",
                "FlowMapLayout",
                "CICU",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache")
            ],
            // The default templates and the review page's style, embedded by EmbedFiles.
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "FlowSiteTesting",
            dependencies: [
                "FlowSite",
                "FlowSiteUtilities",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing")
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FlowSiteCommandLine",
            dependencies: [
                "FlowSite",
                "FlowSiteUtilities",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ],
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedFiles"]
        ),
        .executableTarget(
            name: "hello-flowsite",
            dependencies: ["FlowSite"],
            path: "Examples/HelloFlowSite",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "child-coordinators",
            dependencies: ["FlowSite"],
            path: "Examples/ChildCoordinators",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TestSupport",
            path: "Tests/Support/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlowSiteTests",
            dependencies: [
                "FlowSite",
                "FlowSiteUtilities",
                "FlowMapLayout",
                "FlowSiteTesting",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based")
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlowSiteCommandLineTests",
            dependencies: ["FlowSite", "FlowSiteCommandLine", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ExampleTests",
            dependencies: ["TestSupport", "FlowSiteUtilities"],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
