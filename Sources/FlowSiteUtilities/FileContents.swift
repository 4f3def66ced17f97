import CMapGuard
import Foundation

/// A whole file mapped into memory, sharing the kernel's cached pages instead of copying them.
///
/// Another process may shorten or write the file meanwhile. A read past a new end would raise SIGBUS; the mapping
/// is guarded (`CMapGuard`) to read zeros instead and be marked cut. Bytes written in place show through. Readers
/// check the bytes (checksums, line format) and ask ``wasChanged`` before trusting what they made of them.
package struct FileContents: @unchecked Sendable {
    package let bytes: UnsafeRawBufferPointer
    private let slot: Int32
    /// Kept open to tell whether the file changed since `mapped`.
    private let descriptor: Int32
    private let mapped: FileIdentity

    /// A regular, non-empty file's bytes; release them with ``release()``.
    package static func map(_ descriptor: Int32) -> FileContents? {
        guard let identity = FileIdentity(descriptor: descriptor), identity.isRegularFile, identity.size > 0 else {
            return nil
        }
        let own = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else { return nil }
        var slot: Int32 = -1
        guard let start = map_guard_map(own, identity.size, &slot) else {
            close(own)
            return nil
        }
        return FileContents(
            bytes: UnsafeRawBufferPointer(start: start, count: identity.size), slot: slot, descriptor: own,
            mapped: identity)
    }

    /// Whether the size or modification time changed, or a read reached past the end: what was read may be zeros
    /// or newer bytes, not the file that was checked.
    package var wasChanged: Bool {
        guard map_guard_was_cut(slot) == 0, let now = FileIdentity(descriptor: descriptor) else { return true }
        return now.size != mapped.size || now.modified != mapped.modified
    }

    package func release() {
        map_guard_unmap(slot, bytes.baseAddress!, bytes.count)
        close(descriptor)
    }

    /// Calls `body` with the bytes of `name` in `folder`, not following a link or waiting on a pipe; `nil` when
    /// there is no such non-empty regular file, or it changed while `body` read it.
    package static func withBytes<T>(
        of name: String, in folder: Int32 = AT_FDCWD, _ body: (UnsafeBufferPointer<UInt8>) -> T?
    ) -> T? {
        let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        guard let contents = map(file) else { return nil }
        defer { contents.release() }
        let result = body(contents.bytes.assumingMemoryBound(to: UInt8.self))
        return contents.wasChanged ? nil : result
    }
}
