import CCmark
import FlowSite
import FlowSiteCommandLine
import Foundation
import HolocronKit
import SWAPI
import StarWarsApp

/// The benchmark's floor: the time cmark alone needs to convert every page's Markdown to HTML,
/// on as many threads as a build uses. The Markdown is made first (by walking the app as a
/// build does), then only `cmark_markdown_to_html` is timed.
///
/// With `writeInto`, each page's HTML is also written to its file below that folder (its
/// folder made as a build makes it), which times the floor of converting and writing: what a
/// build would take if making the pages' Markdown and layout cost nothing.
struct CmarkFloorAction: Sendable {
    /// The app whose pages are converted.
    var site: StarWarsSite
    var threads: Int
    /// An empty folder to write the HTML files into, or `nil` to only convert.
    var writeInto: URL?

    init(
        site: StarWarsSite = StarWarsSite(), threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        writeInto: URL? = nil
    ) {
        self.site = site
        self.threads = max(1, threads)
        self.writeInto = writeInto
    }

    /// The floor writes only into a folder of its own making.
    struct FolderExists: Error, CustomStringConvertible {
        let folder: URL
        package var description: String { "\(folder.path) exists: give a folder that does not exist yet." }
    }

    private static func requireNew(_ folder: URL) throws {
        if FileManager.default.fileExists(atPath: folder.path) { throw FolderExists(folder: folder) }
    }

    /// Every page's site file and Markdown, made as a build makes them.
    private func documents() async throws -> [(path: String, markdown: [UInt8])] {
        let coordinator = try await site.load(SiteLoad(quiet: true)).coordinator
        return try await SiteBuilder(coordinator: coordinator).pageMarkdown().map { ($0.file, $0.markdown) }
    }

    /// Writes every page's Markdown below `folder` for the benchmark's baselines outside this
    /// process: `content/` is laid out as Hugo reads content (a page with pages below it is
    /// `_index.md`, any other `index.md`, so Hugo writes each to the same `…/index.html` a
    /// build does; each file opens with an empty front matter), and `pages.tsv` pairs each Markdown file with
    /// the site file a build writes from it, for the C floor (`bench/floor.c`). Returns the
    /// number of pages.
    func dumpMarkdown(into folder: URL) async throws -> Int {
        try Self.requireNew(folder)
        let all = try await documents()
        // The folders with a page below their own: each page's folder's ancestors.
        var branches: Set<String> = []
        for page in all {
            let parts = page.path.split(separator: "/").dropLast()
            for end in 0..<parts.count { branches.insert(parts.prefix(end).joined(separator: "/")) }
        }
        var list = ""
        for page in all {
            let parts = page.path.split(separator: "/")
            let parent = parts.dropLast().joined(separator: "/")
            let name =
                parts.last == "index.html"
                ? (branches.contains(parent) || parent.isEmpty ? "_index.md" : "index.md")
                : parts.last!.dropLast(5) + ".md"
            let markdownPath = parent.isEmpty ? name : parent + "/" + name
            let file = folder.appendingPathComponent("content").appendingPathComponent(markdownPath)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            // An empty front matter first: Hugo takes a page that opens with a list (`- **Height:**`)
            // for a malformed one. The C floor skips it.
            try Data(Self.frontMatter + page.markdown).write(to: file)
            list += "\(markdownPath)\t\(page.path)\n"
        }
        try Data(list.utf8).write(to: folder.appendingPathComponent("pages.tsv"))
        return all.count
    }

    /// What each Markdown file ``dumpMarkdown(into:)`` writes starts with.
    static let frontMatter = Array("---\n---\n".utf8)

    /// Pages converted, Markdown bytes, and the seconds cmark took.
    func run() async throws -> (pages: Int, bytes: Int, seconds: Double) {
        if let writeInto { try Self.requireNew(writeInto) }
        let all = try await documents()
        var folder: Int32 = -1
        if let writeInto {
            try FileManager.default.createDirectory(at: writeInto, withIntermediateDirectories: true)
            folder = open(writeInto.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: writeInto.path])
            }
        }
        defer { if folder >= 0 { close(folder) } }
        let clock = ContinuousClock()
        let started = clock.now
        let (threads, into) = (threads, folder)
        let failed = FirstFailure()
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<threads {
                group.addTask {
                    for index in stride(from: lane, to: all.count, by: threads) {
                        all[index].markdown.withUnsafeBufferPointer { buffer in
                            buffer.withMemoryRebound(to: CChar.self) { chars in
                                guard
                                    let html = cmark_markdown_to_html(
                                        chars.baseAddress, chars.count, CMARK_OPT_VALIDATE_UTF8)
                                else { return }
                                if into >= 0 {
                                    // The site writer's calls, from the bytes a build would hold.
                                    let bytes = Array(
                                        UnsafeRawBufferPointer(start: html, count: strlen(html)).bindMemory(
                                            to: UInt8.self))
                                    do {
                                        try FloorFiles.ensureFolder(of: all[index].path, in: into)
                                        try FloorFiles.writeWithoutSync(bytes, in: into, at: all[index].path)
                                    } catch {
                                        failed.message.withLock { $0 = $0 ?? "\(all[index].path): \(error)" }
                                    }
                                }
                                free(html)
                            }
                        }
                    }
                }
            }
        }
        let (seconds, attoseconds) = (clock.now - started).components
        if let failed = failed.message.withLock({ $0 }), let writeInto {
            // A floor that skipped files would look faster than it is.
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSFilePathErrorKey: writeInto.path, NSLocalizedDescriptionKey: "could not write \(failed)"])
        }
        return (all.count, all.reduce(0) { $0 + $1.markdown.count }, Double(seconds) + Double(attoseconds) / 1e18)
    }
}

/// The file-system calls the site writer makes for a new page (FlowSite's staging folder):
/// its folders made below an open folder, then the file created, written without a sync.
private enum FloorFiles {
    static func ensureFolder(of path: String, in folder: Int32) throws {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return }
        let parent = String(path[..<slash])
        if mkdirat(folder, parent, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var prefix = ""
        for component in parent.split(separator: "/") {
            prefix += prefix.isEmpty ? String(component) : "/" + component
            let made = mkdirat(folder, prefix, 0o755)
            guard made == 0 || errno == EEXIST else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
    }

    static func writeWithoutSync(_ data: [UInt8], in folder: Int32, at path: String) throws {
        var descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == EEXIST && unlinkat(folder, path, 0) == 0 {
            descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                let written = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }
}

/// The first file the floor could not write, shared by the threads that write.
private final class FirstFailure: Sendable {
    let message = Locked<String?>(nil)
}
