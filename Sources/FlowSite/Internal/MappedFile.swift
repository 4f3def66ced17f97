import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file mapped read-only: the journal, the manifest and the page index are read this
/// way, megabytes at scale, without a copy or a page fault per page of a fresh buffer. The
/// manifest and the page index are replaced by a rename, never written in place, so the mapped
/// pages stay what was opened; the journal is only appended to and written over, never
/// shortened, and its checksums say whether what was read is whole.
enum MappedFile {
    /// The bytes of the open file `descriptor`, when it is a regular file with some; release
    /// them with ``unmap(_:)``.
    static func map(_ descriptor: Int32) -> UnsafeRawBufferPointer? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        let count = Int(status.st_size)
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else { return nil }
        return UnsafeRawBufferPointer(start: base, count: count)
    }

    static func unmap(_ bytes: UnsafeRawBufferPointer) {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), bytes.count)
    }

    /// Calls `body` with the bytes of the file `name` in the open folder `folder` (or at the
    /// path `name` with `AT_FDCWD`) mapped, opened without following a symbolic link or waiting
    /// on a named pipe; `nil` when there is no such regular file with some bytes.
    static func withBytes<T>(of name: String, in folder: Int32 = AT_FDCWD, _ body: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        guard let mapped = map(file) else { return nil }
        defer { unmap(mapped) }
        return body(mapped.assumingMemoryBound(to: UInt8.self))
    }
}
