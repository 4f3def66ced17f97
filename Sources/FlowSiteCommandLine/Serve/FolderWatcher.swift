import FlowSite
import FlowSiteUtilities
import Foundation

/// Reports each burst of changes in some folders once, as the changed paths: by inotify on Linux, else by polling.
/// A burst is reported once quiet for ``quietPeriod``, or after 20 ms with inotify when its files were all closed.
struct FolderWatcher: Sendable {
    /// What a folder looks like at one moment: every file's path and identity (inode, size, times).
    struct Fingerprint: Sendable, Equatable {
        fileprivate var files: [String: FileIdentity]

        /// The paths that differ between two fingerprints: added, removed or changed.
        func changes(since earlier: Fingerprint) -> Set<String> {
            var changed = Set<String>()
            for (path, state) in files where earlier.files[path] != state { changed.insert(path) }
            for path in earlier.files.keys where files[path] == nil { changed.insert(path) }
            return changed
        }
    }

    /// How changes are noticed.
    enum Method: Sendable, Equatable {
        /// The kernel says (Linux's inotify).
        case inotify
        /// The folders are read every ``FolderWatcher/interval``; `reason` says why inotify isn't used.
        case polling(reason: String?)
    }

    /// The folders to watch.
    var folders: [URL]
    /// How often to look, when polling.
    var interval: Duration = .milliseconds(500)
    /// How long a burst of changes must have been quiet before it is reported.
    var quietPeriod: Duration = .milliseconds(100)
    /// Poll even where the kernel could tell (tests use it to check the fallback).
    var forcePolling = false

    /// The folders as they are now; a folder that can't be read counts as empty.
    func fingerprint() -> Fingerprint {
        var files: [String: FileIdentity] = [:]
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in enumerator {
                guard !Self.isScratch(url.lastPathComponent), let identity = FileIdentity(path: url.path),
                    identity.isRegularFile
                else { continue }
                files[url.path] = identity
            }
        }
        return Fingerprint(files: files)
    }

    /// Starts watching: the method, and each burst of changed paths until the stream's consumer stops.
    func changes() -> (method: Method, changes: AsyncStream<Set<String>>) {
        let (stream, continuation) = AsyncStream<Set<String>>.makeStream()
        var reason: String?
        #if os(Linux)
        if !forcePolling {
            do {
                let watcher = try InotifyWatcher(folders: folders)
                let quiet = quietPeriod
                watcher.start(quietPeriod: quiet) { continuation.yield($0) }
                continuation.onTermination = { _ in watcher.stop() }
                return (.inotify, stream)
            } catch {
                reason = "\(error)"
            }
        }
        #else
        if !forcePolling { reason = "this system's file events are not supported yet" }
        #endif
        let start = fingerprint() // now, so that nothing saved from here on is missed
        // On a thread of its own, like inotify's reader: a build busy on every thread of Swift's cooperative
        // pool must not keep the poller from looking.
        let stopped = Locked(false)
        Thread.detachNewThread { [self] in
            poll(from: start, until: { stopped.withLock { $0 } }) { continuation.yield($0) }
            continuation.finish()
        }
        continuation.onTermination = { _ in stopped.withLock { $0 = true } }
        return (.polling(reason: reason), stream)
    }

    /// Reads the folders every ``interval`` and reports a change once one more look finds them unchanged,
    /// until `stopped` says to end (looked at after each wait).
    func poll(from start: Fingerprint, until stopped: () -> Bool, onChange: (Set<String>) -> Void) {
        var last = start
        while true {
            Thread.sleep(forTimeInterval: interval.timeInterval)
            if stopped() { return }
            var now = fingerprint()
            guard now != last else { continue }
            // Let the burst settle, so a half-saved file isn't built.
            while true {
                Thread.sleep(forTimeInterval: max(quietPeriod, .milliseconds(50)).timeInterval)
                if stopped() { return }
                let settled = fingerprint()
                if settled == now { break }
                now = settled
            }
            onChange(now.changes(since: last))
            last = now
        }
    }

    /// Names editors write while saving, which no build reads: Vim's swap files and `4913`, `~` backups, hidden files.
    static func isScratch(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name == "4913" || name.hasSuffix(".swp") || name.hasSuffix(".swx")
    }
}
