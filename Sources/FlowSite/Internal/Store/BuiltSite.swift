import FlowSiteUtilities
import Foundation

/// A folder a FlowSite build wrote, as `diff` and the external-link check read it: its manifest, page index and
/// flow record, and any file's bytes, each failure named with the folder or file and what to do.
struct BuiltSite: Sendable {
    let root: URL
    let manifest: SiteManifest
    /// `nil` for a site built before the index was kept.
    let index: PageIndex?
    let flow: FlowRecord?

    /// From the page index; without one, every HTML page but the 404 and flow map, of one kind "page".
    let pages: [String: PageIndex.Entry]

    func paths() -> [String: Set<String>] { Dictionary(grouping: pages.keys) { pages[$0]!.kind }.mapValues(Set.init) }

    /// The build's own records, not part of what the site shows.
    static func isRecord(_ path: String) -> Bool {
        path == SiteLayout.marker || path == SiteLayout.manifest || path == SiteLayout.pageIndex
            || path == SiteLayout.flowRecord
    }

    init(at url: URL) throws {
        root = url.standardizedFileURL.resolvingSymlinksInPath()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FlowSiteError(
                .siteUnreadable(
                    path: url.path,
                    message:
                        "no such folder: give a folder a FlowSite build wrote (the site executable's `build --output`)")
            )
        }
        let manifestURL = root.appendingPathComponent(SiteLayout.manifest)
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(SiteLayout.marker).path),
            let bytes = try? Array(Data(contentsOf: manifestURL))
        else {
            throw FlowSiteError(
                .siteUnreadable(
                    path: url.path,
                    message: """
                        not a site made by a FlowSite build (it has no \(SiteLayout.manifest)): build it, or give \
                        the folder the site executable's `build --output` wrote
                        """
                ))
        }
        guard let manifest = SiteManifest(bytes: bytes) else {
            throw FlowSiteError(
                .siteUnreadable(path: manifestURL.path, message: "the manifest is damaged: build the site again"))
        }
        self.manifest = manifest
        let indexURL = root.appendingPathComponent(SiteLayout.pageIndex)
        index = try (try? Data(contentsOf: indexURL)).map { try PageIndex(bytes: Array($0), source: indexURL.path) }
        let flowURL = root.appendingPathComponent(SiteLayout.flowRecord)
        flow = try (try? Data(contentsOf: flowURL)).map { try FlowRecord(json: $0, source: flowURL.path) }
        pages =
            index?.pages
            ?? Dictionary(
                uniqueKeysWithValues: manifest.files.keys
                    .filter { $0.hasSuffix(".html") && $0 != "404.html" && !$0.hasPrefix("flow/") }
                    .map { ($0, PageIndex.Entry(content: StableHash(), kind: "page")) })
    }

    func bytes(_ path: String) throws -> [UInt8] {
        let url = root.appendingPathComponent(path)
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw FlowSiteError(
                .siteUnreadable(
                    path: url.path,
                    message: """
                        the manifest lists it but it can't be read (\(error.localizedDescription)): \
                        build the site again
                        """
                ))
        }
    }
}
