import FlowSiteUtilities
import Foundation

/// Writes a site into a staging folder beside the output and swaps it in only when the whole build succeeded.
///
/// It refuses to replace a folder without its `.flowsite` marker (unless forced). Unchanged files are hard-linked
/// from the previous site, so deploys copy only what changed. A symbolic-link output is built into its target.
/// One build of an output runs at a time (lock file `.NAME.lock`); killed builds' folders are removed next time.
struct SiteWriter: Sendable {
    /// As given.
    let output: URL
    /// Whether to replace an output folder a FlowSite build did not make.
    let force: Bool
    /// The home and current folders the guard protects.
    let home: String?
    let currentFolder: String

    init(output: URL, force: Bool = false) {
        self.init(
            output: output,
            force: force,
            home: ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path,
            currentFolder: FileManager.default.currentDirectoryPath
        )
    }

    /// Tests pass their own home and current folder.
    init(output: URL, force: Bool, home: String?, currentFolder: String) {
        self.output = output.standardizedFileURL
        self.force = force
        self.home = home
        self.currentFolder = currentFolder
    }

    /// Checks the output may be replaced, takes the build lock, removes killed builds' leftovers, and stages.
    /// - Throws: ``FlowSiteError`` when another build of the output runs, when the output is not a FlowSite build's and
    ///   `force` is off, or when it is the root, home or current folder or holds one, even with `force`.
    func beginStaging(readAhead: SiteReadAhead? = nil) throws -> SiteStaging {
        try beginStaging(readAhead: readAhead, forEdit: false)!
    }

    /// Stages an edit from the journal: the spare becomes the staging folder, with its ``ManifestDifference``.
    /// `nil` (only leftovers removed) when the live manifest can't be read: then a full build must decide.
    func beginEditStaging(readAhead: SiteReadAhead?) throws -> SiteStaging? {
        try beginStaging(readAhead: readAhead, forEdit: true)
    }

