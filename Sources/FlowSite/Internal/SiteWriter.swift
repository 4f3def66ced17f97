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
/// folder it points at, and the link stays. One build of an output runs at a time: staging holds
/// a lock file beside the output (`.NAME.lock`) until it commits or is discarded, and staging
/// folders of builds that were killed are removed when the next build begins.
package struct SiteWriter: Sendable {
    /// The folder the site ends up in, as given.
    package let output: URL
    /// Whether to replace an output folder holocron did not make.
    package let force: Bool
    /// The home folder the guard protects.
    let home: String?
    /// The current folder the guard protects.
    let currentFolder: String

    /// The marker file that says holocron made a folder.
    package static let markerName = ".holocron"
    /// The folder that holds the stylesheet and scripts.
    package static let assetsFolder = "assets"

    package init(output: URL, force: Bool = false) {
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

    /// Checks the output folder may be replaced, takes the build lock, removes what killed builds
    /// left behind, then creates an empty staging folder.
    /// - Throws: ``FlowSiteError`` when another build of the same output is running, when the
    ///   output is not holocron's and `force` is off, or when it is a folder that must never be
    ///   replaced (the file-system root, the home or current folder, or a folder holding one of
    ///   them), however it is reached, even with `force`.
    package func beginStaging() throws -> SiteStaging {
        let target = try guardedOutput()
        let parent = target.deletingLastPathComponent()
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw FlowSiteError(.fileSystem(path: parent.path, message: error.localizedDescription))
        }
        let lock = try BuildLock(
            path: parent.appendingPathComponent(".\(target.lastPathComponent).lock").path, output: target.path)
        let previous = try checkOwnership(of: target)
        let removed = Self.removeLeftovers(of: target)
        let staging = parent.appendingPathComponent(Self.siblingName(of: target, role: "staging", pid: getpid()))
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            if previous >= 0 { close(previous) }
            throw FlowSiteError(.fileSystem(path: staging.path, message: error.localizedDescription))
        }
        return SiteStaging(folder: staging, output: target, previousSite: previous, lock: lock, removedLeftovers: removed)
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

    /// Checks an existing output is a folder holocron made (or `force` is on), and opens it for
    /// reading the previous site's files; -1 when there is no previous site.
    private func checkOwnership(of target: URL) throws -> Int32 {
        let path = target.path
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if folder < 0 {
            let code = errno
            if code == ENOENT { return -1 }
            if code == ENOTDIR {
                throw FlowSiteError(.outputForbidden(path: path, why: "it is a file, not a folder"))
            }
            throw FlowSiteError(.fileSystem(path: path, message: String(cString: strerror(code))))
        }
        if force { return folder }
        let manager = FileManager.default
        let contents: [String]
        do {
            contents = try manager.contentsOfDirectory(atPath: path)
        } catch {
            close(folder)
            throw FlowSiteError(.fileSystem(path: path, message: error.localizedDescription))
        }
        if !contents.isEmpty && !contents.contains(Self.markerName) {
            close(folder)
            throw FlowSiteError(.outputNotOwned(path: path))
        }
        return folder
    }

    /// `.NAME.ROLE-PID`, the name of a staging or old folder beside the output.
    static func siblingName(of output: URL, role: String, pid: Int32) -> String {
        ".\(output.lastPathComponent).\(role)-\(pid)"
    }

    /// Removes the staging and old folders beside `output` whose build process is gone, and
    /// returns their names. Called with the build lock held, so no live build of this output can
    /// own one of them: a folder of our own process id is a leftover of an earlier build in this
    /// process. A process id another process has taken since keeps its folder until that ends.
    private static func removeLeftovers(of output: URL) -> [String] {
        let parent = output.deletingLastPathComponent()
        let prefixes = ["staging", "old"].map { ".\(output.lastPathComponent).\($0)-" }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return [] }
        var removed: [String] = []
        for entry in entries.sorted() {
            guard let prefix = prefixes.first(where: { entry.hasPrefix($0) }) else { continue }
            let digits = entry.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                let pid = Int32(digits), pid > 0
            else { continue }
            guard pid == getpid() || (kill(pid, 0) == -1 && errno == ESRCH) else { continue }
            // Clean-up only: a folder that can't be removed now is tried again next build.
            if (try? FileManager.default.removeItem(at: parent.appendingPathComponent(entry))) != nil {
                removed.append(entry)
            }
        }
        return removed
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

/// An exclusive advisory lock (`flock`) on a file beside the output, held by one build at a time;
/// the file holds the holder's process id for the error the next build shows.
///
/// flock locks belong to the open file description, so two builds in one process exclude each
/// other too, and the kernel releases the lock of a killed build. The holder removes the file
/// when it is done; a build that locked a file removed meanwhile tries again with a fresh one.
final class BuildLock: Sendable {
    let path: String
    private let descriptor: Mutex<Int32>

    init(path: String, output: String) throws {
        while true {
            let file = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard file >= 0 else {
                throw FlowSiteError(.fileSystem(path: path, message: String(cString: strerror(errno))))
            }
            if flock(file, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR {
                    close(file)
                    continue
                }
                let holder = code == EWOULDBLOCK ? Self.holder(in: file) : nil
                close(file)
                if code == EWOULDBLOCK { throw FlowSiteError(.outputBusy(path: output, pid: holder)) }
                throw FlowSiteError(.fileSystem(path: path, message: String(cString: strerror(code))))
            }
            var locked = stat()
            var named = stat()
            guard fstat(file, &locked) == 0, lstat(path, &named) == 0,
                locked.st_dev == named.st_dev, locked.st_ino == named.st_ino
            else {
                // The previous holder removed this file between our open and flock.
                close(file)
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            guard ftruncate(file, 0) == 0, pwrite(file, pid, pid.count, 0) == pid.count else {
                let message = String(cString: strerror(errno))
                close(file)
                throw FlowSiteError(.fileSystem(path: path, message: message))
            }
            self.path = path
            self.descriptor = Mutex(file)
            return
        }
    }

    deinit { release() }

    /// Removes the lock file and releases the lock; does nothing the second time.
    func release() {
        descriptor.withLock { file in
            guard file >= 0 else { return }
            // While we hold the lock nobody else removes or replaces the file.
            unlink(path)
            close(file)
            file = -1
        }
    }

    /// The process id written in a lock file, if the holder wrote it yet.
    private static func holder(in file: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(file, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// A site being written: files go into a hidden folder beside the output until ``commit()``.
package final class SiteStaging: Sendable {
    /// The staging folder.
    package let folder: URL
    /// Where the site goes on commit: the output's real path.
    package let output: URL
    /// Staging and old folders of killed builds that were removed when this one began.
    let removedLeftovers: [String]
    /// The previous site's folder, opened when staging began (-1 when there was none).
    private let previousSite: Int32
    private let lock: BuildLock
    private let state = Mutex(State())

    struct State {
        var files: [String: Int] = [:]
        var unchanged = 0
        var finished = false
    }

    init(folder: URL, output: URL, previousSite: Int32, lock: BuildLock, removedLeftovers: [String]) {
        self.folder = folder
        self.output = output
        self.previousSite = previousSite
        self.lock = lock
        self.removedLeftovers = removedLeftovers
    }

    deinit {
        if !state.withLock({ $0.finished }) { try? FileManager.default.removeItem(at: folder) }
        if previousSite >= 0 { close(previousSite) }
        lock.release()
    }

    /// Every file written so far, by path from the site root, with its size.
    package var files: [String: Int] { state.withLock { $0.files } }
    /// How many files had the same bytes in the previous site.
    package var unchangedCount: Int { state.withLock { $0.unchanged } }

    /// Writes `data` at `path` (relative to the site root, made of safe components).
    package func write(_ data: Data, to path: String) throws {
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw FlowSiteError(.fileSystem(path: path, message: "the path would leave the site folder"))
        }
        let target = folder.appendingPathComponent(path)
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if linkUnchanged(data, at: components, to: target.path) {
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
    package func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    /// Puts the staged site in place of the output in one rename, then removes the old site and
    /// releases the build lock.
    package func commit() throws {
        try write(Data("Made by holocron. This folder is replaced whole on every build.\n".utf8), to: SiteWriter.markerName)
        let manager = FileManager.default
        let old = output.deletingLastPathComponent()
            .appendingPathComponent(SiteWriter.siblingName(of: output, role: "old", pid: getpid()))
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
        lock.release()
    }

    /// Throws the staged files away and releases the build lock.
    package func discard() {
        try? FileManager.default.removeItem(at: folder)
        state.withLock { $0.finished = true }
        lock.release()
    }

    /// Hard-links the previous site's file at `components` to `target` when it holds exactly
    /// `data`. Each folder on the way is opened without following symbolic links, so nothing
    /// outside the output is read; the link is made from the folder the bytes were read from and
    /// must be the inode that was compared, so a file replaced meanwhile is never linked.
    private func linkUnchanged(_ data: Data, at components: [String], to target: String) -> Bool {
        guard previousSite >= 0, let name = components.last else { return false }
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        var parent = previousSite
        for component in components.dropLast() {
            let next = openat(parent, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return false }
            opened.append(next)
            parent = next
        }
        let file = openat(parent, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var compared = stat()
        guard fstat(file, &compared) == 0, compared.st_mode & S_IFMT == S_IFREG, compared.st_size == data.count,
            Self.contents(of: file, equal: data),
            linkat(parent, name, AT_FDCWD, target, 0) == 0
        else { return false }
        var linked = stat()
        if lstat(target, &linked) == 0, linked.st_dev == compared.st_dev, linked.st_ino == compared.st_ino { return true }
        unlink(target)
        return false
    }

    /// Whether the open file holds exactly `data` (its size was checked already).
    private static func contents(of file: Int32, equal data: Data) -> Bool {
        var buffer = [UInt8](repeating: 0, count: min(max(data.count, 1), 64 * 1024))
        return data.withUnsafeBytes { expected in
            var offset = 0
            while offset < expected.count {
                let wanted = min(buffer.count, expected.count - offset)
                let count = pread(file, &buffer, wanted, off_t(offset))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                let same = buffer.withUnsafeBytes { memcmp($0.baseAddress!, expected.baseAddress! + offset, count) == 0 }
                guard same else { return false }
                offset += count
            }
            return true
        }
    }

    /// Writes a new file. Foundation's `Data.write` syncs every file to disk, which costs more
    /// than rendering it; the staging folder is thrown away or swapped in whole, so a crash
    /// can't leave a half-written site in place either way. A file already at `path` is replaced,
    /// never truncated: it may be a hard link into the previous site.
    private static func writeWithoutSync(_ data: Data, to path: String) throws {
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == EEXIST && unlink(path) == 0 {
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
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
