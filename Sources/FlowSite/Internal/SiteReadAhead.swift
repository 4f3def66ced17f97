import Foundation

/// What a build reads of the site before it writes (the spare generation's manifest, the live
/// site's manifest, the edit journal, and whether the spare's files are still the ones its
/// manifest describes) read on a thread of its own while the caller loads its data. With a
/// journal, an edit is likely: what the spare lacks of the live site (`GenerationGap`) is
/// found here too, and the manifests are made into tables only for a full build that asks.
/// It runs while a core would otherwise be idle (the archive is put together on one).
///
/// Nothing is taken on trust: each manifest (and the check of the spare's files) is used only
/// when the file at its place, once the build holds the site's lock, is still the one read
/// (same inode, size and times) in the same folder; the journal is checked as a journal loaded
/// later would be (its checksum, the live manifest's identity it records, and the build key
/// when it is taken). A file changed by hand after the check and before the build is the one
/// thing the check can't see; a build that checks on its own way has the same window, shorter.
package final class SiteReadAhead: Sendable {
    private struct Read: @unchecked Sendable {
        /// The spare's manifest as read; parsed (``spareFiles(ofManifest:)``) only for a build that
        /// asks, when there is a journal (an edit needs only its lines).
        var spareBytes: (identity: FileIdentity, bytes: [UInt8])?
        var spare: (identity: FileIdentity, files: FileTable)?
        var liveBytes: (identity: FileIdentity, bytes: [UInt8])?
        var live: (identity: FileIdentity, files: LinkableFiles)?
        /// What an edit must make up of the live site in the spare, beside the journal.
        var gap: GenerationGap?
        // Handed to one build only (``journal()``), which reads it from one task at a time.
        var journal: StoredJournal?
        /// What a build took: "journal", "spare", "live", "checked", "gap".
        var used: Set<String> = []
        /// The check of the spare's files against its manifest, begun once the rest is read,
        /// and the folder it checks (device and inode).
        var check: (folder: FileIdentity, check: SiteManifest.StaleCheck)?
    }

    private let output: URL
    private let read = Locked(Read())
    private let finished = DispatchGroup()

    /// Starts reading what a build into `output` will read.
    package init(output: URL) {
        self.output = (try? SiteWriter(output: output, force: false).guardedOutput()) ?? output
        finished.enter()
        let target = self.output
        DispatchQueue.global().async { [self] in
            var done = Read()
            func readFile(_ path: String) -> (identity: FileIdentity, bytes: [UInt8])? {
                guard let (descriptor, identity) = Self.openFile(path) else { return nil }
                defer { close(descriptor) }
                return SiteManifest.readBytes(fromFile: descriptor).map { (identity, $0) }
            }
            done.spareBytes = readFile(
                SiteWriter.spareTree(of: target).appendingPathComponent(SiteWriter.manifestName).path)
            done.liveBytes = readFile(target.appendingPathComponent(SiteWriter.manifestName).path)
            done.journal = StoredJournal.load(for: target, buildKey: nil)
            // A multilingual site keeps a journal per language, which the build reads itself.
            let languageJournals =
                (try? FileManager.default.contentsOfDirectory(atPath: SiteWriter.spareFolder(of: target).path))?
                .contains { $0.hasPrefix(BuildJournal.name(folder: "") + "-") } ?? false
            if done.journal != nil || languageJournals {
                // An edit looks up where each link of a page it makes leads, and makes up what
                // the spare lacks of the live site.
                _ = try? done.journal?.pathTable()
                if let live = done.liveBytes {
                    done.gap = GenerationGap(live: live.bytes, spare: done.spareBytes?.bytes)
                }
            } else {
                // A full build: it keeps the spare's files by their path.
                Self.parse(&done)
            }
            // A build keeps nearly every file of the spare, each after checking it is still the
            // file its manifest describes: checked here, while the data loads, not on the
            // build's way; a build that needs the answer first checks what is left with it.
            done.check = done.spareBytes.flatMap { Self.check($0.bytes, in: SiteWriter.spareTree(of: target)) }
            let check = done.check?.check
            read.withLock { $0 = done }
            finished.leave()
            check?.work()
        }
    }

    /// Parses what was read for a build that keeps files by their path: the spare's manifest,
    /// and the live site's files that are not the spare's.
    private static func parse(_ read: inout Read) {
        if read.spare == nil, let (identity, bytes) = read.spareBytes {
            if let files = FileTable(manifest: bytes, exact: true) {
                read.spare = (identity, files)
            } else {
                read.spareBytes = nil
            }
        }
        if read.live == nil, let (identity, bytes) = read.liveBytes {
            let files =
                read.spareBytes.map { SiteManifest.linkableFiles(bytes, besidesLinesOf: $0.bytes) }
                ?? SiteManifest.linkableFiles(bytes, besides: nil)
            if let files { read.live = (identity, files) }
        }
        // Parsed for a build that keeps files by path: what an edit would use is not needed
        // again (the check holds the spare's lines for itself).
        read.gap = nil
        read.liveBytes = nil
        if read.spare != nil { read.spareBytes = nil }
    }

    /// A check of the files of the manifest `bytes` against `folder`, not yet begun.
    private static func check(
        _ bytes: [UInt8], in folder: URL
    ) -> (folder: FileIdentity, check: SiteManifest.StaleCheck)? {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let identity = FileIdentity(descriptor: descriptor),
            let check = SiteManifest.StaleCheck(manifest: bytes, folder: descriptor)
        else { return nil }
        return (identity, check)
    }

    /// The spare's files whose file was not the one its manifest describes when checked, for a
    /// build that began from that manifest (``spareFiles(ofManifest:)``) in the open folder `folder`
    /// (the spare, renamed); `nil` when they were not checked, or `folder` is another.
    func staleSpareFiles(in folder: Int32) -> Set<String>? {
        checkedFiles(in: folder).map { Set($0.map(\.path)) }
    }

    private func checkedFiles(in folder: Int32) -> [(path: String, entry: SiteManifest.Entry)]? {
        finished.wait()
        guard let checked = read.withLock({ $0.check }),
            FileIdentity(descriptor: folder)?.isSameFile(as: checked.folder) == true, let stale = checked.check.result()
        else { return nil }
        read.withLock { _ = $0.used.insert("checked") }
        return stale
    }

    /// What an edit must make up of the live site in the spare, when the manifests in the open
    /// folders `spare` (the spare, renamed) and `live` are still the files read, with the spare's
    /// files found stale (checked now when they were not checked in that folder).
    func gap(spare: Int32, live: Int32) -> (gap: GenerationGap, stale: [(path: String, entry: SiteManifest.Entry)])? {
        finished.wait()
        let (gap, spareRead, liveRead) = read.withLock { ($0.gap, $0.spareBytes, $0.liveBytes) }
        guard let gap, let spareRead, let liveRead,
            Self.identity(of: SiteWriter.manifestName, in: spare) == spareRead.identity,
            Self.identity(of: SiteWriter.manifestName, in: live) == liveRead.identity,
            let stale = checkedFiles(in: spare) ?? SiteManifest.staleFiles(of: spareRead.bytes, in: spare)
        else { return nil }
        read.withLock {
            $0.used.insert("gap")
            // Taken: the spare's lines are not needed again.
            $0.spareBytes = nil
            $0.gap = nil
        }
        return (gap, stale)
    }

    /// The live site's manifest, when the one in the open folder `folder` is still the file read.
    func liveManifest(in folder: Int32) -> [UInt8]? {
        finished.wait()
        guard let live = read.withLock({ $0.liveBytes }),
            Self.identity(of: SiteWriter.manifestName, in: folder) == live.identity
        else { return nil }
        return live.bytes
    }

    private static func openFile(_ path: String) -> (Int32, FileIdentity)? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard let identity = FileIdentity(descriptor: descriptor), identity.isRegularFile else {
            close(descriptor)
            return nil
        }
        return (descriptor, identity)
    }

    /// What a build used of what was read: "journal", "spare" (the spare's manifest), "live"
    /// (the live site's files), "checked" (the spare's check), "gap" (an edit's gap).
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

    /// The spare's files, when the open manifest file `file` is still the one read.
    func spareFiles(ofManifest file: Int32) -> FileTable? {
        finished.wait()
        guard
            let (identity, files) = read.withLock({ read in
                Self.parse(&read)
                return read.spare
            }), FileIdentity(descriptor: file) == identity
        else { return nil }
        read.withLock { _ = $0.used.insert("spare") }
        return files
    }

    /// The live site's files, when its manifest in the open folder `folder` is still the file
    /// read, and they were read beside the spare manifest the build began from
    /// (`besideReadSpare`, from ``spareFiles(ofManifest:)``) or beside none, as it began.
    func liveFiles(in folder: Int32, besideReadSpare: Bool) -> LinkableFiles? {
        finished.wait()
        let (spare, live) = read.withLock { read in
            Self.parse(&read)
            return (read.spare, read.live)
        }
        guard let live, besideReadSpare == (spare != nil),
            Self.identity(of: SiteWriter.manifestName, in: folder) == live.identity
        else { return nil }
        read.withLock { _ = $0.used.insert("live") }
        return live.files
    }

    private static func identity(of name: String, in folder: Int32) -> FileIdentity? {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return FileIdentity(descriptor: descriptor).flatMap { $0.isRegularFile ? $0 : nil }
    }
}
