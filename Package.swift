// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode plus the upcoming features that keep
/// existentials explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Holocron",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "holocron", targets: ["holocron"]),
        .library(name: "FlowSite", targets: ["FlowSite"]),
        .library(name: "FlowSiteTesting", targets: ["FlowSiteTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        .target(
            name: "FlowSite",
            dependencies: [
                "CCmark",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SWAPI",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [
                .embedInCode("Resources/snapshot/people.json"),
                .embedInCode("Resources/snapshot/films.json"),
                .embedInCode("Resources/snapshot/planets.json"),
                .embedInCode("Resources/snapshot/species.json"),
                .embedInCode("Resources/snapshot/starships.json"),
                .embedInCode("Resources/snapshot/vehicles.json"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StarWarsApp",
            dependencies: [
                "FlowSite",
                "SWAPI",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [
                // One string table per language; each is also registered in Strings.tables.
                .embedInCode("Resources/Strings/en.json"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FlowSiteTesting",
            dependencies: [
                "FlowSite",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ExampleApp",
            dependencies: ["FlowSite"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HolocronCLI",
            dependencies: [
                "FlowSite",
                "SWAPI",
                "StarWarsApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "holocron",
            dependencies: ["HolocronCLI"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlowSiteTests",
            dependencies: [
                "FlowSite",
                "FlowSiteTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ExampleAppTests",
            dependencies: [
                "ExampleApp", "FlowSite", "FlowSiteTesting",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SwapiTestServer",
            dependencies: [
                "SWAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Support/SwapiTestServer",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SWAPITests",
            dependencies: ["SWAPI", "SwapiTestServer"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StarWarsAppTests",
            dependencies: ["StarWarsApp", "SWAPI", "FlowSite", "FlowSiteTesting"],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HolocronCLITests",
            dependencies: [
                "HolocronCLI", "FlowSite", "SWAPI", "StarWarsApp", "SwapiTestServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
