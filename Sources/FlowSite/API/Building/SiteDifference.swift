import Foundation

/// How a site on disk differs from the site a build makes, as the command line's `check` and golden-site tests see it.
///
/// ```swift
/// let difference = try SiteDifference(expected: freshBuild, actual: URL(fileURLWithPath: "site"))
/// #expect(difference.isEmpty, "\(difference)")
/// ```
public struct SiteDifference: Sendable, Equatable, CustomStringConvertible {
    /// Files in both whose bytes differ, relative to the site root, sorted.
    public var changed: [String]
    /// Files the build makes that the site lacks.
    public var missing: [String]
    /// Files in the site that the build does not make.
    public var extra: [String]
    /// How many files the build makes.
    public var expectedCount: Int

    package init(changed: [String] = [], missing: [String] = [], extra: [String] = [], expectedCount: Int = 0) {
        self.changed = changed
        self.missing = missing
        self.extra = extra
        self.expectedCount = expectedCount
    }

    /// Compares the site as it should be (`expected`, a fresh build) with the site as it is, file by file.
    /// - Throws: ``FlowSiteError`` when a folder can't be read.
    public init(expected: URL, actual: URL) throws {
        // Sizes first, then the bytes of same-size pairs in parallel, so a site is never held in memory whole.
        let wanted = try Self.sizes(in: expected)
        let found = try Self.sizes(in: actual)
        let common = wanted.keys.filter { found[$0] != nil }.sorted()
        let expectedRoot = expected.standardizedFileURL.resolvingSymlinksInPath()
        let actualRoot = actual.standardizedFileURL.resolvingSymlinksInPath()
        let flags = try SiteComparison.inParallel(common) { path in
            do {
                return try wanted[path] != found[path]
                    || Data(contentsOf: expectedRoot.appendingPathComponent(path))
                        != Data(contentsOf: actualRoot.appendingPathComponent(path))
            } catch {
                throw FlowSiteError(
                    .siteUnreadable(
                        path: actualRoot.appendingPathComponent(path).path, message: error.localizedDescription))
            }
        }
        changed = zip(common, flags).filter { $0.1 }.map(\.0)
        missing = wanted.keys.filter { found[$0] == nil }.sorted()
        extra = found.keys.filter { wanted[$0] == nil }.sorted()
        expectedCount = wanted.count
    }

    /// Whether the two sites are the same, byte for byte.
    public var isEmpty: Bool { changed.isEmpty && missing.isEmpty && extra.isEmpty }

    /// One line per kind of difference, up to `limit` names each.
    public func lines(limit: Int = 20) -> [String] {
        [("changed", changed), ("missing", missing), ("extra", extra)].filter { !$0.1.isEmpty }.map { word, names in
            "\(names.count) \(word): " + names.prefix(limit).joined(separator: ", ")
                + (names.count > limit ? " and \(names.count - limit) more" : "")
        }
    }

    public var description: String {
        isEmpty
            ? "no differences in " + Wording.english("countFiles", count: expectedCount)
            : lines(limit: 10).joined(separator: "; ")
    }

    /// Every regular file below `folder` but the manifest, by relative path, with its size; links inside not followed.
    /// - Throws: ``FlowSiteError`` naming the folder when it isn't one or can't be read.
    static func sizes(in folder: URL) throws -> [String: Int] {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            var isDirectory: ObjCBool = false
            let exists =
                FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
            throw FlowSiteError(
                .siteUnreadable(path: folder.path, message: exists ? "it can't be listed" : "there is no folder there"))
        }
        var sizes: [String: Int] = [:]
        func walk(_ folder: Int32, _ prefix: String) throws {
            defer { close(folder) }
            guard let names = SiteStaging.names(in: folder) else {
                throw FlowSiteError(.siteUnreadable(path: root + "/" + prefix, message: "it can't be listed"))
            }
            for (name, _) in names {
                var status = stat()
                guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    guard inner >= 0 else {
                        throw FlowSiteError(
                            .siteUnreadable(path: root + "/" + prefix + name, message: "it can't be listed"))
                    }
                    try walk(inner, prefix + name + "/")
                case S_IFREG:
                    // The manifest is the build's bookkeeping (inodes, times), not part of the site.
                    if prefix.isEmpty && name == SiteLayout.manifest { continue }
                    sizes[prefix + name] = Int(status.st_size)
                default:
                    continue
                }
            }
        }
        try walk(descriptor, "")
        return sizes
    }

    /// Every regular file below `folder` but the manifest, by path relative to it, with its bytes.
    /// - Throws: ``FlowSiteError`` naming the folder when it isn't one or can't be read.
    public static func files(in folder: URL) throws -> [String: Data] {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath()
        var files: [String: Data] = [:]
        for path in try sizes(in: folder).keys {
            do {
                files[path] = try Data(contentsOf: root.appendingPathComponent(path))
            } catch {
                throw FlowSiteError(
                    .siteUnreadable(path: root.appendingPathComponent(path).path, message: error.localizedDescription))
            }
        }
        return files
    }
}
