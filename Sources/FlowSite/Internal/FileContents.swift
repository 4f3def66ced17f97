import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file read into memory: the journal, the manifest and the page index are read this
/// way. They are read, not mapped, so that another process that shortens or rewrites one while
/// a build reads it cannot pull the bytes from under the build: the build has its own copy, and
/// the journal's checksums (or the manifest's own check of every file it names) say whether
/// that copy is whole.
enum FileContents {
    /// The bytes of the open file `descriptor`, when it is a regular file with some and the
    /// whole of it could be read; release them with ``release(_:)``.
    static func read(_ descriptor: Int32) -> UnsafeRawBufferPointer? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        let count = Int(status.st_size)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        var done = 0
        while done < count {
            let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(done))
            if got < 0, errno == EINTR { continue }
            // A file shortened since `fstat` is not read whole.
            guard got > 0 else {
                buffer.deallocate()
                return nil
            }
            done += got
        }
        return UnsafeRawBufferPointer(buffer)
    }

    static func release(_ bytes: UnsafeRawBufferPointer) {
        bytes.deallocate()
    }

    /// Calls `body` with the bytes of the file `name` in the open folder `folder` (or at the
    /// path `name` with `AT_FDCWD`), opened without following a symbolic link or waiting on a
    /// named pipe; `nil` when there is no such regular file with some bytes.
    static func withBytes<T>(of name: String, in folder: Int32 = AT_FDCWD, _ body: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        guard let bytes = read(file) else { return nil }
        defer { release(bytes) }
        return body(bytes.assumingMemoryBound(to: UInt8.self))
    }
}
