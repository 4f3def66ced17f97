import Foundation

/// The templates and static assets a site is rendered with. Templates are named by file name without folder or
/// extension (`partials/header.mustache` is `header`); files under `assets/` are copied to the site's `assets/`.
public struct TemplateSet: Sendable {
    /// Template sources by name (`layout`, `404`, `header`, …).
    public var templates: [String: String]
    /// Asset bytes by path below `assets/` (`style.css`, …).
    public var assets: [String: Data]

    /// A set of `templates` by name and `assets` by path; see ``embedded`` for FlowSite's own.
    public init(templates: [String: String] = [:], assets: [String: Data] = [:]) {
        self.templates = templates
        self.assets = assets
    }

    /// The default templates, embedded in the binary from FlowSite's `Resources/templates` folder.
    public static let embedded: TemplateSet = {
        var set = TemplateSet()
        for file in DefaultTemplates.files {
            set.add(path: file.path, contents: Data(file.text.utf8))
        }
        return set
    }()

    /// Writes every template and asset into `directory`, a starting point for a templates folder of one's own.
    /// - Throws: ``FlowSiteError`` naming the file that could not be written.
    public func write(to directory: URL) throws {
        var files: [(String, Data)] = templates.map { name, source in
            let file = Self.folders[name].map { "\($0)/\(name).mustache" } ?? "\(name).mustache"
            return (file, Data(source.utf8))
        }
        files += assets.map { ("assets/" + $0.key, $0.value) }
        // Check first, so a folder that is in the way gets no half of the set.
        for (path, _) in files where FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path)
        {
            throw FlowSiteError(.wouldOverwrite(path: directory.appendingPathComponent(path).path))
        }
        for (path, data) in files.sorted(by: { $0.0 < $1.0 }) {
            let url = directory.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url, options: .withoutOverwriting)
            } catch {
                throw FlowSiteError(.fileSystem(path: url.path, message: error.localizedDescription))
            }
        }
    }

    /// The folder each default template lives in, so a written folder looks like the original.
    private static let folders: [String: String] = Dictionary(
        DefaultTemplates.files.compactMap { file -> (String, String)? in
            let parts = file.path.split(separator: "/")
            guard parts.count == 2, parts[0] != "assets", file.path.hasSuffix(".mustache") else { return nil }
            return (String(parts[1].dropLast(".mustache".count)), String(parts[0]))
        },
        uniquingKeysWith: { first, _ in first }
    )

    /// The templates in `directory`, over `base` for any file the folder does not have.
    /// - Throws: ``FlowSiteError`` naming the folder or file that could not be read.
    public static func load(from directory: URL, over base: TemplateSet = .embedded) throws -> TemplateSet {
        // A folder reached through a symlink lists its files under their real path.
        let directory = directory.resolvingSymlinksInPath()
        var set = base
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FlowSiteError(.templatesUnreadable(path: directory.path, message: "no such folder"))
        }
        guard let enumerator = manager.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw FlowSiteError(.templatesUnreadable(path: directory.path, message: "cannot list the folder"))
        }
        let root = directory.standardizedFileURL.path
        var paths: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(root + "/") else { continue }
            paths.append(String(full.dropFirst(root.count + 1)))
        }
        for path in paths.sorted() {
            let url = directory.appendingPathComponent(path)
            do {
                set.add(path: path, contents: try Data(contentsOf: url))
            } catch {
                throw FlowSiteError(.templatesUnreadable(path: url.path, message: error.localizedDescription))
            }
        }
        return set
    }

    /// Adds one file by its path inside a templates folder.
    mutating func add(path: String, contents: Data) {
        let components = path.split(separator: "/").map(String.init)
        guard let last = components.last, !last.hasPrefix(".") else { return }
        if components.first == "assets", components.count > 1 {
            assets[components.dropFirst().joined(separator: "/")] = contents
        } else if last.hasSuffix(".mustache") {
            templates[String(last.dropLast(".mustache".count))] = String(decoding: contents, as: UTF8.self)
        }
    }
}