    private func beginStaging(readAhead: SiteReadAhead?, forEdit: Bool) throws -> SiteStaging? {
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
        let staging = parent.appendingPathComponent(SiteLayout.siblingName(of: target, role: "staging", pid: getpid()))
        let live =
            forEdit
            ? (previous >= 0 ? readAhead?.liveManifest(in: previous) ?? SiteManifest.readBytes(from: previous) : nil)
            : nil
        if forEdit && live == nil {
            if previous >= 0 { close(previous) }
            lock.release()
            return nil
        }
        // A whole spare becomes the staging folder, renamed first so a killed build leaves an ordinary leftover.
        let spare = SiteLayout.spareTree(of: target)
        if SiteLayout.isOwnFolder(SiteLayout.spareFolder(of: target)), rename(spare.path, staging.path) == 0 {
            let folder = open(staging.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            defer { if folder >= 0 { close(folder) } }
            if let live, folder >= 0 {
                let manifestPath = staging.appendingPathComponent(SiteLayout.manifest).path
                let found =
                    readAhead?.difference(spare: folder, live: previous)
                    ?? SiteManifest.readBytes(from: folder).flatMap { bytes in
                        ManifestDifference(live: live, spare: bytes).flatMap { difference in
                            SiteManifest.FileCheck(manifest: bytes, of: folder)?.changedFiles().map { (difference, $0) }
                        }
                    }
                if let (difference, stale) = found, unlinkat(AT_FDCWD, manifestPath, 0) == 0 {
                    return SiteStaging(
                        folder: staging, output: target, previousSite: previous, lock: lock, removedLeftovers: removed,
                        difference: difference, stale: stale
                    )
                }
            } else if folder >= 0 {
                // Without its manifest the folder may be anything: it is thrown away. The file stays open for
                // the staging, which may read it again.
                let file = openat(folder, SiteLayout.manifest, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                let read = file >= 0 ? readAhead?.spareFiles(ofManifest: file) : nil
                if file >= 0,
                    let base = read
                        ?? SiteManifest.readBytes(fromFile: file).flatMap({ FileTable(manifest: $0, exact: true) }),
                    unlinkat(AT_FDCWD, staging.appendingPathComponent(SiteLayout.manifest).path, 0) == 0
                {
                    return SiteStaging(
                        folder: staging, output: target, previousSite: previous, lock: lock, removedLeftovers: removed,
                        base: (base, file),
                        readAhead: readAhead.map { ($0, read != nil) }
                    )
                }
                if file >= 0 { close(file) }
            }
            try? SiteStaging.removeTree(at: staging.path)
        }
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            if previous >= 0 { close(previous) }
            throw FlowSiteError(.fileSystem(path: staging.path, message: error.localizedDescription))
        }
        if let live {
            // No spare: every file is linked from the live site.
            guard let difference = ManifestDifference(live: live, spare: nil) else {
                try? SiteStaging.removeTree(at: staging.path)
                if previous >= 0 { close(previous) }
                lock.release()
                return nil
            }
            return SiteStaging(
                folder: staging, output: target, previousSite: previous, lock: lock, removedLeftovers: removed,
                difference: difference, stale: [])
        }
        return SiteStaging(
            folder: staging, output: target, previousSite: previous, lock: lock, removedLeftovers: removed,
            readAhead: readAhead.map { ($0, false) }
        )
    }

    /// Removes killed builds' leftovers beside an up-to-date output, under the build lock; returns their names.
    /// Removes nothing while a build holds the lock.
    static func removeLeftovers(besides output: URL) -> [String] {
        guard let real = try? SiteLayout.realPath(of: output.standardizedFileURL.path) else { return [] }
        let target = URL(fileURLWithPath: real)
        let parent = target.deletingLastPathComponent()
        guard
            let lock = try? BuildLock(
                path: parent.appendingPathComponent(".\(target.lastPathComponent).lock").path, output: real)
        else { return [] }
        defer { lock.release() }
        return removeLeftovers(of: target)
    }

    /// The output's real path, checked not to be or hold the root, home or current folder. Real paths: no
    /// symbolic link or `..` gets past.
    func guardedOutput() throws -> URL {
        let given = output.path
        let real = try SiteLayout.realPath(of: given)
        func holds(_ folder: String) -> Bool { real == folder || folder.hasPrefix(real + "/") }
        func forbidden(_ why: String) -> FlowSiteError {
            FlowSiteError(.outputForbidden(path: given, why: real == given ? why : "\(why) (it is \(real))"))
        }
        if real == "/" { throw forbidden("it is the file-system root") }
        // Unresolvable: compared as written; it can't hold the output then.
        if let home, holds((try? SiteLayout.realPath(of: home)) ?? home) {
            throw forbidden("it is the home folder or holds it")
        }
        if holds((try? SiteLayout.realPath(of: currentFolder)) ?? currentFolder) {
            throw forbidden("it is the current folder or holds it")
        }
        return URL(fileURLWithPath: real, isDirectory: true)
    }

    /// Checks an existing output is a FlowSite build's (or `force` is on) and opens it; -1 when there is none.
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
        if !contents.isEmpty && !SiteLayout.isMarked(contents) {
            close(folder)
            throw FlowSiteError(.outputNotOwned(path: path))
        }
        return folder
    }

    /// Removes folders beside `output` whose build process is gone; returns their names. The build lock is held,
    /// so a folder of our own process id is an earlier build's. A reused process id keeps its folder until it ends.
    private static func removeLeftovers(of output: URL) -> [String] {
        let parent = output.deletingLastPathComponent()
        let prefixes = SiteLayout.leftoverRoles.map { ".\(output.lastPathComponent).\($0)-" }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return [] }
        var removed: [String] = []
        for entry in entries.sorted() {
            guard let prefix = prefixes.first(where: { entry.hasPrefix($0) }) else { continue }
            let digits = entry.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                let pid = Int32(digits), pid > 0
            else { continue }
            guard pid == getpid() || processHasEnded(pid) else { continue }
            // Clean-up only: tried again next build.
            if (try? FileManager.default.removeItem(at: parent.appendingPathComponent(entry))) != nil {
                removed.append(entry)
            }
        }
        return removed
    }
}
