import Foundation

/// How a site on disk differs from the site a build makes: what `holocron check` reports and
/// what golden-site tests assert is empty.
///
/// ```swift
/// let difference = try SiteDifference(expected: freshBuild, actual: URL(fileURLWithPath: "site"))
/// #expect(difference.isEmpty, "\(difference)")
/// ```
package struct SiteDifference: Sendable, Equatable, CustomStringConvertible {
    /// Files in both whose bytes differ, relative to the site root, sorted.
    package var changed: [String]
    /// Files the build makes that the site lacks.
    package var missing: [String]
    /// Files in the site that the build does not make.
    package var extra: [String]
    /// How many files the build makes.
    package var expectedCount: Int

    package init(changed: [String] = [], missing: [String] = [], extra: [String] = [], expectedCount: Int = 0) {
        self.changed = changed
        self.missing = missing
        self.extra = extra
        self.expectedCount = expectedCount
    }

    /// Compares two folders file by file.
    /// - Parameters:
    ///   - expected: the site as it should be (a fresh build).
    ///   - actual: the site as it is.
    /// - Throws: ``FlowSiteError`` when a folder can't be read.
    package init(expected: URL, actual: URL) throws {
        let wanted = try Self.files(in: expected)
        let found = try Self.files(in: actual)
        changed = wanted.keys.filter { found[$0] != nil && found[$0] != wanted[$0] }.sorted()
        missing = wanted.keys.filter { found[$0] == nil }.sorted()
        extra = found.keys.filter { wanted[$0] == nil }.sorted()
        expectedCount = wanted.count
    }

    /// Whether the two sites are the same, byte for byte.
    package var isEmpty: Bool { changed.isEmpty && missing.isEmpty && extra.isEmpty }

    /// One line per kind of difference, up to `limit` names each.
    package func lines(limit: Int = 20) -> [String] {
        var lines: [String] = []
        for (word, names) in [("changed", changed), ("missing", missing), ("extra", extra)] where !names.isEmpty {
            let shown = names.prefix(limit).joined(separator: ", ")
            let more = names.count > limit ? " and \(names.count - limit) more" : ""
            lines.append("\(names.count) \(word): \(shown)\(more)")
        }
        return lines
    }

    package var description: String {
        isEmpty ? "no differences in \(expectedCount) files" : lines(limit: 10).joined(separator: "; ")
    }

    /// Every regular file below `folder`, by path relative to it, with its bytes.
    /// - Throws: ``FlowSiteError`` naming the folder when it isn't one or can't be read.
    package static func files(in folder: URL) throws -> [String: Data] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FlowSiteError(.siteUnreadable(path: folder.path, message: "there is no folder there"))
        }
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(
            at: folder.standardizedFileURL.resolvingSymlinksInPath(), includingPropertiesForKeys: [.isRegularFileKey]
        ) else {
            throw FlowSiteError(.siteUnreadable(path: folder.path, message: "it can't be listed"))
        }
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            // The manifest is the build's bookkeeping (inodes, times), not part of the site.
            if url.lastPathComponent == SiteWriter.manifestName { continue }
            do {
                files[String(path.dropFirst(root.count + 1))] = try Data(contentsOf: url)
            } catch {
                throw FlowSiteError(.siteUnreadable(path: path, message: error.localizedDescription))
            }
        }
        return files
    }
}
