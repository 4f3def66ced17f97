import FlowSiteUtilities
import Foundation

/// Checks that every internal link and asset reference of a written site resolves to a file.
/// External links and in-page anchors are not checked; a link that climbs out of the site folder is broken.
struct LinkChecker: Sendable {
    init() {}

    struct Result: Sendable {
        /// In page order.
        var broken: [BrokenLink] = []
        /// Internal links and asset references, for the build summary.
        var internalReferences = 0
    }

    /// Checks the links of the HTML pages among `files` (paths from the site root), each read once.
    /// `rootPaths` gives pages shown at any URL (the 404 page) the root path their links start from (`/docs/`):
    /// there, a link under that path is checked from the site root.
    func check(
        files: Set<String>, only pages: Set<String>? = nil, rootPaths: [String: String] = [:],
        contents: (String) throws -> String
    ) rethrows -> Result {
        try check(pages: pages ?? files, in: files.contains, rootPaths: rootPaths, contents: contents)
    }

    /// `isFile` knows the site's files (a build asks its staging table, not a set of every path).
    func check(
        pages: some Sequence<String>, in isFile: (String) -> Bool, rootPaths: [String: String] = [:],
        contents: (String) throws -> String
    ) rethrows -> Result {
        var result = Result()
        for page in pages.sorted() where page.hasSuffix(".html") {
            for link in Self.references(in: try contents(page)) {
                guard !Self.isExternal(link) else { continue }
                result.internalReferences += 1
                if let root = rootPaths[page], link.hasPrefix(root) {
                    // From the root: as if written on a page in the root folder.
                    if !resolves(String(link.dropFirst(root.count)), from: "index.html", in: isFile) {
                        result.broken.append(BrokenLink(page: page, link: link))
                    }
                } else if !resolves(link, from: page, in: isFile) {
                    result.broken.append(BrokenLink(page: page, link: link))
                }
            }
        }
        return result
    }

    func brokenLinks(files: Set<String>, contents: (String) throws -> String) rethrows -> [BrokenLink] {
        try check(files: files, contents: contents).broken
    }

    func resolves(_ link: String, from page: String, in files: Set<String>) -> Bool {
        resolves(link, from: page, in: files.contains)
    }

    /// Whether `link`, written on `page`, names a file `isFile` knows.
    func resolves(_ link: String, from page: String, in isFile: (String) -> Bool) -> Bool {
        if Self.isExternal(link) { return true }
        var target = link
        if let cut = target.firstIndex(where: { $0 == "#" || $0 == "?" }) { target = String(target[..<cut]) }
        if target.isEmpty { return true } // same page
        if target.contains("%") { target = target.removingPercentEncoding ?? target }
        var parts = page.split(separator: "/").dropLast().map(String.init)
        if target.hasPrefix("/") { return false } // root-relative links break under a subpath
        for component in target.split(separator: "/", omittingEmptySubsequences: false) {
            switch component {
            case ".", "": continue
            case "..":
                if parts.isEmpty { return false }
                parts.removeLast()
            default: parts.append(String(component))
            }
        }
        let resolved = parts.joined(separator: "/")
        if resolved.isEmpty { return isFile("index.html") }
        return isFile(resolved) || isFile(resolved + "/index.html")
    }

    static func isExternal(_ link: String) -> Bool {
        if link.hasPrefix("#") || link.hasPrefix("//") { return true }
        guard let colon = link.firstIndex(of: ":") else { return false }
        let scheme = link[..<colon]
        return !scheme.isEmpty && !scheme.contains("/")
            && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+.-".contains($0) }
    }

    /// The values of `href` and `src` attributes, with HTML entities decoded.
    static func references(in html: String) -> [String] {
        var found: [String] = []
        var scanner = HTMLScanner(html)
        while let token = scanner.next() {
            guard case .start(_, let attributes) = token else { continue }
            for attribute in attributes where attribute.name == "href" || attribute.name == "src" {
                found.append(HTMLScanner.decodeEntities(attribute.value))
            }
        }
        return found
    }
}

/// A build's link check: route links hold by construction (the walk made every linked page), site-file links are
/// looked up, and templates' links are scanned on a sample (the first page by path of each depth, dialogs apart)
/// and on every HTML file a step wrote.
struct LinkCheckByConstruction: Sendable {
    var samples: [(page: String, html: [UInt8])] = []
    var siteFiles: [(page: String, links: [String])] = []
    /// Where in `samples` each depth's page (dialogs apart) is.
    private var sampled: [Int: Int] = [:]

    /// Keeps the page when its path is the first of its depth and kind, so the same pages are checked whatever
    /// order the walk made them in. `html` is read only when kept.
    mutating func offer(_ page: String, depth: Int, modal: Bool, html: () -> [UInt8]?) {
        let key = depth * 2 + (modal ? 1 : 0)
        if let kept = sampled[key] {
            guard page < samples[kept].page, let html = html() else { return }
            samples[kept] = (page, html)
        } else if let html = html() {
            sampled[key] = samples.count
            samples.append((page, html))
        }
    }

    func run(files: Set<String>, rootPaths: [String: String] = [:]) throws -> LinkChecker.Result {
        try run(in: files.contains, rootPaths: rootPaths)
    }

    // Never inlined: its specialised sort can't be serialised for another module, and inlined it would keep
    // the build and the walk from being specialised for the app's types.
    @inline(never) func run(in isFile: (String) -> Bool, rootPaths: [String: String] = [:]) throws -> LinkChecker.Result
    {
        var byPage: [String: [UInt8]] = [:]
        for sample in samples { byPage[sample.page] = sample.html }
        var result = LinkChecker().check(pages: byPage.keys, in: isFile, rootPaths: rootPaths) {
            String(decoding: byPage[$0] ?? [], as: UTF8.self)
        }
        for (page, links) in siteFiles.sorted(by: { $0.page < $1.page }) {
            for link in links {
                result.internalReferences += 1
                if !isFile(link) { result.broken.append(BrokenLink(page: page, link: link)) }
            }
        }
        return result
    }
}
