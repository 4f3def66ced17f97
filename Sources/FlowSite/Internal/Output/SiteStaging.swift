import FlowSiteUtilities
import Foundation
import Synchronization

/// A site being written: files go into a hidden folder beside the output until ``commit()``.
final class SiteStaging: Sendable {
    let folder: URL
    /// The output's real path.
    let output: URL
    /// Staging and old folders of killed builds, removed when this one began.
    let removedLeftovers: [String]
    /// The previous site's folder, open (-1 when there was none).
    let previousSite: Int32
    /// The staging folder, open: files are made relative to it.
    let staged: Int32
    /// The previous build's files that the spare doesn't hold as they are, by their path's hash.
    let previousManifest: LinkableFiles?
    /// The spare's manifest that staging began from; `nil` when it began empty.
    let base: FileTable?
    /// That manifest's file, open though unlinked: read again at commit for spare paths not written.
    let baseFile: Int32
    /// The spare's files that ``SiteReadAhead`` found changed, when it checked them against `base`.
    private let staleInBase: Set<String>?
    /// Cleared by ``clearLinks(above:)``: the read-ahead check no longer holds for the files below.
    let checkedAheadHolds = Atomic<Bool>(true)
    /// For an edit: what the staging folder lacks of the live site, made up by ``bringUpToDate(leaving:)``.
    let difference: ManifestDifference?
    /// For an edit: the spare's files that differ from its manifest.
    let staleSpare: [(path: String, entry: SiteManifest.Entry)]
    private let lock: BuildLock
    private let state = Locked(State())

    struct State {
        /// Every file written or kept, in order.
        var manifest = WrittenFiles()
        var unchanged = 0
        /// Paths written that the spare has too: when all of them, no stale file is left.
        var baseHits = 0
        var finished = false
        /// Set by ``discard()``: no piecewise write begins after it.
        var discarded = false
    }

    /// Piecewise writes (``write(to:_:)``) in flight: ``discard()`` waits for them before removing the folder.
    private let pieceWriters = DispatchGroup()

    /// `readAhead`: what was read before the lock was taken, and whether `base` is the spare manifest it read.
    init(
        folder: URL, output: URL, previousSite: Int32, lock: BuildLock, removedLeftovers: [String],
        base: (files: FileTable, file: Int32)? = nil,
        readAhead: (read: SiteReadAhead, base: Bool)? = nil
    ) {
        self.folder = folder
        self.output = output
        self.previousSite = previousSite
        self.staged = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // Files the spare shares with the live site need only the spare's entry: one manifest in memory, not two.
        self.previousManifest =
            previousSite < 0
            ? nil
            : readAhead.flatMap { $0.read.liveFiles(in: previousSite, besideReadSpare: $0.base) }
                ?? SiteManifest.readBytes(from: previousSite).flatMap {
                    SiteManifest.linkableFiles($0, besides: base?.files)
                }
        self.base = base?.files
        self.baseFile = base?.file ?? -1
        let staged = self.staged
        self.staleInBase =
            base != nil && staged >= 0 ? readAhead.flatMap { $0.base ? $0.read.staleSpareFiles(in: staged) : nil } : nil
        if let count = base?.files.count ?? previousManifest?.count {
            state.withLock { state in
                state.manifest.reserveCapacity(count + 16)
            }
        }
        self.lock = lock
        self.removedLeftovers = removedLeftovers
        self.difference = nil
        self.staleSpare = []
    }

    /// An edit's staging: `folder` holds the spare (or nothing); `stale` lists its files that differ from its manifest.
    init(
        folder: URL, output: URL, previousSite: Int32, lock: BuildLock, removedLeftovers: [String],
        difference: ManifestDifference,
        stale: [(path: String, entry: SiteManifest.Entry)]
    ) {
        self.folder = folder
        self.output = output
        self.previousSite = previousSite
        self.staged = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        self.previousManifest = nil
        self.base = nil
        self.baseFile = -1
        self.staleInBase = nil
        self.lock = lock
        self.removedLeftovers = removedLeftovers
        self.difference = difference
        self.staleSpare = stale
    }

