import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a site into a staging folder beside the output and swaps it in only when the whole
/// build succeeded, so a failed or killed build never leaves a half-written site behind.
///
/// The writer owns its output folder: it marks it with a `.holocron` file and refuses to replace
/// a folder without that marker (unless forced). Files whose bytes did not change are hard-linked
/// from the previous site, so they keep their modification time and deploys copy only what
/// changed.
///
/// The output is taken by its real path: an output that is a symbolic link is built into the
/// folder it points at, and the link stays.
public struct SiteWriter: Sendable {
    /// The folder the site ends up in, as given.
    public let output: URL
    /// Whether to replace an output folder holocron did not make.
    public let force: Bool
    /// The home folder the guard protects.
    let home: String?
    /// The current folder the guard protects.
    let currentFolder: String

    /// The marker file that says holocron made a folder.
    public static let markerName = ".holocron"
    /// The folder that holds the stylesheet and scripts.
    public static let assetsFolder = "assets"

    public init(output: URL, force: Bool = false) {
        self.init(
            output: output,
            force: force,
            home: ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path,
            currentFolder: FileManager.default.currentDirectoryPath
        )
    }

    /// Tests pass their own home and current folder, so they need not change the process's.
    init(output: URL, force: Bool, home: String?, currentFolder: String) {
        self.output = output.standardizedFileURL
        self.force = force
        self.home = home
        self.currentFolder = currentFolder
    }

    /// Checks the output folder may be replaced, then creates an empty staging folder for it.
    /// - Throws: ``FlowSiteError`` when the output is not holocron's and `force` is off, or when
    ///   it is a folder that must never be replaced (the file-system root, the home or current
    ///   folder, or a folder holding one of them), however it is reached, even with `force`.
    public func beginStaging() throws -> SiteStaging {
        let target = try guardedOutput()
        try checkOwnership(of: target)
        let parent = target.deletingLastPathComponent()
        let name = ".\(target.lastPathComponent).staging-\(ProcessInfo.processInfo.processIdentifier)"
        let staging = parent.appendingPathComponent(name)
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: parent, withIntermediateDirectories: true)
            if manager.fileExists(atPath: staging.path) { try manager.removeItem(at: staging) }
            try manager.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw FlowSiteError(.fileSystem(path: staging.path, message: error.localizedDescription))
        }
        return SiteStaging(folder: staging, output: target)
    }

    /// The output's real path, once it is known not to be the root, home, the current folder or
    /// a folder above one of them. Comparing real paths means no symbolic link or `..` gets past.
    private func guardedOutput() throws -> URL {
        let given = output.path
        let real = try Self.realPath(of: given)
        func holds(_ folder: String) -> Bool { real == folder || folder.hasPrefix(real + "/") }
        func forbidden(_ why: String) -> FlowSiteError {
            FlowSiteError(.outputForbidden(path: given, why: real == given ? why : "\(why) (it is \(real))"))
        }
        if real == "/" { throw forbidden("it is the file-system root") }
        // A folder that can't be resolved is compared as written; it can't hold the output then.
        if let home, holds((try? Self.realPath(of: home)) ?? home) {
            throw forbidden("it is the home folder or holds it")
        }
        if holds((try? Self.realPath(of: currentFolder)) ?? currentFolder) {
            throw forbidden("it is the current folder or holds it")
        }
        return URL(fileURLWithPath: real, isDirectory: true)
    }

    /// Checks an existing output is a folder holocron made, unless `force` is on.
    private func checkOwnership(of target: URL) throws {
        let path = target.path
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw FlowSiteError(.outputForbidden(path: path, why: "it is a file, not a folder"))
        }
        if force { return }
        let marker = target.appendingPathComponent(Self.markerName).path
        let contents = (try? manager.contentsOfDirectory(atPath: path)) ?? []
        if !contents.isEmpty && !manager.fileExists(atPath: marker) {
            throw FlowSiteError(.outputNotOwned(path: path))
        }
    }

    /// The real path of an absolute `path`: symbolic links, `.` and `..` resolved by the file
    /// system. Components that do not exist yet are appended as written, and a symbolic link to
    /// something that does not exist yet resolves to that destination.
    static func realPath(of path: String, links: Int = 0) throws -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let code = errno
        guard code == ENOENT, links < 40, path != "/", let slash = path.lastIndex(of: "/") else {
            throw FlowSiteError(.fileSystem(path: path, message: String(cString: strerror(links < 40 ? code : ELOOP))))
        }
        let parent = try realPath(of: slash == path.startIndex ? "/" : String(path[..<slash]), links: links)
        // Below a component that doesn't exist nothing is a link, so `.` and `..` are lexical.
        switch path[path.index(after: slash)...] {
        case "", ".":
            return parent
        case "..":
            let above = parent[..<(parent.lastIndex(of: "/") ?? parent.startIndex)]
            return above.isEmpty ? "/" : String(above)
        case let name:
            let joined = parent == "/" ? "/" + name : parent + "/" + name
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let count = readlink(joined, &buffer, buffer.count)
            guard count > 0 else { return joined }  // not there yet
            let destination = String(decoding: buffer[..<count], as: UTF8.self)
            return try realPath(of: destination.hasPrefix("/") ? destination : parent + "/" + destination, links: links + 1)
        }
    }
}

