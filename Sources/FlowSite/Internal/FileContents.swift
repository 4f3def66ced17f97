import CMapGuard
import Foundation

/// A whole file mapped into memory: the journal, the manifest of the no-change check and the
/// page index are read this way. Mapping shares the kernel's cached pages, where reading
/// would copy them into fresh memory (see bench/RESULTS.md for what that costs an edit).
///
/// Another process may shorten or write the file while a build reads it. A read of a page
/// past a new end would end the process with SIGBUS; the mapping is guarded (`CMapGuard`) so
/// that it reads zeros instead and is marked cut. The bytes of the new last page past its end
/// read as zeros too, without a fault, and bytes written in place show through. Whoever reads
/// the bytes checks them (the journal's checksums, the manifest's line format) and asks
/// ``wasChanged`` before it trusts what it made of them.
struct FileContents: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private let slot: Int32
    /// The file, kept open to tell whether it changed, and its size and modification time
    /// when it was mapped.
    private let descriptor: Int32
    private let mapped: FileIdentity

    /// The bytes of the open file `descriptor`, when it is a regular file with some that can
    /// be mapped; release them with ``release()``.
    static func map(_ descriptor: Int32) -> FileContents? {
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

    /// Whether the file's size or modification time is not what it was when mapped, or a
    /// read reached past its end at some moment: what was read of it may be zeros or bytes
    /// written since, not the file that was checked.
    var wasChanged: Bool {
        guard map_guard_was_cut(slot) == 0, let now = FileIdentity(descriptor: descriptor) else { return true }
        return now.size != mapped.size || now.modified != mapped.modified
    }

    func release() {
        map_guard_unmap(slot, bytes.baseAddress!, bytes.count)
        close(descriptor)
    }

    /// Calls `body` with the bytes of the file `name` in the open folder `folder` (or at the
    /// path `name` with `AT_FDCWD`), opened without following a symbolic link or waiting on a
    /// named pipe; `nil` when there is no such regular file with some bytes, or it changed
    /// while `body` read it.
    static func withBytes<T>(
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
