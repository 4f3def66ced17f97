// swift-tools-version: 6.1
// A package that uses FlowSite the way an app team would: its site executable calls
// SiteBuilder.runCommandLine, and `swift package generate-site` / `diff-site` come from
// Holocron's plugins. PluginTests runs them on it.
import PackageDescription

let package = Package(
    name: "SitePluginFixture",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "fixture-site", targets: ["fixture-site"])],
    dependencies: [.package(name: "Holocron", path: "../../..")],
    targets: [
        .executableTarget(name: "fixture-site", dependencies: [.product(name: "FlowSite", package: "Holocron")]),
    ]
)
