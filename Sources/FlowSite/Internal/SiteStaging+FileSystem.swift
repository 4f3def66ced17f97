import Foundation

/// The file-system calls the staging folder is written and removed with: files written without
/// a sync, written over in place, and trees removed through folder descriptors.
extension SiteStaging {
    /// Writes a new file. Foundation's `Data.write` syncs every file to disk, which costs more
    /// than rendering it; the staging folder is thrown away or swapped in whole, so a crash
    /// can't leave a half-written site in place either way. A file already at `path` is replaced,
    /// never truncated: it may be a hard link into the previous site.
    static func writeWithoutSync(_ data: [UInt8], in folder: Int32 = AT_FDCWD, at path: String) throws -> stat {
        try writeWithoutSync(in: folder, at: path) { try writeAll(data, to: $0) }
    }

    /// Makes a new file at `path` (replacing, never truncating, one that is there) and lets
    /// `write` fill it through its descriptor.
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

    /// Writes `data` over the file at `path` itself when it is a regular file that no other
    /// name links to (so no other site shares it): the spare generation's stale page, whose
    /// inode, folder entry and memory are reused instead of freed and made again. `nil`, having
    /// changed nothing, when the file is anything else; then it must be replaced.
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

    static func writeAll(_ data: [UInt8], to descriptor: Int32) throws {
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

    /// Removes the folder at `path` and everything in it, through directory descriptors and
    /// on all cores: the old site of a rebuild has a folder per page, and removing them one
    /// path at a time through Foundation would be a large part of the rebuild. Symbolic links
    /// are removed, not followed.
    static func removeTree(at path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            if errno == ENOENT { return }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        // The top level's entries are shared out between the cores.
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

    /// The names in an open folder and whether each is a folder (not following links).
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

    /// The names in an open folder (without `.` and `..`) with their `d_type`, or `nil` when it
    /// can't be read; the folder stays open.
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

    /// Removes one entry of an open folder, a folder with everything in it.
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
