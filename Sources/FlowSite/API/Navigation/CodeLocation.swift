import Foundation

/// A place in the app's source code: where a screen's page was made, or where a coordinator asked a navigator to
/// show a route. Captured with default `#fileID`, `#filePath` and `#line` arguments, so a flow lint finding
/// points at the line to change.
public struct CodeLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// `Module/File.swift`: stable on every machine, so it may appear in published pages.
    public let fileID: String
    /// The file's absolute path where it was compiled; tools make it relative to the source root.
    public let filePath: String
    /// The line, from 1.
    public let line: Int

    /// The location of the caller (by default).
    public init(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
    }

    /// ``packagePath`` and the line, `Sources/App/Setup/File.swift:42`: the one form the map, the graph, lint and
    /// coverage give a place in.
    public var description: String { "\(packagePath):\(line)" }

    /// The file's path from its package's root, `Sources/App/Setup/File.swift`: the part of ``filePath`` from the
    /// `Sources/<Module>/` or `Tests/<Module>/` folder of the module ``fileID`` names, the same on every machine.
    /// ``fileID`` when the file lies elsewhere (a target with a path of its own).
    public var packagePath: String {
        let module = fileID.prefix { $0 != "/" }
        guard !module.isEmpty else { return fileID }
        for folder in ["Sources", "Tests"] {
            if let range = filePath.range(of: "/\(folder)/\(module)/", options: .backwards) {
                return String(filePath[filePath.index(after: range.lowerBound)...])
            }
        }
        return fileID
    }

    /// The file's path relative to `root` (with or without a trailing slash) when it lies below it; `nil` otherwise.
    public func path(relativeTo root: String) -> String? {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard filePath.hasPrefix(prefix) else { return nil }
        return String(filePath.dropFirst(prefix.count))
    }

    /// The path a person opens in an editor: ``packagePath`` when the file is in its package's `Sources/<Module>/`
    /// folder (as everywhere else), else relative to `root` when the file lies below it, else the absolute path
    /// when the file is on this machine, else ``fileID``.
    public func editorPath(relativeTo root: String?) -> String {
        let inPackage = packagePath
        if inPackage != fileID { return inPackage }
        if let root, let relative = path(relativeTo: root) { return relative }
        return filePath.hasPrefix("/") && FileManager.default.fileExists(atPath: filePath) ? filePath : fileID
    }

    /// Whether the place is FlowSite's own code (a protocol's default), which names no line of the app.
    package var isFlowSites: Bool { fileID.hasPrefix("FlowSite/") }

    public static func < (lhs: CodeLocation, rhs: CodeLocation) -> Bool {
        (lhs.fileID, lhs.line) < (rhs.fileID, rhs.line)
    }
}
