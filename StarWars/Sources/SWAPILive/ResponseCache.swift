import FlowSite
import Foundation
import SWAPI

/// Successful API responses on disk, one file per URL, so later builds need no network.
///
/// Each entry is written atomically, so an interrupted fetch never leaves a half-written entry.
public struct ResponseCache: Sendable {
    /// The cache folder.
    public let folder: URL

    public init(folder: URL) { self.folder = folder }

    /// The stored body for `url`, if any.
    public func read(_ url: String) -> Data? {
        try? Data(contentsOf: file(for: url))
    }

    /// Stores `body` for `url` atomically (Foundation writes a temporary file beside it and
    /// renames it into place).
    public func write(_ body: Data, for url: String) throws {
        let target = file(for: url)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try body.write(to: target, options: .atomic)
    }

    /// `<folder>/<host_port>/<readable path>-<hash>.json`: readable, and unique per URL.
    func file(for url: String) -> URL {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let host = rest.prefix { $0 != "/" && $0 != "?" }
        let path = rest.dropFirst(host.count)
        func clean<S: StringProtocol>(_ text: S) -> String {
            let kept = text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }
            let joined = String(kept).split(separator: "-").joined(separator: "-")
            return joined.isEmpty ? "root" : String(joined.prefix(80))
        }
        return
            folder
            .appendingPathComponent(clean(host))
            .appendingPathComponent("\(clean(path))-\(Self.hashName(url)).json")
    }

    /// The text's ``StableHash`` in 64 bits, in hex (Swift's `Hasher` is seeded per process).
    static func hashName(_ text: String) -> String {
        var hash = StableHash()
        hash.combine(text)
        return String(hash.low, radix: 16)
    }
}
