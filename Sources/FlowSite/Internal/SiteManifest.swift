import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a build wrote, kept in the site's `.holocron-manifest`: each file's fingerprint (of the
/// page's state, or of the bytes for other files) and the identity of the file written (size,
/// inode, modification time), plus the fingerprint of the build's inputs.
///
/// The next build links a file whose fingerprint is the same instead of rendering and writing
/// it, after checking the previous file is still the very one this build wrote; a build whose
/// inputs are the same and whose files are all intact writes nothing at all.
struct SiteManifest: Sendable {
    struct Entry: Sendable, Equatable {
        var fingerprint: StableHash
        var size: Int
        var inode: UInt64
        var modified: timespec

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.fingerprint == rhs.fingerprint && lhs.size == rhs.size && lhs.inode == rhs.inode
                && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
        }

        /// Whether `status` describes the file this entry recorded.
        func matches(_ status: stat) -> Bool {
            status.st_mode & S_IFMT == S_IFREG && Int(status.st_size) == size && UInt64(status.st_ino) == inode
                && Self.modified(status).tv_sec == modified.tv_sec && Self.modified(status).tv_nsec == modified.tv_nsec
        }

        static func modified(_ status: stat) -> timespec {
            #if canImport(Darwin)
            status.st_mtimespec
            #else
            status.st_mtim
            #endif
        }
    }

    static let header = "Made by holocron. This folder is replaced whole on every build.\n"

    var inputs: String?
    var pages: Int
    var files: [String: Entry]

    /// The manifest file's text.
    func text() -> String { String(decoding: bytes(), as: UTF8.self) }

    /// The manifest file's bytes, made without a String per line: at 280,000 files those
    /// would cost more than the file.
    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + files.count * 110)
        out.append(contentsOf: "manifest 1\ninputs \(inputs ?? "-")\npages \(pages)\n".utf8)
        for path in files.keys.sorted() {
            let entry = files[path]!
            out.append(contentsOf: "f ".utf8)
            entry.fingerprint.appendHex(to: &out)
            for number in [entry.size, Int(entry.inode), entry.modified.tv_sec, entry.modified.tv_nsec] {
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: String(number).utf8)
            }
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: path.utf8)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// Parses a marker; `nil` for an old marker without a manifest or anything malformed, so
    /// the build just renders everything.
    init?(text: String) {
        var inputs: String?
        var pages = 0
        var files: [String: Entry] = [:]
        var sawManifest = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line == "manifest 1" { sawManifest = true; continue }
            if line.hasPrefix("inputs ") {
                let value = line.dropFirst(7)
                inputs = value == "-" ? nil : String(value)
            } else if line.hasPrefix("pages ") {
                pages = Int(line.dropFirst(6)) ?? 0
            } else if line.hasPrefix("f ") {
                let parts = line.split(separator: " ", maxSplits: 6)
                guard parts.count == 7, let fingerprint = StableHash(parts[1]), let size = Int(parts[2]),
                    let inode = UInt64(parts[3]), let seconds = Int(parts[4]), let nanoseconds = Int(parts[5])
                else { return nil }
                files[String(parts[6])] = Entry(
                    fingerprint: fingerprint, size: size, inode: inode,
                    modified: timespec(tv_sec: seconds, tv_nsec: nanoseconds)
                )
            }
        }
        guard sawManifest else { return nil }
        self.inputs = inputs
        self.pages = pages
        self.files = files
    }

    init(inputs: String?, pages: Int, files: [String: Entry]) {
        self.inputs = inputs
        self.pages = pages
        self.files = files
    }

    /// The manifest of the site at `folder`, read without following a symbolic link.
    static func load(from folder: Int32) -> SiteManifest? {
        let file = openat(folder, SiteWriter.manifestName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(file, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[..<count])
        }
        return SiteManifest(text: String(decoding: data, as: UTF8.self))
    }
}
