import Foundation

/// Where a preview can be reached: a URL for this machine and, when listening on every address, network URLs.
struct ServeAddress: Sendable, Equatable {
    /// The URL for this machine.
    let local: String
    /// The URLs for other machines; empty unless the server listens on every address.
    let network: [String]
    /// The port asked for, when it was taken and the server moved on to ``port``.
    let requestedPort: Int?
    /// The port the server listens on.
    let port: Int

    /// The addresses of a server on `host` and `port` under `basePath`; `interfaces` are this machine's addresses.
    init(
        host: String, port: Int, requestedPort: Int, basePath: String,
        interfaces: [String] = ServeAddress.networkAddresses()
    ) {
        let everywhere = host == "0.0.0.0" || host == "::" || host == "[::]"
        let shownHost = everywhere ? "127.0.0.1" : host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        func url(_ host: String) -> String { "http://\(host):\(port)\(basePath)" }
        self.local = url(shownHost)
        self.network = everywhere ? interfaces.map { url($0.contains(":") ? "[\($0)]" : $0) } : []
        self.requestedPort = requestedPort != 0 && requestedPort != port ? requestedPort : nil
        self.port = port
    }

    /// This machine's IPv4 addresses on interfaces that are up, loopback left out, in the system's order.
    static func networkAddresses() -> [String] {
        var addresses: [String] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET)
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { socket in
                withUnsafePointer(to: socket.pointee.sin_addr) { inet_ntop(AF_INET, $0, &text, socklen_t(text.count)) }
            }
            if found != nil {
                addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return addresses
    }
}

/// Opens a URL in the default browser: `xdg-open` on Linux, `open` on macOS.
package enum BrowserOpener {
    /// Starts the opener and returns at once; the error says what to do when it can't start.
    package static func open(_ url: String) throws {
        #if os(macOS)
        let command = "open"
        #else
        let command = "xdg-open"
        #endif
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            .split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(command) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let path else { throw CannotOpen(message: "no \(command) on the PATH; open \(url) yourself") }
        let process = Process()
        process.executableURL = path
        process.arguments = [url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CannotOpen(message: "\(command) did not start (\(error)); open \(url) yourself")
        }
    }

    package struct CannotOpen: Error, CustomStringConvertible {
        package let message: String
        package var description: String { "Could not open a browser: \(message)." }
    }
}
