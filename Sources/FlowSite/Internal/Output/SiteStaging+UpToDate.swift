import FlowSiteUtilities
import Foundation
import Synchronization

/// An edit's spare brought up to the live site, file by file, without a walk.
extension SiteStaging {
    /// Links each live file the spare lacks or holds changed (but `written`, which the edit writes) after checking
    /// it is intact, and removes the spare's extra paths. `false` when a live file was changed by hand: then a
    /// full build must decide.
    func bringUpToDate(leaving written: Set<String>) -> Bool {
        guard let difference, previousSite >= 0, staged >= 0 else { return false }
        let missing = difference.missing
        var links = missing.filter { !written.contains($0.path) }
        if !staleSpare.isEmpty {
            // A stale file whose line matches the live one: linked again from the live site.
            let handled = Set(missing.map(\.path)).union(difference.extra).union(written)
            links += staleSpare.filter { !handled.contains($0.path) }
        }
        removeStale(difference.extra)
        let all = links
        let intact = Atomic<Bool>(true)
        let lanes = all.count < 4096 ? 1 : max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            let share = (all.count + lanes - 1) / lanes
            for (path, entry) in all[min(all.count, lane * share)..<min(all.count, (lane + 1) * share)] {
                guard intact.load(ordering: .relaxed) else { return }
                if !link(path, entry: entry) { intact.store(false, ordering: .relaxed) }
            }
        }
        return intact.load(ordering: .relaxed)
    }

    /// Links the live file at `path` over the spare's, when it is still the file `entry` describes.
    func link(_ path: String, entry: SiteManifest.Entry) -> Bool {
        var status = stat()
        guard fstatat(previousSite, path, &status, AT_SYMLINK_NOFOLLOW) == 0, entry.matches(status) else {
            return false
        }
        if base != nil || difference != nil { clearLinks(above: path) }
        guard (try? ensureFolder(of: path)) != nil else { return false }
        // The spare's file makes way, never written through: it may share its inode with the live site.
        if linkat(previousSite, path, staged, path, 0) != 0 {
            guard errno == EEXIST, unlinkat(staged, path, 0) == 0, linkat(previousSite, path, staged, path, 0) == 0
            else { return false }
        }
        var linked = stat()
        guard fstatat(staged, path, &linked, AT_SYMLINK_NOFOLLOW) == 0,
            FileIdentity(linked).isSameFile(as: FileIdentity(status))
        else {
            unlinkat(staged, path, 0)
            return false
        }
        return true
    }

    /// From the spare's manifest, read again.
    func spareOnly(besides files: WrittenFiles) -> [String] {
        guard baseFile >= 0, lseek(baseFile, 0, SEEK_SET) == 0, let bytes = SiteManifest.readBytes(fromFile: baseFile)
        else { return [] }
        var paths: [String] = []
        _ = SiteManifest.forEachFileLine(of: bytes) { line in
            if let (_, path) = SiteManifest.file(line) {
                let name = String(decoding: path, as: UTF8.self)
                if files[name] == nil { paths.append(name) }
            }
            return true
        }
        return paths
    }

    /// Removes spare files this build did not write, and the folders that leaves empty.
    func removeStale(_ paths: [String]) {
        for path in paths {
            clearLinks(above: path)
        }
        for path in paths where unlinkat(staged, path, 0) == 0 || errno == ENOENT {
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                if unlinkat(staged, String(folder), AT_REMOVEDIR) != 0 { break }
            }
        }
    }

    /// Removes a symbolic link or file standing where a folder above `path` should be: the spare was the live site,
    /// where anyone may have put a link, and writing through it would change a folder elsewhere. Each prefix is
    /// checked after the one above it, so none is followed.
    func clearLinks(above path: String) {
        var end = path.utf8.startIndex
        let bytes = path.utf8
        while let slash = bytes[end...].firstIndex(of: UInt8(ascii: "/")) {
            let prefix = String(path[..<slash])
            var status = stat()
            guard fstatat(staged, prefix, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return }
            if status.st_mode & S_IFMT != S_IFDIR {
                checkedAheadHolds.store(false, ordering: .releasing)
                unlinkat(staged, prefix, 0)
                return
            }
            end = bytes.index(after: slash)
        }
    }
}