/// A site being written: files go into a hidden folder beside the output until ``commit()``.
public final class SiteStaging: Sendable {
    /// The staging folder.
    public let folder: URL
    /// Where the site goes on commit.
    public let output: URL
    private let state = Mutex(State())

    struct State {
        var files: [String: Int] = [:]
        var unchanged = 0
        var finished = false
    }

    init(folder: URL, output: URL) {
        self.folder = folder
        self.output = output
    }

    deinit {
        if !state.withLock({ $0.finished }) { try? FileManager.default.removeItem(at: folder) }
    }

    /// Every file written so far, by path from the site root, with its size.
    public var files: [String: Int] { state.withLock { $0.files } }
    /// How many files had the same bytes in the previous site.
    public var unchangedCount: Int { state.withLock { $0.unchanged } }

    /// Writes `data` at `path` (relative to the site root, made of safe components).
    public func write(_ data: Data, to path: String) throws {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw FlowSiteError(.fileSystem(path: path, message: "the path would leave the site folder"))
        }
        let target = folder.appendingPathComponent(path)
        let previous = output.appendingPathComponent(path)
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if Self.sameBytes(data, at: previous), link(previous.path, target.path) == 0 {
                state.withLock { $0.unchanged += 1 }
            } else {
                try Self.writeWithoutSync(data, to: target.path)
            }
        } catch {
            throw FlowSiteError(.fileSystem(path: target.path, message: error.localizedDescription))
        }
        state.withLock { $0.files[path] = data.count }
    }

    /// Writes a UTF-8 string at `path`.
    public func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    /// Puts the staged site in place of the output in one rename, then removes the old site.
    public func commit() throws {
        try write(Data("Made by holocron. This folder is replaced whole on every build.\n".utf8), to: SiteWriter.markerName)
        let manager = FileManager.default
        let old = folder.deletingLastPathComponent()
            .appendingPathComponent(".\(output.lastPathComponent).old-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            if manager.fileExists(atPath: output.path) {
                if Self.exchange(folder.path, output.path) {
                    // The staging path now holds the old site.
                    try manager.removeItem(at: folder)
                } else {
                    try manager.moveItem(at: output, to: old)
                    try manager.moveItem(at: folder, to: output)
                    try manager.removeItem(at: old)
                }
            } else {
                try manager.moveItem(at: folder, to: output)
            }
        } catch {
            throw FlowSiteError(.fileSystem(path: output.path, message: error.localizedDescription))
        }
        state.withLock { $0.finished = true }
    }

    /// Throws the staged files away.
    public func discard() {
        try? FileManager.default.removeItem(at: folder)
        state.withLock { $0.finished = true }
    }

    /// Writes a new file. Foundation's `Data.write` syncs every file to disk, which costs more
    /// than rendering it; the staging folder is thrown away or swapped in whole, so a crash
    /// can't leave a half-written site in place either way.
    private static func writeWithoutSync(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                let written = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }

    private static func sameBytes(_ data: Data, at url: URL) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            (attributes[.size] as? NSNumber)?.intValue == data.count,
            (attributes[.type] as? FileAttributeType) == .typeRegular
        else { return false }
        return (try? Data(contentsOf: url)) == data
    }

    /// Swaps two paths atomically where the kernel can (Linux `renameat2` with RENAME_EXCHANGE).
    private static func exchange(_ a: String, _ b: String) -> Bool {
        #if os(Linux)
        // glibc's renameat2 isn't imported into Swift; look it up (glibc 2.28 and later).
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
        #else
        return false
        #endif
    }
}
