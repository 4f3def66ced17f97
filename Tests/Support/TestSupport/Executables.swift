import Foundation

/// Finding the programs tests run: tools on PATH and this package's own built products.
public enum Executables {
    /// The first of `names` found on PATH, or `nil`.
    public static func onPath(_ names: String...) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in names {
                let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// Node, for tests that run the site's scripts; `make test` installs it when missing.
    public static let node = onPath("node", "nodejs")

    /// A product this package builds, such as `holocron`: the test bundle sits beside the
    /// products in `.build/<config>/`.
    public static func product(_ name: String) -> URL {
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        for candidate in [folder, folder.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return folder.appendingPathComponent(name)
    }
}
