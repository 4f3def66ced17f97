import Foundation

/// The templates and static assets a site is rendered with.
///
/// Mustache templates are named by their file name without folder or extension
/// (`partials/header.mustache` is the partial `header`); files under `assets/` are copied to the
/// site's `assets/` folder. The defaults ship inside the binary (``embedded``), so holocron works
/// from any folder; a folder given with `--templates` overrides them file by file.
public struct TemplateSet: Sendable {
    /// Template sources by name (`layout`, `404`, `header`, …).
    public var templates: [String: String]
    /// Asset bytes by path below `assets/` (`style.css`, …).
    public var assets: [String: Data]

    public init(templates: [String: String] = [:], assets: [String: Data] = [:]) {
        self.templates = templates
        self.assets = assets
    }

    /// The default templates, built into the binary from the repository's `templates/` folder.
    /// Assembled once per process.
    public static let embedded: TemplateSet = {
        var set = TemplateSet()
        for file in EmbeddedTemplates.files {
            set.add(path: file.path, contents: Data(file.contents.utf8))
        }
        return set
    }()

    /// The templates in `directory`, over `base` for any file the folder does not have.
    /// - Throws: ``FlowSiteError`` naming the folder or file that could not be read.
    public static func load(from directory: URL, over base: TemplateSet = .embedded) throws -> TemplateSet {
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
