// swift-tools-version: 6.1
// A package that uses FlowSite the way an app team would: the app is a library, its site
// executable is one line over `SiteBuilder.runCommandLine` (FlowSiteCommandLine), its tests
// snapshot the flow with FlowSiteTesting, and `swift package generate-site`, `lint-site` and
// `diff-site` come from FlowSite's plugins.
// By hand it uses the checkout around it; the adoption test writes this line over in its copy,
// to depend on a tagged copy of the repository by version.
import PackageDescription

let flowSite: Package.Dependency = .package(name: "flowsite", path: "../../..")

let package = Package(
    name: "CrewApp",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "crew-site", targets: ["crew-site"])],
    dependencies: [flowSite],
    targets: [
        .target(name: "CrewApp", dependencies: [.product(name: "FlowSite", package: "flowsite")]),
        .executableTarget(name: "crew-site", dependencies: ["CrewApp", .product(name: "FlowSiteCommandLine", package: "flowsite")]),
        .testTarget(
            name: "CrewAppTests",
            dependencies: ["CrewApp", .product(name: "FlowSiteTesting", package: "flowsite")],
            exclude: ["__Snapshots__"]
        ),
    ]
)
