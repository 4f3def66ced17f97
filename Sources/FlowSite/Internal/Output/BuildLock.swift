import FlowSiteUtilities
import Foundation

/// An exclusive `flock` on a file beside the output, holding the holder's process id for the next build's error.
/// The lock belongs to the open file description, so builds in one process exclude each other too, and a killed
/// build's lock is released. A build that locked a file removed meanwhile tries again.
final class BuildLock: Sendable {
    let path: String
    private let descriptor: Locked<Int32>

    init(path: String, output: String) throws {
        while true {
            let file = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard file >= 0 else {
                throw FlowSiteError(.fileSystem(path: path, message: String(cString: strerror(errno))))
            }
            if flock(file, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR {
                    close(file)
                    continue
                }
                let holder = code == EWOULDBLOCK ? Self.holder(in: file) : nil
                close(file)
                if code == EWOULDBLOCK { throw FlowSiteError(.outputBusy(path: output, pid: holder)) }
                throw FlowSiteError(.fileSystem(path: path, message: String(cString: strerror(code))))
            }
            guard let locked = FileIdentity(descriptor: file), let named = FileIdentity(path: path),
                locked.isSameFile(as: named)
            else {
                // The previous holder removed this file between our open and flock.
                close(file)
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            guard ftruncate(file, 0) == 0, pwrite(file, pid, pid.count, 0) == pid.count else {
                let message = String(cString: strerror(errno))
                close(file)
                throw FlowSiteError(.fileSystem(path: path, message: message))
            }
            self.path = path
            self.descriptor = Locked(file)
            return
        }
    }

    deinit { release() }

    /// Does nothing the second time.
    func release() {
        descriptor.withLock { file in
            guard file >= 0 else { return }
            // While we hold the lock nobody else removes or replaces the file.
            unlink(path)
            close(file)
            file = -1
        }
    }

    /// If the holder wrote it yet.
    private static func holder(in file: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(file, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
