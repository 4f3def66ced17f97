import Foundation

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
struct SiteWriter: Sendable {
    /// The folder the site ends up in, as given.
    let output: URL
    /// Whether to replace an output folder holocron did not make.
    let force: Bool
    /// The home folder the guard protects.
    let home: String?
    /// The current folder the guard protects.
    let currentFolder: String

    /// The marker file that says holocron made a folder.
    static let markerName = ".holocron"
    /// The file that lists what the build wrote, for the next build to reuse (see
    /// `SiteManifest`); like the marker, not part of what is deployed.
    static let manifestName = ".holocron-manifest"
    /// The folder that holds the stylesheet and scripts.
    static let assetsFolder = "assets"

    init(output: URL, force: Bool = false) {
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
    func beginStaging(readAhead: SiteReadAhead? = nil) throws -> SiteStaging {
        try beginStaging(readAhead: readAhead, forEdit: false)!
    }

    /// Begins the staging of an edit built from the journal: the spare generation becomes the
    /// staging folder, with what it lacks of the live site (``GenerationGap``) for the edit to
    /// make up. `nil`, having changed nothing but the leftovers of killed builds, when the live
    /// site's manifest can't be read: then a full build must decide.
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
        let staging = parent.appendingPathComponent(Self.siblingName(of: target, role: "staging", pid: getpid()))
        // An edit starts from the live site's manifest; without one, nothing is begun.
        let live =
            forEdit
            ? (previous >= 0 ? readAhead?.liveManifest(in: previous) ?? SiteManifest.readBytes(from: previous) : nil)
            : nil
        if forEdit && live == nil {
            if previous >= 0 { close(previous) }
            lock.release()
            return nil
        }
        // The spare generation, when it is whole, becomes the staging folder: the build then
        // writes only what differs from it. Renamed first, so a killed build leaves a staging
        // folder like any other, which the next build removes.
        let spare = Self.spareTree(of: target)
        if Self.isOwnFolder(Self.spareFolder(of: target)), rename(spare.path, staging.path) == 0 {
            let folder = open(staging.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            defer { if folder >= 0 { close(folder) } }
            if let live, folder >= 0 {
                let manifestPath = staging.appendingPathComponent(Self.manifestName).path
                let found =
                    readAhead?.gap(spare: folder, live: previous)
                    ?? SiteManifest.readBytes(from: folder).flatMap { bytes in
                        GenerationGap(live: live, spare: bytes).flatMap { gap in
                            SiteManifest.staleFiles(of: bytes, in: folder).map { (gap, $0) }
                        }
                    }
                if let (gap, stale) = found, unlinkat(AT_FDCWD, manifestPath, 0) == 0 {
                    return SiteStaging(
                        folder: staging, output: target, previousSite: previous, lock: lock, removedLeftovers: removed,
                        gap: gap, stale: stale
                    )
                }
            } else if folder >= 0 {
                // Without its manifest the folder may be anything: it is thrown away. The file
                // is kept open for the staging, which may read it again.
                let file = openat(folder, Self.manifestName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                let read = file >= 0 ? readAhead?.spareFiles(ofManifest: file) : nil
                if file >= 0,
                    let base = read
                        ?? SiteManifest.readBytes(fromFile: file).flatMap({ FileTable(manifest: $0, exact: true) }),
                    unlinkat(AT_FDCWD, staging.appendingPathComponent(Self.manifestName).path, 0) == 0
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
            guard let gap = GenerationGap(live: live, spare: nil) else {
                try? SiteStaging.removeTree(at: staging.path)
                if previous >= 0 { close(previous) }
                lock.release()
                return nil
            }
            return SiteStaging(
                folder: staging, output: target, previousSite: previous, lock: lock, removedLeftovers: removed,
                gap: gap, stale: [])
        }
        return SiteStaging(
            folder: staging, output: target, previousSite: previous, lock: lock, removedLeftovers: removed,
            readAhead: readAhead.map { ($0, false) }
        )
    }

    /// The folder beside `output` that keeps the generation before the live one
    /// (`.NAME.spare`): it holds a `.gitignore` that ignores it whole, and the generation in
    /// `site`. Files unchanged between the two generations are hard links to one file.
    static func spareFolder(of output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).spare")
    }

    /// Makes ``spareFolder(of:)`` when it is missing, with a `.gitignore` that ignores it
    /// whole; `false` when something else is there (a file, a link), which is never used.
    static func prepareSpareFolder(of output: URL) -> Bool {
        let spare = spareFolder(of: output)
        mkdir(spare.path, 0o755)
        guard isOwnFolder(spare) else { return false }
        let ignore = spare.appendingPathComponent(".gitignore").path
        if access(ignore, F_OK) != 0 {
            _ = try? SiteStaging.writeWithoutSync(
                Array("# holocron's previous build, kept so the next writes only what changed\n*\n".utf8), at: ignore)
        }
        return true
    }

    /// The spare generation itself, inside ``spareFolder(of:)``.
    static func spareTree(of output: URL) -> URL {
        spareFolder(of: output).appendingPathComponent("site")
    }

    /// Whether `folder` is a folder itself, not a symbolic link to one: a spare folder that
    /// leads elsewhere is never read, renamed or emptied.
    static func isOwnFolder(_ folder: URL) -> Bool {
        var status = stat()
        return lstat(folder.path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Removes what killed builds left beside an output that is otherwise up to date, under the
    /// build lock, and returns the names removed. A build that is running now holds the lock, and
    /// its folders are its own: then nothing is removed (the next build tries again).
    static func removeLeftovers(besides output: URL) -> [String] {
        guard let real = try? realPath(of: output.standardizedFileURL.path) else { return [] }
        let target = URL(fileURLWithPath: real)
        let parent = target.deletingLastPathComponent()
        guard
            let lock = try? BuildLock(
                path: parent.appendingPathComponent(".\(target.lastPathComponent).lock").path, output: real)
        else { return [] }
        defer { lock.release() }
        return removeLeftovers(of: target)
    }

    /// The output's real path, once it is known not to be the root, home, the current folder or
    /// a folder above one of them. Comparing real paths means no symbolic link or `..` gets past.
    func guardedOutput() throws -> URL {
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
        let prefixes = ["staging", "old", "journal"].map { ".\(output.lastPathComponent).\($0)-" }
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
            guard count > 0 else { return joined } // not there yet
            let destination = String(decoding: buffer[..<count], as: UTF8.self)
            return try realPath(
                of: destination.hasPrefix("/") ? destination : parent + "/" + destination, links: links + 1)
        }
    }
}
