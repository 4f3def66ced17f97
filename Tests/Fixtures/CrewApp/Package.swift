// swift-tools-version: 6.1
// A package that uses FlowSite the way an app team would: the app is a library, its site
// executable is one line over `SiteBuilder.runCommandLine`, its tests snapshot the flow with
// FlowSiteTesting, and `swift package generate-site` / `diff-site` come from FlowSite's plugins.
// The adoption test points it at a tagged copy of this repository by version
// (FLOWSITE_URL=file:///…); by hand it uses the checkout around it.
import PackageDescription

let flowSite: Package.Dependency = Context.environment["FLOWSITE_URL"].map { .package(url: $0, from: "0.1.0") }
    ?? .package(name: "flowsite", path: "../../..")

let package = Package(
    name: "CrewApp",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "crew-site", targets: ["crew-site"])],
    dependencies: [flowSite],
    targets: [
        .target(name: "CrewApp", dependencies: [.product(name: "FlowSite", package: "flowsite")]),
        .executableTarget(name: "crew-site", dependencies: ["CrewApp", .product(name: "FlowSite", package: "flowsite")]),
        .testTarget(
            name: "CrewAppTests",
            dependencies: ["CrewApp", .product(name: "FlowSiteTesting", package: "flowsite")],
            exclude: ["__Snapshots__"]
        ),
    ]
)
