import Foundation

/// A file as `stat` describes it: what the engine compares to tell whether a file it read is still the one there.
package struct FileIdentity: Equatable, Sendable {
    package let device: UInt64
    package let inode: UInt64
    package let size: Int
    package let isRegularFile: Bool
    package let modified: (seconds: Int, nanoseconds: Int)
    /// The status change time: writing in place and putting the modification time back still changes it.
    package let changed: (seconds: Int, nanoseconds: Int)

    package init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
        isRegularFile = status.st_mode & S_IFMT == S_IFREG
        let time = Self.modificationTime(of: status)
        modified = (Int(time.tv_sec), Int(time.tv_nsec))
        #if canImport(Darwin)
        changed = (Int(status.st_ctimespec.tv_sec), Int(status.st_ctimespec.tv_nsec))
        #else
        changed = (Int(status.st_ctim.tv_sec), Int(status.st_ctim.tv_nsec))
        #endif
    }

    /// When the file was last written, as `stat` tells it on this platform. Inlinable: the manifest's check
    /// asks it once per file of the site.
    @inlinable
    package static func modificationTime(of status: stat) -> timespec {
        #if canImport(Darwin)
        status.st_mtimespec
        #else
        status.st_mtim
        #endif
    }

    /// The identity of the open file `descriptor`.
    package init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    /// A symbolic link itself, not what it names.
    package init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    package static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.isSameFile(as: b) && a.size == b.size && a.isRegularFile == b.isRegularFile && a.modified == b.modified
            && a.changed == b.changed
    }

    /// Whether both are the same file, changed or not.
    package func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }

    /// The count of ``words``.
    package static let wordCount = 5

    /// For a record on disk. Not the status change time: another link to the file (the spare's) changes it.
    package var words: [UInt64] {
        [device, inode, UInt64(size), UInt64(bitPattern: Int64(modified.seconds)), UInt64(modified.nanoseconds)]
    }

    /// `path size seconds.nanoseconds` of the regular file at `path` (through links), as make-style checks list a
    /// file; `nil` when there is none.
    package static func listingLine(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let identity = FileIdentity(status)
        return "\(path) \(identity.size) \(identity.modified.seconds).\(identity.modified.nanoseconds)"
    }
}