    deinit {
        if !state.withLock({ $0.finished }) { try? FileManager.default.removeItem(at: folder) }
        if previousSite >= 0 { close(previousSite) }
        if staged >= 0 { close(staged) }
        if baseFile >= 0 { close(baseFile) }
        lock.release()
    }

    /// Every file written so far with its size.
    var files: [String: Int] {
        state.withLock { state in
            Dictionary(zip(state.manifest.paths, state.manifest.entries.lazy.map(\.size)), uniquingKeysWith: { $1 })
        }
    }
    var fileCount: Int { state.withLock { $0.manifest.count } }
    var paths: Set<String> { state.withLock { Set($0.manifest.paths) } }
    func holds(_ path: String) -> Bool { state.withLock { $0.manifest[path] != nil } }
    func paths(since count: Int) -> [String] { state.withLock { Array($0.manifest.paths[count...]) } }
    /// Calls `body` with every file written so far and its fingerprint, under the lock: keep it short.
    func forEachFingerprint(_ body: (String, StableHash) -> Void) {
        state.withLock { state in
            for (path, entry) in zip(state.manifest.paths, state.manifest.entries) { body(path, entry.fingerprint) }
        }
    }
    var totalBytes: Int { state.withLock { $0.manifest.entries.reduce(0) { $0 + $1.size } } }
    /// Files with the same bytes as in the previous site.
    var unchangedCount: Int { state.withLock { $0.unchanged } }

    /// Writes `data` at `path` (relative to the site root); the previous build's identical file is linked instead.
    func write(_ data: Data, to path: String) throws {
        try write(Array(data), to: path, fingerprint: nil)
    }

    /// Writes `bytes` at `path`. `fingerprint` stands for what decided the bytes (default: their hash);
    /// when the previous build's file there has it and is intact, that file is linked instead.
    func write(_ bytes: [UInt8], to path: String, fingerprint: StableHash?) throws {
        try checkPath(path)
        let fingerprint =
            fingerprint
            ?? {
                var hash = StableHash()
                hash.combine(bytes)
                return hash
            }()
        if reuse(path, fingerprint: fingerprint) { return }
        do {
            if base != nil || difference != nil { clearLinks(above: path) }
            var written: stat?
            let inBase = base?[path] != nil
            if inBase {
                // Written over when the spare's alone; otherwise unlinked first.
                written = try Self.overwriteWithoutSync(bytes, in: staged, at: path)
                if written == nil { unlinkat(staged, path, 0) }
            }
            if written == nil { try ensureFolder(of: path) }
            let status = try written ?? Self.writeWithoutSync(bytes, in: staged, at: path)
            record(
                path,
                SiteManifest.Entry(
                    fingerprint: fingerprint, size: bytes.count, inode: UInt64(status.st_ino),
                    modified: FileIdentity.modificationTime(of: status)
                ), inBase: inBase)
        } catch {
            throw FlowSiteError(
                .fileSystem(path: folder.appendingPathComponent(path).path, message: error.localizedDescription))
        }
    }

