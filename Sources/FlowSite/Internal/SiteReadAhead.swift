import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a build reads of the site before it writes (the spare generation's manifest, the live
/// site's manifest, the edit journal, and whether the spare's files are still the ones its
/// manifest describes) read on a thread of its own while the caller loads its data. At 100x
/// this was about a fifth of a one-record edit, done while one core was idle (the archive is
/// put together on one).
///
/// Nothing is taken on trust: each manifest (and the check of the spare's files) is used only
/// when the file at its place, once the build holds the site's lock, is still the one read
/// (same inode, size and times) in the same folder; the journal is checked as a journal loaded
/// later would be (its checksum, the live manifest's identity it records, and the build key
/// when it is taken). A file changed by hand after the check and before the build is the one
/// thing the check can't see; a build that checks on its own way has the same window, shorter.
package final class SiteReadAhead: Sendable {
    /// A file as `stat` describes it: another file at the same place, or the same file changed,
    /// differs in one of these.
    struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: [Int]
        let changed: [Int]

        init?(descriptor: Int32) {
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            let modified = SiteManifest.Entry.modified(status)
            self.modified = [Int(modified.tv_sec), Int(modified.tv_nsec)]
            #if canImport(Glibc)
            changed = [Int(status.st_ctim.tv_sec), Int(status.st_ctim.tv_nsec)]
            #else
            changed = [Int(status.st_ctimespec.tv_sec), Int(status.st_ctimespec.tv_nsec)]
            #endif
        }
    }

    private struct Read: @unchecked Sendable {
        var spare: (identity: Identity, manifest: SiteManifest)?
        var live: (identity: Identity, files: LinkableFiles)?
        // Handed to one build only (``journal()``), which reads it from one task at a time.
        var journal: StoredJournal?
        /// What a build took: "journal", "spare", "live", "checked".
        var used: Set<String> = []
        /// The spare's files checked against its manifest: the folder checked (device and
        /// inode) and the paths whose file is not the one the manifest describes.
        var checked: (folder: [UInt64], stale: Set<String>)?
    }

    private let output: URL
    private let read = Mutex(Read())
    private let finished = DispatchGroup()
    private let checkedSpare = DispatchGroup()

    /// Starts reading what a build into `output` will read.
    package init(output: URL) {
        self.output = (try? SiteWriter(output: output, force: false).guardedOutput()) ?? output
        finished.enter()
        checkedSpare.enter()
        let target = self.output
        DispatchQueue.global().async { [self] in
            defer { checkedSpare.leave() }
            var done = Read()
            var spareBytes: [UInt8]?
            if let (descriptor, identity) = Self.openFile(SiteWriter.spareTree(of: target).appendingPathComponent(SiteWriter.manifestName).path) {
                defer { close(descriptor) }
                spareBytes = SiteManifest.readBytes(fromFile: descriptor)
                if let manifest = spareBytes.flatMap({ SiteManifest(bytes: $0) }) { done.spare = (identity, manifest) } else { spareBytes = nil }
            }
            if let (descriptor, identity) = Self.openFile(target.appendingPathComponent(SiteWriter.manifestName).path) {
                defer { close(descriptor) }
                let bytes = SiteManifest.readBytes(fromFile: descriptor)
                let files = spareBytes.map { spare in bytes.flatMap { SiteManifest.linkableFiles($0, besidesLinesOf: spare) } } ?? bytes.flatMap { SiteManifest.linkableFiles($0, besides: nil) }
                if let files { done.live = (identity, files) }
            }
            spareBytes = nil
            done.journal = StoredJournal.load(for: target, buildKey: nil)
            // An edit looks up where each link of a page it makes leads.
            _ = try? done.journal?.pathTable()
            let spareManifest = done.spare?.manifest
            let hasJournal = done.journal != nil
            read.withLock { $0 = done }
            finished.leave()
            // An edit keeps nearly every file of the spare, each after checking it is still the
            // file its manifest describes: checked here, while the data loads, not on the
            // edit's way.
            guard hasJournal, let spareManifest else { return }
            let checked = Self.check(spareManifest, in: SiteWriter.spareTree(of: target))
            read.withLock { $0.checked = checked }
        }
    }

    /// The paths of `manifest` whose file in `folder` is not the one it describes.
    private static func check(_ manifest: SiteManifest, in folder: URL) -> (folder: [UInt64], stale: Set<String>)? {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let identity = folderIdentity(descriptor) else { return nil }
        var stale: Set<String> = []
        var status = stat()
        for (path, entry) in manifest.files {
            // `withCString`: passing the String itself copied it into a new C string each time.
            let found = path.withCString { fstatat(descriptor, $0, &status, AT_SYMLINK_NOFOLLOW) } == 0
            if !(found && entry.matches(status)) { stale.insert(path) }
        }
        return (identity, stale)
    }

    private static func folderIdentity(_ descriptor: Int32) -> [UInt64]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// The spare's files whose file was not the one its manifest describes when checked, for a
    /// build that began from that manifest (``spareManifest(in:)``) in the open folder `folder`
    /// (the spare, renamed); `nil` when they were not checked, or `folder` is another.
    func staleSpareFiles(in folder: Int32) -> Set<String>? {
        checkedSpare.wait()
        guard let checked = read.withLock({ $0.checked }), Self.folderIdentity(folder) == checked.folder else { return nil }
        read.withLock { _ = $0.used.insert("checked") }
        return checked.stale
    }

    private static func openFile(_ path: String) -> (Int32, Identity)? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard let identity = Identity(descriptor: descriptor) else {
            close(descriptor)
            return nil
        }
        return (descriptor, identity)
    }

    /// What a build used of what was read: "journal", "spare" (the spare's manifest), "live"
    /// (the live site's files).
    var used: Set<String> { read.withLock { $0.used } }

    /// Whether this reads ahead for a build into `output`.
    func isFor(_ output: URL) -> Bool { output.standardizedFileURL.path == self.output.standardizedFileURL.path }

    /// The journal read, once, while it still describes the live site (whose manifest it
    /// records): `nil` when there was none, it was damaged, or another build came since.
    func journal() -> StoredJournal? {
        finished.wait()
        let journal = read.withLock { read in
            defer { read.journal = nil }
            return read.journal
        }
        guard let journal, BuildJournal.manifestStamp(of: output) == journal.stamp else { return nil }
        read.withLock { _ = $0.used.insert("journal") }
        return journal
    }

    /// The spare's manifest, when the one in the open folder `folder` is still the file read.
    func spareManifest(in folder: Int32) -> SiteManifest? {
        finished.wait()
        guard let (identity, manifest) = read.withLock({ $0.spare }), Self.identity(of: SiteWriter.manifestName, in: folder) == identity else { return nil }
        read.withLock { _ = $0.used.insert("spare") }
        return manifest
    }

    /// The live site's files, when its manifest in the open folder `folder` is still the file
    /// read, and they were read beside the spare manifest the build began from
    /// (`besideReadSpare`, from ``spareManifest(in:)``) or beside none, as it began.
    func liveFiles(in folder: Int32, besideReadSpare: Bool) -> LinkableFiles? {
        finished.wait()
        let (spare, live) = read.withLock { ($0.spare, $0.live) }
        guard let live, besideReadSpare == (spare != nil), Self.identity(of: SiteWriter.manifestName, in: folder) == live.identity else { return nil }
        read.withLock { _ = $0.used.insert("live") }
        return live.files
    }

    private static func identity(of name: String, in folder: Int32) -> Identity? {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return Identity(descriptor: descriptor)
    }
}

/// What a command-line build leaves to the end of its process instead of freeing: at the end
/// of an edit at 100x, unmapping the journal and freeing the manifests' dictionaries (tens of
/// thousands of Strings each) was about 5 % of the edit, and the process's exit gives all of
/// its memory back at once. Only a process that ends after the build may keep anything here.
package enum ProcessLeftovers {
    private static let kept = Mutex<[any AnyObject & Sendable]>([])

    package static func keep(_ objects: [any AnyObject & Sendable]) {
        kept.withLock { $0.append(contentsOf: objects) }
    }
}

/// A value kept in ``ProcessLeftovers``.
package final class LeftoverBox<Value>: @unchecked Sendable {
    let value: Value
    package init(_ value: Value) { self.value = value }
}
