import FlowSiteUtilities

#if os(Linux)
import Foundation
import Glibc

/// Linux's inotify over a tree of folders: a watch per folder (inotify is not recursive), one more for each
/// folder made later, and events gathered on a thread of its own into bursts reported once quiet.
final class InotifyWatcher: Sendable {
    /// Why inotify can't be used; the text says what to do.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Files written and closed, made, removed, moved in or out, re-stamped (`touch`), and the folder itself going.
    private static let mask: UInt32 = UInt32(
        IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
            | IN_MOVE_SELF)

    private let descriptor: Int32
    /// Written to wake the reading thread when it should stop.
    private let wake: (read: Int32, write: Int32)
    private let roots: [String]
    /// Each watch's folder.
    private let folders = Locked<[Int32: String]>([:])
    /// Whether ``stop()`` was called, and whether the descriptors are closed (their numbers may then be reused).
    private let life = Locked<(stopped: Bool, closed: Bool)>((false, false))

    init(folders roots: [URL]) throws {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw Unavailable(description: "inotify could not start (\(String(cString: strerror(errno))))")
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(descriptor)
            throw Unavailable(description: "no pipe to stop the watcher with (\(String(cString: strerror(errno))))")
        }
        self.descriptor = descriptor
        self.wake = (pipeEnds[0], pipeEnds[1])
        self.roots = roots.map { $0.standardizedFileURL.path }
        do {
            for root in self.roots { try addTree(root) }
        } catch {
            closeAll()
            throw error
        }
    }

    /// Reads events on a thread of its own until ``stop()``, calling `report` with each burst.
    func start(quietPeriod: Duration, report: @escaping @Sendable (Set<String>) -> Void) {
        let milliseconds = Int32(
            max(1, quietPeriod.components.seconds * 1000 + quietPeriod.components.attoseconds / 1_000_000_000_000_000))
        Thread.detachNewThread { [self] in
            run(quietMilliseconds: milliseconds, report: report)
            closeAll()
        }
    }

    /// Ends the reading thread; the descriptors close as it leaves.
    func stop() {
        life.withLock { life in
            guard !life.stopped, !life.closed else { return }
            life.stopped = true
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
    }

    /// The quiet a burst needs when all its files were closed after writing or moved in whole (a finished save,
    /// though one of several files may go on); a file still open for writing waits the whole quiet period.
    static let settledMilliseconds: Int32 = 20

    private func run(quietMilliseconds: Int32, report: @Sendable (Set<String>) -> Void) {
        var pending = Set<String>()
        // Files written to and not yet closed.
        var writing = Set<String>()
        // A burst that never pauses (a big copy) is still reported every two seconds.
        var burstStarted: ContinuousClock.Instant?
        let longest = Duration.seconds(2)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !life.withLock({ $0.stopped }) {
            var timeout: Int32 = -1
            if let burstStarted {
                let left = longest - (ContinuousClock.now - burstStarted)
                let leftMilliseconds = Int32(
                    max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
                timeout = min(
                    writing.isEmpty ? min(quietMilliseconds, Self.settledMilliseconds) : quietMilliseconds,
                    leftMilliseconds)
            }
            var fds = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
            ]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if ready == 0 || (burstStarted.map { ContinuousClock.now - $0 >= longest } ?? false) {
                if !pending.isEmpty { report(pending) }
                pending = []
                writing = []
                burstStarted = nil
                if ready == 0 { continue }
            }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            let changed = buffer.withUnsafeBytes {
                parse(UnsafeRawBufferPointer(rebasing: $0[0..<count]), writing: &writing)
            }
            if !changed.isEmpty {
                pending.formUnion(changed)
                if burstStarted == nil { burstStarted = .now }
            }
        }
    }

    /// The paths a buffer of events names, watching new folders; `writing` tracks the files open for writing.
    private func parse(_ bytes: UnsafeRawBufferPointer, writing: inout Set<String>) -> Set<String> {
        var changed = Set<String>()
        let headerSize = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + headerSize <= bytes.count {
            let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameBytes = bytes[(offset + headerSize)..<min(bytes.count, offset + headerSize + length)]
            offset += headerSize + length
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)

            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // Events were lost: say every folder changed.
                changed.formUnion(roots)
                continue
            }
            let folder = folders.withLock { $0[wd] }
            if mask & UInt32(IN_IGNORED) != 0 {
                folders.withLock { _ = $0.removeValue(forKey: wd) }
                continue
            }
            guard let folder else { continue }
            guard !name.isEmpty else {
                // The watched folder itself was removed or moved.
                changed.insert(folder)
                continue
            }
            guard !FolderWatcher.isScratch(name) else { continue }
            let path = folder + "/" + name
            if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                try? addTree(path) // a folder that can't be watched is still reported now
            }
            if mask & UInt32(IN_ISDIR) == 0 {
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) != 0 {
                    writing.remove(path)
                } else if mask & UInt32(IN_MODIFY | IN_CREATE) != 0 {
                    writing.insert(path)
                }
            }
            changed.insert(path)
        }
        return changed
    }

    /// Watches `path` and every folder below it.
    private func addTree(_ path: String) throws {
        try addWatch(path)
        guard
            let enumerator = FileManager.default.enumerator(
                at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.isDirectoryKey],
                options: [.skipsHiddenFiles]
            )
        else { return }
        for case let url as URL in enumerator
        where (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
            try addWatch(url.path)
        }
    }

    private func addWatch(_ path: String) throws {
        let wd = inotify_add_watch(descriptor, path, Self.mask)
        guard wd >= 0 else {
            let code = errno
            let why =
                code == ENOSPC
                ? "the system allows no more inotify watches (raise fs.inotify.max_user_watches)"
                : "inotify can't watch \(path) (\(String(cString: strerror(code))))"
            throw Unavailable(description: why)
        }
        folders.withLock { $0[wd] = path }
    }

    private func closeAll() {
        life.withLock { life in
            guard !life.closed else { return }
            life.closed = true
            close(descriptor)
            close(wake.read)
            close(wake.write)
        }
    }
}
#endif
