import FlowSiteUtilities
import Foundation

/// The staging folder's file-system calls.
extension SiteStaging {
    /// Writes a new file without a sync (which costs more than rendering it): the staging folder is swapped in
    /// whole or thrown away. A file at `path` is replaced, never truncated: it may be a hard link into the old site.
    static func writeWithoutSync(_ data: [UInt8], in folder: Int32 = AT_FDCWD, at path: String) throws -> stat {
        try writeWithoutSync(in: folder, at: path) { try writeAll(data, to: $0) }
    }

    /// Replaces, never truncates, a file at `path`; `write` fills the new one.
    static func writeWithoutSync(
        in folder: Int32 = AT_FDCWD, at path: String, _ write: (Int32) throws -> Void
    ) throws -> stat {
        var descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == EEXIST && unlinkat(folder, path, 0) == 0 {
            descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try write(descriptor)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return status
    }

    /// Writes over the file at `path` when it is a regular file with no other link (no other site shares it),
    /// reusing the spare's inode and entry. `nil`, having changed nothing, otherwise: then it must be replaced.
    static func overwriteWithoutSync(_ data: [UInt8], in folder: Int32, at path: String) throws -> stat? {
        // Not through a link; and a FIFO put there fails at once instead of waiting for a reader.
        let descriptor = openat(folder, path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else {
            return nil
        }
        try writeAll(data, to: descriptor)
        guard ftruncate(descriptor, off_t(data.count)) == 0, fstat(descriptor, &status) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return status
    }

    /// Removes a tree through folder descriptors on all cores (an old site has a folder per page). Symbolic
    /// links are removed, not followed.
    static func removeTree(at path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            if errno == ENOENT { return }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let entries = Self.entries(of: folder)
        let failure = Locked<Int32>(0)
        DispatchQueue.concurrentPerform(iterations: entries.count) { index in
            let (entry, isFolder) = entries[index]
            if !removeEntry(entry, isFolder: isFolder, in: folder) { failure.withLock { $0 = errno } }
        }
        close(folder)
        if failure.withLock({ $0 }) != 0 || rmdir(path) != 0 {
            // Something was left: let Foundation try the rest, and report what it can't.
            try FileManager.default.removeItem(atPath: (parent as NSString).appendingPathComponent(name))
        }
    }

    /// Not following links.
    private static func entries(of folder: Int32) -> [(String, Bool)] {
        (SiteStaging.names(in: folder) ?? []).map { name, type in
            var isFolder = type == UInt8(DT_DIR)
            if type == UInt8(DT_UNKNOWN) {
                var status = stat()
                isFolder =
                    fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFDIR
            }
            return (name, isFolder)
        }
    }

    /// Without `.` and `..`; `nil` when unreadable. The folder stays open.
    static func names(in folder: Int32) -> [(name: String, type: UInt8)]? {
        let copy = dup(folder)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return nil
        }
        defer { closedir(stream) }
        var names: [(name: String, type: UInt8)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append((name, entry.pointee.d_type)) }
        }
        return names
    }

    private static func removeEntry(_ name: String, isFolder: Bool, in parent: Int32) -> Bool {
        if !isFolder { return unlinkat(parent, name, 0) == 0 || errno == ENOENT }
        let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return false }
        var removed = true
        for (entry, isFolder) in entries(of: folder) where !removeEntry(entry, isFolder: isFolder, in: folder) {
            removed = false
        }
        close(folder)
        return removed && unlinkat(parent, name, AT_REMOVEDIR) == 0
    }
}
