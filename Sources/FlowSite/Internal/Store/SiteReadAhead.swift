import FlowSiteUtilities
import Foundation

/// Reads the manifests, the edit journal and the spare's file check on a thread of its own while the caller
/// loads its data.
///
/// Nothing is trusted: each read is used only if, under the build's lock, its file is still the one read (same
/// inode, size and times); the journal is checked as a later load would check it. A file changed by hand after
/// the check and before the build goes unseen; a build's own check has the same window, shorter.
package final class SiteReadAhead: Sendable {
    private struct Read: @unchecked Sendable {
        /// Parsed only for a build that asks when there is a journal (an edit needs only its lines).
        var spareBytes: (identity: FileIdentity, bytes: [UInt8])?
        var spare: (identity: FileIdentity, files: FileTable)?
        var liveBytes: (identity: FileIdentity, bytes: [UInt8])?
        var live: (identity: FileIdentity, files: LinkableFiles)?
        var difference: ManifestDifference?
        // Handed to one build only (``journal()``), which reads it from one task at a time.
        var journal: StoredJournal?
        /// What a build took: "journal", "spare", "live", "checked", "difference".
        var used: Set<String> = []
        /// The spare's file check and the folder (device and inode) it checks.
        var check: (folder: FileIdentity, check: SiteManifest.FileCheck)?
    }

    private let output: URL
    private let read = Locked(Read())
    private let finished = DispatchGroup()

    /// Starts reading what a build into `output` will read.
    package init(output: URL) {
        // Where the build will write: its output's real path (the build refuses a forbidden one before reading).
        self.output =
            (try? SiteLayout.realPath(of: output.standardizedFileURL.path)).map {
                URL(fileURLWithPath: $0, isDirectory: true)
            } ?? output
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
                SiteLayout.spareTree(of: target).appendingPathComponent(SiteLayout.manifest).path)
            done.liveBytes = readFile(target.appendingPathComponent(SiteLayout.manifest).path)
            done.journal = StoredJournal.load(for: target, buildKey: nil)
            // Per-language journals the build reads itself.
            let languageJournals =
                (try? FileManager.default.contentsOfDirectory(atPath: SiteLayout.spareFolder(of: target).path))?
                .contains { $0.hasPrefix(SiteLayout.journalName(folder: "") + "-") } ?? false
            if done.journal != nil || languageJournals {
                // An edit is likely.
                _ = try? done.journal?.pathTable()
                if let live = done.liveBytes {
                    done.difference = ManifestDifference(live: live.bytes, spare: done.spareBytes?.bytes)
                }
            } else {
                Self.parse(&done)
            }
            // Checked here while the data loads; a build that needs the answer first helps with what is left.
            done.check = done.spareBytes.flatMap { Self.check($0.bytes, in: SiteLayout.spareTree(of: target)) }
            let check = done.check?.check
            read.withLock { $0 = done }
            finished.leave()
            check?.work()
        }
    }

    /// Parses both manifests for a build that keeps files by path.
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
        // What an edit would use is not needed again (the check keeps the spare's lines itself).
        read.difference = nil
        read.liveBytes = nil
        if read.spare != nil { read.spareBytes = nil }
    }

    private static func check(
        _ bytes: [UInt8], in folder: URL
    ) -> (folder: FileIdentity, check: SiteManifest.FileCheck)? {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let identity = FileIdentity(descriptor: descriptor),
            let check = SiteManifest.FileCheck(manifest: bytes, of: descriptor)
        else { return nil }
        return (identity, check)
    }

    /// The spare's files found stale, when `folder` (the spare, renamed) is the one checked; else `nil`.
    func staleSpareFiles(in folder: Int32) -> Set<String>? {
        checkedFiles(in: folder).map { Set($0.map(\.path)) }
    }

    private func checkedFiles(in folder: Int32) -> [(path: String, entry: SiteManifest.Entry)]? {
        finished.wait()
        guard let checked = read.withLock({ $0.check }),
            FileIdentity(descriptor: folder)?.isSameFile(as: checked.folder) == true,
            let stale = checked.check.changedFiles()
        else { return nil }
        read.withLock { _ = $0.used.insert("checked") }
        return stale
    }

    /// The edit's difference and the spare's stale files, when both manifests are still the files read.
    func difference(
        spare: Int32, live: Int32
    ) -> (difference: ManifestDifference, stale: [(path: String, entry: SiteManifest.Entry)])? {
        finished.wait()
        let (difference, spareRead, liveRead) = read.withLock { ($0.difference, $0.spareBytes, $0.liveBytes) }
        guard let difference, let spareRead, let liveRead,
            Self.identity(of: SiteLayout.manifest, in: spare) == spareRead.identity,
            Self.identity(of: SiteLayout.manifest, in: live) == liveRead.identity,
            let stale = checkedFiles(in: spare)
                ?? SiteManifest.FileCheck(manifest: spareRead.bytes, of: spare)?.changedFiles()
        else { return nil }
        read.withLock {
            $0.used.insert("difference")
            // Taken: the spare's lines are not needed again.
            $0.spareBytes = nil
            $0.difference = nil
        }
        return (difference, stale)
    }

    /// The live manifest, when the one in `folder` is still the file read.
    func liveManifest(in folder: Int32) -> [UInt8]? {
        finished.wait()
        guard let live = read.withLock({ $0.liveBytes }),
            Self.identity(of: SiteLayout.manifest, in: folder) == live.identity
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

    /// What a build used: "journal", "spare", "live", "checked", "difference".
    var used: Set<String> { read.withLock { $0.used } }

    func isFor(_ output: URL) -> Bool { output.standardizedFileURL.path == self.output.standardizedFileURL.path }

    /// The journal, once, while it still describes the live site; `nil` when none, damaged, or outdated.
    func journal() -> StoredJournal? {
        finished.wait()
        let journal = read.withLock { read in
            defer { read.journal = nil }
            return read.journal
        }
        guard let journal, BuildJournal.manifestIdentity(of: output) == journal.manifestIdentity else { return nil }
        read.withLock { _ = $0.used.insert("journal") }
        return journal
    }

    /// The spare's files, when `file` is still the manifest read.
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

    /// The live site's files, when its manifest is still the file read, and they were read beside the same spare
    /// manifest the build began from (`besideReadSpare`) or beside none.
    func liveFiles(in folder: Int32, besideReadSpare: Bool) -> LinkableFiles? {
        finished.wait()
        let (spare, live) = read.withLock { read in
            Self.parse(&read)
            return (read.spare, read.live)
        }
        guard let live, besideReadSpare == (spare != nil),
            Self.identity(of: SiteLayout.manifest, in: folder) == live.identity
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
