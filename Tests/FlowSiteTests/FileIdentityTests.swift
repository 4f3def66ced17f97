import Foundation
import Testing

@testable import FlowSite

#if canImport(Glibc)
import Glibc
#endif

/// `StableHash(identityOfFileAt:)`: what an app's cache keys a data file on, so that it is used only while the
/// file is the very one it was made from.
@Suite struct FileIdentityTests {
    @Test func theFingerprintChangesWhenTheFileIsGrownTouchedOrReplaced() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("people.json")
        #expect(StableHash(identityOfFileAt: file.path) == nil, "no file, no identity")

        try Data("[1]".utf8).write(to: file)
        let first = try #require(StableHash(identityOfFileAt: file.path))
        #expect(StableHash(identityOfFileAt: file.path) == first, "the same file, untouched")
        let link = folder.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(StableHash(identityOfFileAt: link.path) == first, "a link names the file it leads to")

        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(" ".utf8))
        try handle.close()
        let grown = try #require(StableHash(identityOfFileAt: file.path))
        #expect(grown != first, "written longer")

        // Its modification time set to a moment long past, as `touch -d` would.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
        let touched = try #require(StableHash(identityOfFileAt: file.path))
        #expect(touched != grown, "touched")

        // Another file, same bytes and times, renamed over it: another inode.
        let other = folder.appendingPathComponent("other.json")
        try FileManager.default.copyItem(at: file, to: other)
        #expect(utimensat(AT_FDCWD, other.path, &times, 0) == 0)
        #expect(rename(other.path, file.path) == 0)
        let replaced = try #require(StableHash(identityOfFileAt: file.path))
        #expect(replaced != touched, "replaced by another file")
    }
}
