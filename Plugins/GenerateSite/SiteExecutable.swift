import Foundation
import PackagePlugin

/// The package's site executable (the executable product that links FlowSite, or the one named with `--product`),
/// built by SwiftPM for the plugin. The other plugins link this file.
struct SiteExecutable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let product: String
    let configuration: PackageManager.BuildConfiguration
    private(set) var url: URL

    /// Builds the product; `--product NAME` and `--configuration debug|release` are taken out
    /// of `arguments`.
    init(context: PluginContext, packageManager: PackageManager, arguments: inout ArgumentExtractor) throws {
        let requested = arguments.extractOption(named: "product").last
        let configuration = arguments.extractOption(named: "configuration").last ?? "debug"
        guard configuration == "debug" || configuration == "release" else {
            throw Failure(description: "--configuration takes debug or release, not \(configuration)")
        }
        let executables = context.package.products.compactMap { $0 as? ExecutableProduct }
        let chosen: [ExecutableProduct]
        if let requested {
            chosen = executables.filter { $0.name == requested }
        } else {
            let sites = executables.filter { product in
                product.targets.contains { target in
                    target.recursiveTargetDependencies.contains { $0.name == "FlowSite" }
                }
            }
            chosen = sites.isEmpty && executables.count == 1 ? executables : sites
        }
        guard chosen.count == 1, let product = chosen.first else {
            let names = executables.map(\.name).joined(separator: ", ")
            throw Failure(
                description: requested.map { "no executable product named \($0) (the package has: \(names))" }
                    ?? """
                    \(chosen.isEmpty ? "no" : "more than one") executable product links FlowSite (the package has: \
                    \(names)); name the site's with --product NAME
                    """
            )
        }
        self.product = product.name
        self.configuration = configuration == "release" ? .release : .debug
        url = try Self.build(product.name, configuration: self.configuration, packageManager: packageManager)
    }

    /// Builds the product again (after its code changed).
    mutating func rebuild(packageManager: PackageManager) throws {
        url = try Self.build(product, configuration: configuration, packageManager: packageManager)
    }

    private static func build(
        _ product: String, configuration: PackageManager.BuildConfiguration, packageManager: PackageManager
    ) throws -> URL {
        let result = try packageManager.build(
            .product(product), parameters: .init(configuration: configuration, logging: .concise))
        guard result.succeeded, let built = result.builtArtifacts.first(where: { $0.kind == .executable }) else {
            print(result.logText)
            throw Failure(description: "building \(product) failed:\n\(result.logText)")
        }
        return built.url
    }

    /// Starts the executable with `arguments` in `folder`, its output going to the plugin's. With `holdingInput`, its
    /// input is a pipe held open until the plugin ends, so `serve --stop-when-input-closes` ends with the plugin.
    func start(_ arguments: [String], in folder: URL, holdingInput: Bool = false) throws -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if holdingInput { process.standardInput = Pipe() }
        try process.run()
        return process
    }

    /// Runs the executable with `arguments` in `folder` to its end; its output goes to the plugin's.
    func run(_ arguments: [String], in folder: URL) throws -> Int32 {
        let process = try start(arguments, in: folder)
        process.waitUntilExit()
        return process.terminationStatus
    }
}
