import Foundation

/// Notices when files in some folders change, by polling: portable, and cheap for folders the
/// size of a template set or a SWAPI snapshot.
public struct FolderWatcher: Sendable {
    /// What a folder looks like at one moment: every file's path, size and modification time.
    public struct Fingerprint: Sendable, Equatable {
        fileprivate var files: [String: FileState]
    }

    fileprivate struct FileState: Sendable, Equatable {
        let size: Int
        let modified: Date
    }

    /// The folders to watch.
    public var folders: [URL]
    /// How often to look.
    public var interval: Duration

    public init(folders: [URL], interval: Duration = .milliseconds(500)) {
        self.folders = folders
        self.interval = interval
    }

    /// The folders as they are now; a folder that can't be read counts as empty.
    public func fingerprint() -> Fingerprint {
        var files: [String: FileState] = [:]
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { continue }
            for case let url as URL in enumerator {
                guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                files[url.path] = FileState(size: values.fileSize ?? 0, modified: values.contentModificationDate ?? .distantPast)
            }
        }
        return Fingerprint(files: files)
    }

    /// Calls `onChange` after each change, until the task is cancelled. A burst of saves that
    /// lands within one interval is one change.
    public func watch(onChange: @Sendable () async -> Void) async {
        var last = fingerprint()
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            let now = fingerprint()
            guard now != last else { continue }
            // Let the burst settle, so a half-saved file isn't built.
            do { try await Task.sleep(for: interval) } catch { return }
            last = fingerprint()
            await onChange()
        }
    }
}
