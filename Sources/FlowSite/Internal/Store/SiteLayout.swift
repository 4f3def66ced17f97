import FlowSiteUtilities
import Foundation

/// Every name a build gives a file or folder of its own, in the site and beside it: the one place that knows them.
/// The site's own pages take their paths from their routes; these names are reserved beside them.
package enum SiteLayout {
    // MARK: - In the site

    /// The marker file that says a FlowSite build made a folder; a build replaces no folder without it.
    package static let marker = ".flowsite"
    /// The marker of versions before 0.2 (named after the first app): a folder with it is a FlowSite build's too.
    static let earlierMarker = ".holocron"
    /// What the build wrote (``SiteManifest``), for the next build to reuse; like the marker, not deployed.
    static let manifest = ".flowsite-manifest"
    /// Each page's content fingerprint and kind (``PageIndex``), committed with a golden site for `diff`.
    static let pageIndex = ".flowsite-pages"
    /// The flow graph and its findings (``FlowRecord``), for `diff`.
    static let flowRecord = ".flowsite-flow.json"
    /// The stylesheet, scripts and other template assets.
    static let assetsFolder = "assets"
    /// The end of a file's name while a step writes it piece by piece, before it is renamed into place.
    static let partSuffix = ".flowsite-part"
    /// The flow map's pages. Reserved like the assets folder: no route's page may live there.
    static let flowMapFolder: Slug = "flow"
    /// The journeys' pages, in the flow map's folder: `journeys/` at the root may be an app's own page.
    static let journeysFolder: Slug = "journeys"

    // MARK: - Beside the site

    /// `.NAME.spare` beside `output`: the site before the live one, the journal, and a `.gitignore`.
    static func spareFolder(of output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).spare")
    }

    /// The spare's copy of the site.
    static func spareTree(of output: URL) -> URL {
        spareFolder(of: output).appendingPathComponent("site")
    }

    /// What the spare folder's `.gitignore` says.
    static let spareIgnoreFile = "# FlowSite's previous build, kept so the next writes only what changed\n*\n"

    /// `.NAME.spare/journal`, or `.NAME.spare/journal-es` for the language in `es/`.
    static func journalPath(of output: URL, folder: String = "") -> String {
        spareFolder(of: output).appendingPathComponent(journalName(folder: folder)).path
    }

    static func journalName(folder: String) -> String {
        folder.isEmpty ? "journal" : "journal-" + folder.dropLast()
    }

    /// What a build makes beside the output under its process id, and removes once that process is gone.
    static let leftoverRoles = ["staging", "old", "journal"]

    /// `.NAME.ROLE-PID`: a staging or old folder, or a journal being written, beside the output.
    static func siblingName(of output: URL, role: String, pid: Int32) -> String {
        ".\(output.lastPathComponent).\(role)-\(pid)"
    }
}

extension SiteLayout {
    /// Whether a folder's entry names are a FlowSite build's: it holds the marker, or an earlier version's.
    static func isMarked(_ names: some Sequence<String>) -> Bool {
        names.contains { $0 == marker || $0 == earlierMarker }
    }

    /// Whether `folder` holds the marker, or an earlier version's.
    static func isMarked(_ folder: URL) -> Bool {
        [marker, earlierMarker].contains { access(folder.appendingPathComponent($0).path, F_OK) == 0 }
    }

    /// Makes ``spareFolder(of:)`` when missing, with its `.gitignore`; `false` when something else (a file, a
    /// link) is there.
    static func prepareSpareFolder(of output: URL) -> Bool {
        let spare = spareFolder(of: output)
        mkdir(spare.path, 0o755)
        guard isOwnFolder(spare) else { return false }
        let ignore = open(
            spare.appendingPathComponent(".gitignore").path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if ignore >= 0 {
            _ = try? writeAll(Array(spareIgnoreFile.utf8), to: ignore)
            close(ignore)
        }
        return true
    }

    /// Whether `folder` is a folder, not a link to one: a spare folder that leads elsewhere is never touched.
    static func isOwnFolder(_ folder: URL) -> Bool {
        var status = stat()
        return lstat(folder.path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The real path of an absolute `path`. Missing components are appended as written; a link to something
    /// missing resolves to its destination.
    static func realPath(of path: String, links: Int = 0) throws -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let code = errno
        guard code == ENOENT, links < 40, path != "/", let slash = path.lastIndex(of: "/") else {
            throw FlowSiteError(.fileSystem(path: path, message: String(cString: strerror(links < 40 ? code : ELOOP))))
        }
        let parent = try realPath(of: slash == path.startIndex ? "/" : String(path[..<slash]), links: links)
        // Below a component that doesn't exist nothing is a link, so `.` and `..` are lexical.
        switch path[path.index(after: slash)...] {
        case "", ".":
            return parent
        case "..":
            let above = parent[..<(parent.lastIndex(of: "/") ?? parent.startIndex)]
            return above.isEmpty ? "/" : String(above)
        case let name:
            let joined = parent == "/" ? "/" + name : parent + "/" + name
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let count = readlink(joined, &buffer, buffer.count)
            guard count > 0 else { return joined } // not there yet
            let destination = String(decoding: buffer[..<count], as: UTF8.self)
            return try realPath(
                of: destination.hasPrefix("/") ? destination : parent + "/" + destination, links: links + 1)
        }
    }
}
