import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file mapped read-only: the journal and the manifest are read this way, megabytes at
/// scale, without a copy or a page fault per page of a fresh buffer. Both are replaced by a
/// rename, never written in place, so the mapped pages stay what was opened.
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
}
