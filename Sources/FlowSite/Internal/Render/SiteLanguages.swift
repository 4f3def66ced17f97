import Foundation

/// A multilingual site's languages: each is a tree under its code (`en/`, `es/`) with the same pages at the
/// same paths, so a page's counterpart is the same path under another language's folder.
struct SiteLanguages: Sendable {
    struct Language: Sendable, Equatable {
        /// BCP 47: names the folder and the pages' `lang`.
        let code: String
        /// In itself ("Español").
        let name: String
        let isRightToLeft: Bool
        /// For testing: never offered to search engines as an alternate.
        let isPseudo: Bool
    }

    /// The default (the coordinator's) first.
    let all: [Language]
    let current: Int
    /// With a trailing slash.
    let siteBaseURL: String?
    /// Per language code, the pages that showed fallback text there: no one's `hreflang` alternate. Known for the
    /// languages built before this one.
    var untranslated: [String: Set<String>] = [:]

    init(codes: [String], current: Int, siteBaseURL: String?) {
        all = codes.map { code in
            Language(
                code: code, name: Self.name(of: code),
                isRightToLeft: Locale.Language(identifier: code).characterDirection == .rightToLeft,
                isPseudo: PseudoLocale(code: code) != nil
            )
        }
        self.current = current
        self.siteBaseURL = siteBaseURL
    }

    var isPseudo: Bool { all[current].isPseudo }

    /// `es/`.
    var folder: String { all[current].code + "/" }

    /// The path the whole site is served under (`/docs/`), or `/`.
    var siteRootPath: String { Self.rootPath(of: siteBaseURL) ?? "/" }

    /// The path of an absolute URL (`/docs/`), with a trailing slash.
    static func rootPath(of baseURL: String?) -> String? {
        guard let baseURL, let components = URLComponents(string: baseURL) else { return nil }
        let path = components.percentEncodedPath
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// The name in itself, capitalised ("Español"), or in `language` as within a sentence ("inglés").
    static func name(of code: String, in language: String? = nil) -> String {
        let locale = Locale(identifier: language ?? code)
        guard let name = locale.localizedString(forIdentifier: code), let first = name.first else { return code }
        if language != nil { return name }
        return String(first).uppercased(with: locale) + name.dropFirst()
    }

    private func relativeURL(at here: RoutePath, in index: Int) -> String {
        String(repeating: "../", count: here.slugs.count + 1) + all[index].code + "/" + here.file
    }

    /// Absolute under the base URL, as search engines want, or else relative.
    func alternateURL(at here: RoutePath, in index: Int) -> String {
        guard let siteBaseURL else { return relativeURL(at: here, in: index) }
        return siteBaseURL + all[index].code + "/" + here.file
    }

    func isTranslated(_ path: String, in index: Int) -> Bool {
        !all[index].isPseudo && !(untranslated[all[index].code]?.contains(path) ?? false)
    }

    /// The languages whose page at `path` may be an alternate: none when the current page isn't really translated.
    func alternateIndices(of path: String) -> [Int] {
        guard isTranslated(path, in: current) else { return [] }
        return all.indices.filter { isTranslated(path, in: $0) }
    }

    /// The switcher's and the head's values: `languages`, `hasLanguages`, and `alternates` (then `x-default`).
    func add(to context: inout TemplateFrame, at here: RoutePath, alternates: Bool = true) {
        context["hasLanguages"] = .flag(true)
        context["languages"] = .list(
            all.indices.map { index in
                [
                    "code": .text(all[index].code), "name": .text(all[index].name),
                    "url": .text(relativeURL(at: here, in: index)), "isCurrent": .flag(index == current),
                    "isRightToLeft": .flag(all[index].isRightToLeft)
                ] as TemplateFrame
            })
        guard alternates else { return }
        let listed = alternateIndices(of: here.file)
        guard !listed.isEmpty else { return }
        var links: [TemplateFrame] = listed.map { index in
            ["code": .text(all[index].code), "url": .text(alternateURL(at: here, in: index))]
        }
        let root =
            siteBaseURL.map { $0 + "index.html" } ?? String(repeating: "../", count: here.slugs.count + 1)
            + "index.html"
        links.append(["code": .text("x-default"), "url": .text(root)])
        context["alternates"] = .list(links)
    }

    /// Everything here the pages' bytes depend on.
    func combine(into hash: inout StableHash) {
        for language in all { hash.combine(language.code) }
        hash.combine("\(current) \(siteBaseURL ?? "-")")
        for (code, pages) in untranslated.sorted(by: { $0.key < $1.key }) {
            hash.combine(code)
            for page in pages.sorted() { hash.combine(page) }
        }
    }

    /// The sitemap's `xhtml:link` lines for `path`.
    func sitemapAlternates(of path: String) -> [(code: String, url: String)] {
        guard let siteBaseURL else { return [] }
        return alternateIndices(of: path).map { (all[$0].code, siteBaseURL + all[$0].code + "/" + path) }
    }
}
