import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SiteWriter {
    /// What a patch wrote: how many files, and how the site's bytes changed.
    struct Patched {
        /// Files written, `created` of them new.
        var files = 0
        var created = 0
        /// Files removed.
        var removed = 0
        var byteChange = 0
    }

    /// Writes `files` into the live site itself, each replacing its old file by a rename (so a
    /// reader gets the old file or the new one, never half of one), under the build lock.
    ///
    /// Only for a site that nobody else reads as a whole: `serve --watch`'s private preview. A
    /// reader could see some files new and others old for the moment between the renames, and the
    /// site's manifest keeps describing the files as the last full build wrote them, so the next
    /// full build writes these again (it finds another inode there) instead of trusting them.
    /// Every new file is written beside its old one first; when one fails, those written are
    /// removed and the site is as it was.
    /// - Throws: ``FlowSiteError`` when the output is not a site holocron made, is one that must
    ///   never be replaced, is being built by another build, or a file could not be written.
    /// The files of `removing` are unlinked last.
    func patch(_ files: [(path: String, bytes: [UInt8])], removing: [String] = []) throws -> Patched {
        let target = try guardedOutput()
        let parent = target.deletingLastPathComponent()
        let lock = try BuildLock(path: parent.appendingPathComponent(".\(target.lastPathComponent).lock").path, output: target.path)
        defer { lock.release() }
        let folder = open(target.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { throw FlowSiteError(.fileSystem(path: target.path, message: String(cString: strerror(errno)))) }
        defer { close(folder) }
        guard faccessat(folder, Self.markerName, F_OK, 0) == 0 else { throw FlowSiteError(.outputNotOwned(path: target.path)) }
        var patched = Patched()
        var written: [(temporary: String, path: String)] = []
        let suffix = ".holocron-patch-\(getpid())"
        do {
            for (path, bytes) in files {
                guard SiteStaging.isSafe(path) else {
                    throw FlowSiteError(.fileSystem(path: path, message: "the path would leave the site folder"))
                }
                do {
                    try SiteStaging.ensureFolder(of: path, in: folder)
                    let temporary = path + suffix
                    _ = try SiteStaging.writeWithoutSync(bytes, in: folder, at: temporary)
                    written.append((temporary, path))
                    var old = stat()
                    if fstatat(folder, path, &old, AT_SYMLINK_NOFOLLOW) == 0 {
                        patched.byteChange += bytes.count - Int(old.st_size)
                    } else {
                        patched.byteChange += bytes.count
                        patched.created += 1
                    }
                } catch let error as FlowSiteError {
                    throw error
                } catch {
                    throw FlowSiteError(.fileSystem(path: target.appendingPathComponent(path).path, message: error.localizedDescription))
                }
            }
        } catch {
            for file in written { unlinkat(folder, file.temporary, 0) }
            throw error
        }
        for file in written {
            guard renameat(folder, file.temporary, folder, file.path) == 0 else {
                let message = String(cString: strerror(errno))
                for file in written { unlinkat(folder, file.temporary, 0) }
                throw FlowSiteError(.fileSystem(path: target.appendingPathComponent(file.path).path, message: message))
            }
            patched.files += 1
        }
        for path in removing where SiteStaging.isSafe(path) {
            var old = stat()
            guard fstatat(folder, path, &old, AT_SYMLINK_NOFOLLOW) == 0, unlinkat(folder, path, 0) == 0 else { continue }
            patched.byteChange -= Int(old.st_size)
            patched.removed += 1
        }
        return patched
    }

    /// Whether the live site holds a file at `path` (relative to its root).
    func holds(_ path: String) -> Bool {
        guard SiteStaging.isSafe(path) else { return false }
        return access(output.appendingPathComponent(path).path, F_OK) == 0
    }
}
