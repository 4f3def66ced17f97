import Foundation
import PackagePlugin

/// `swift package --disable-sandbox preview-site [--port N] [--templates DIR] [serve's options]`: runs the site
/// executable's `serve` with live reload, and when `Sources/` or `Package.swift` changes, rebuilds it and restarts
/// the server on the same port; a failed build is printed and shown on the pages. `--disable-sandbox`: on macOS
/// the plugin sandbox forbids the server to listen.
@main struct PreviewSite: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = ArgumentExtractor(arguments)
        let port = arguments.extractOption(named: "port").last ?? "8000"
        let folder = context.package.directoryURL
        // Where a failed build's log is left for the server, which shows it on the pages.
        let errors = context.pluginWorkDirectoryURL.appendingPathComponent("build-error.txt")
        try? FileManager.default.removeItem(at: errors)
        var site = try SiteExecutable(context: context, packageManager: packageManager, arguments: &arguments)
        // The server ends with this plugin: SwiftPM stops a plugin on Ctrl-C, and the server,
        // in a process group of its own, would not hear the Ctrl-C itself.
        let serve =
            ["serve", "--port", port, "--live-reload", "--error-file", errors.path, "--stop-when-input-closes"]
            + arguments.remainingArguments
        var server = try site.start(serve, in: folder, holdingInput: true)
        var seen = Self.fingerprint(of: folder)
        while server.isRunning {
            try await Task.sleep(for: .milliseconds(500))
            let now = Self.fingerprint(of: folder)
            guard now != seen else { continue }
            seen = now
            print("Code changed; building again…")
            do {
                try site.rebuild(packageManager: packageManager)
                try? FileManager.default.removeItem(at: errors)
                server.terminate()
                server.waitUntilExit()
                server = try site.start(serve, in: folder, holdingInput: true)
            } catch {
                print("\(error)")
                try? Data("\(error)".utf8).write(to: errors)
            }
        }
        if server.terminationStatus != 0 {
            throw SiteExecutable.Failure(
                description: "the site executable's serve ended with \(server.terminationStatus); its message is above")
        }
    }

    /// Every source file of the package by path, size and modification time.
    static func fingerprint(of package: URL) -> [String: String] {
        var files: [String: String] = [:]
        let manifest = package.appendingPathComponent("Package.swift")
        for root in [package.appendingPathComponent("Sources"), manifest] {
            let paths = root == manifest ? [""] : (FileManager.default.subpaths(atPath: root.path) ?? [])
            for path in paths {
                let url = path.isEmpty ? root : root.appendingPathComponent(path)
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                    attributes[.type] as? FileAttributeType == .typeRegular
                else { continue }
                files[url.path] =
                    "\(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            }
        }
        return files
    }
}