    /// Writes a file that `produce` emits in pieces, a megabyte at a time: for whole-site indexes, never held whole.
    /// Fingerprint is the bytes' hash; when the previous build left the same bytes, its file is kept or linked.
    func write(to path: String, _ produce: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try checkPath(path)
        let begun = state.withLock { state in
            if !state.discarded { pieceWriters.enter() }
            return !state.discarded
        }
        guard begun else {
            throw FlowSiteError(
                .fileSystem(
                    path: folder.appendingPathComponent(path).path,
                    message: "the build was given up before this file was written"))
        }
        defer { pieceWriters.leave() }
        // Written under a name no page has, then renamed into place.
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path.utf8.index(after: $0) } ?? path.startIndex
        let part = String(path[..<slash]) + "." + String(path[slash...]) + SiteLayout.partSuffix
        do {
            if base != nil || difference != nil { clearLinks(above: path) }
            try ensureFolder(of: path)
            var hash = StableHash.Pieces()
            let status: stat
            do {
                status = try Self.writeWithoutSync(in: staged, at: part) { descriptor in
                    let chunk = 1 << 20
                    var buffer: [UInt8] = []
                    buffer.reserveCapacity(chunk + 4096)
                    try produce { piece in
                        hash.add(piece)
                        buffer.append(contentsOf: piece)
                        if buffer.count >= chunk {
                            try writeAll(buffer, to: descriptor)
                            buffer.removeAll(keepingCapacity: true)
                        }
                    }
                    try writeAll(buffer, to: descriptor)
                }
            } catch {
                unlinkat(staged, part, 0)
                throw error
            }
            let fingerprint = hash.finish()
            if reuse(path, fingerprint: fingerprint) {
                unlinkat(staged, part, 0)
                return
            }
            // A rename replaces only the spare's folder entry, never a file shared with the live site.
            guard renameat(staged, part, staged, path) == 0 else {
                let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                unlinkat(staged, part, 0)
                throw failure
            }
            record(
                path,
                SiteManifest.Entry(
                    fingerprint: fingerprint, size: hash.count, inode: UInt64(status.st_ino),
                    modified: FileIdentity.modificationTime(of: status)
                ), inBase: base?[path] != nil)
        } catch let error as FlowSiteError {
            throw error
        } catch {
            throw FlowSiteError(
                .fileSystem(path: folder.appendingPathComponent(path).path, message: error.localizedDescription))
        }
    }

    /// Keeps the spare's or links the previous build's file at `path` when it has `fingerprint` and is intact
    /// (same inode, size and modification time, not a symbolic link). Returns whether it did.
    func reuse(_ path: String, fingerprint: StableHash) -> Bool {
        let held = base?[path]
        if let held, held.fingerprint == fingerprint {
            var status = stat()
            let checkedAhead = checkedAheadHolds.load(ordering: .acquiring) ? staleInBase : nil
            if checkedAhead.map({ !$0.contains(path) })
                ?? (fstatat(staged, path, &status, AT_SYMLINK_NOFOLLOW) == 0 && held.matches(status))
            {
                record(path, held, inBase: true)
                state.withLock { $0.unchanged += 1 }
                return true
            }
        }
        guard previousSite >= 0, let entry = previousManifest?[path], entry.fingerprint == fingerprint,
            link(path, entry: entry)
        else { return false }
        record(path, entry, inBase: held != nil)
        state.withLock { $0.unchanged += 1 }
        return true
    }

    /// `inBase`: the spare has a file at `path`.
    private func record(_ path: String, _ entry: SiteManifest.Entry, inBase: Bool) {
        state.withLock {
            if $0.manifest.set(path, entry), inBase { $0.baseHits += 1 }
        }
    }

    private func checkPath(_ path: String) throws {
        guard staged >= 0, Self.isSafe(path) else {
            throw FlowSiteError(
                .fileSystem(
                    path: path,
                    message: staged < 0
                        ? "the staging folder could not be opened" : "the path would leave the site folder"))
        }
    }

    /// Whether `path` stays inside the site folder: no empty, `.` or `..` component.
    static func isSafe(_ path: String) -> Bool {
        var componentLength = 0
        var dots = 0
        var valid = !path.isEmpty
        for byte in path.utf8 where valid {
            if byte == UInt8(ascii: "/") {
                valid = componentLength > 0 && dots != componentLength
                componentLength = 0
                dots = 0
            } else {
                componentLength += 1
                if byte == UInt8(ascii: ".") && dots == componentLength - 1 && componentLength <= 2 { dots += 1 }
            }
        }
        return valid && componentLength > 0 && dots != componentLength
    }

    func ensureFolder(of path: String) throws {
        try Self.ensureFolder(of: path, in: staged)
    }

    /// Creates the folders above `path` in `folder`: the parent first, from the top only if an ancestor is missing.
    static func ensureFolder(of path: String, in folder: Int32) throws {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return }
        let parent = String(path[..<slash])
        if mkdirat(folder, parent, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var prefix = ""
        for component in parent.split(separator: "/") {
            prefix += prefix.isEmpty ? String(component) : "/" + component
            let made = mkdirat(folder, prefix, 0o755)
            guard made == 0 || errno == EEXIST else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
    }

    func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    /// Writes the marker and manifest, then swaps the staged site in (``swapIn()``).
    func commit(inputs: String? = nil, pages: Int = 0, lint: (findings: Int, summary: String)? = nil) throws {
        let manifestPath = folder.appendingPathComponent(SiteLayout.manifest).path
        if let difference {
            // An edit: every file but those written is the live site's, marker included.
            let written = state.withLock {
                Dictionary(zip($0.manifest.paths, $0.manifest.entries), uniquingKeysWith: { $1 })
            }
            guard let bytes = difference.patchedManifest(inputs: inputs, pages: pages, changed: written) else {
                throw FlowSiteError(
                    .fileSystem(path: manifestPath, message: "a file the edit wrote is not in the live site's manifest")
                )
            }
            do {
                _ = try Self.writeWithoutSync(bytes, at: manifestPath)
            } catch {
                throw FlowSiteError(.fileSystem(path: manifestPath, message: error.localizedDescription))
            }
            try swapIn()
            return
        }
        try write(Data(SiteManifest.header.utf8), to: SiteLayout.marker)
        // Read once: nothing is written after the marker.
        let (files, baseHits) = state.withLock { ($0.manifest, $0.baseHits) }
        if let base, baseHits < base.count { removeStale(spareOnly(besides: files)) }
        do {
            _ = try Self.writeWithoutSync(at: manifestPath) {
                try files.writeManifest(inputs: inputs, pages: pages, lint: lint, to: $0)
            }
        } catch {
            throw FlowSiteError(.fileSystem(path: manifestPath, message: error.localizedDescription))
        }
        try swapIn()
    }

    /// Puts the staging folder in place of the output in one rename; keeps the old site as the spare.
    private func swapIn() throws {
        let manager = FileManager.default
        let old = output.deletingLastPathComponent()
            .appendingPathComponent(SiteLayout.siblingName(of: output, role: "old", pid: getpid()))
        do {
            if manager.fileExists(atPath: output.path) {
                if Self.exchange(folder.path, output.path) {
                    // The staging path now holds the old site: the next build's spare.
                    state.withLock { $0.finished = true }
                    keepAsSpare(folder)
                } else {
                    try manager.moveItem(at: output, to: old)
                    try manager.moveItem(at: folder, to: output)
                    state.withLock { $0.finished = true }
                    keepAsSpare(old)
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

    /// Moves the replaced site to the spare folder for the next build; when that fails, removes it.
    private func keepAsSpare(_ old: URL) {
        let tree = SiteLayout.spareTree(of: output)
        guard SiteLayout.prepareSpareFolder(of: output) else {
            try? Self.removeTree(at: old.path)
            return
        }
        try? Self.removeTree(at: tree.path)
        if rename(old.path, tree.path) != 0 { try? Self.removeTree(at: old.path) }
    }

    /// Removes the staged files and releases the build lock.
    func discard() {
        state.withLock { $0.discarded = true }
        pieceWriters.wait()
        try? FileManager.default.removeItem(at: folder)
        state.withLock { $0.finished = true }
        lock.release()
    }

    /// Swaps two paths atomically: Linux's `renameat2` with RENAME_EXCHANGE, Darwin's `renamex_np` with
    /// RENAME_SWAP. `false` where the kernel or file system can't; the caller then moves the old site aside
    /// and the new one in, two renames with a moment between them when there is no site.
    private static func exchange(_ a: String, _ b: String) -> Bool {
        #if canImport(Darwin)
        return renamex_np(a, b, UInt32(RENAME_SWAP)) == 0
        #elseif os(Linux)
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
