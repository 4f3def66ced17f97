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

    /// Runs this package's product `name` with `arguments` to its end: its exit status and standard output.
    public static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = product(name)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout)
    }
}
