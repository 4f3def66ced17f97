import Foundation

/// The languages of a multilingual site, as the pages of one of them link to the others: each
/// language is a tree under its code (`en/`, `es/`) with the same pages at the same paths, so a
/// page's counterpart in another language is the same path under that language's folder.
struct SiteLanguages: Sendable {
    struct Language: Sendable, Equatable {
        /// The BCP 47 code, which names the language's folder and its pages' `lang`.
        let code: String
        /// The language's name in itself ("Español"), as Foundation's locale data has it.
        let name: String
        /// Whether it is written right to left.
        let isRightToLeft: Bool
        /// Whether it is a pseudo-locale (``PseudoLocale``): for testing, so never offered to
        /// search engines as an alternate.
        let isPseudo: Bool
    }

    /// Every language, the default (the coordinator's) first.
    let all: [Language]
    /// The language these pages are in.
    let current: Int
    /// The whole site's absolute URL, with a trailing slash, if known.
    let siteBaseURL: String?
    /// For each language code, the pages (files from the language's root) that are not really
    /// translated there: they showed fallback text. Such a page is listed as no one's
    /// `hreflang` alternate. Known for the languages built before this one.
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

    /// Whether the current language is a pseudo-locale.
    var isPseudo: Bool { all[current].isPseudo }

    /// The folder of the current language, from the site root (`es/`).
    var folder: String { all[current].code + "/" }

    /// The path from the host's root that the whole site is served under (`/docs/`), or `/`.
    var siteRootPath: String { Self.rootPath(of: siteBaseURL) ?? "/" }

    /// The path from the host's root of an absolute URL (`/docs/`), with a trailing slash.
    static func rootPath(of baseURL: String?) -> String? {
        guard let baseURL, let components = URLComponents(string: baseURL) else { return nil }
        let path = components.percentEncodedPath
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// The language's name in itself, capitalised as at the start of a sentence ("English",
    /// "Español", "English (Pseudo-Accents)"), or in `language` as within a sentence ("inglés").
    static func name(of code: String, in language: String? = nil) -> String {
        let locale = Locale(identifier: language ?? code)
        guard let name = locale.localizedString(forIdentifier: code), let first = name.first else { return code }
        // Within a sentence of another language the name stays as that language writes it.
        if language != nil { return name }
        return String(first).uppercased(with: locale) + name.dropFirst()
    }

    /// The URL of the page at `here` in language `index`, from `here`.
    private func relativeURL(at here: RoutePath, in index: Int) -> String {
        String(repeating: "../", count: here.slugs.count + 1) + all[index].code + "/" + here.file
    }

    /// The page at `here` in language `index` as an `hreflang` alternate names it: absolute
    /// under the base URL, as search engines want, or else relative.
    func alternateURL(at here: RoutePath, in index: Int) -> String {
        guard let siteBaseURL else { return relativeURL(at: here, in: index) }
        return siteBaseURL + all[index].code + "/" + here.file
    }

    /// Whether the page at `path` (a file from a language's root) is really translated into
    /// language `index`.
    func isTranslated(_ path: String, in index: Int) -> Bool {
        !all[index].isPseudo && !(untranslated[all[index].code]?.contains(path) ?? false)
    }

    /// The languages' codes whose page at `path` may be listed as an alternate: none when the
    /// current page itself isn't really translated.
    func alternateIndices(of path: String) -> [Int] {
        guard isTranslated(path, in: current) else { return [] }
        return all.indices.filter { isTranslated(path, in: $0) }
    }

    /// The switcher's and the head's values for the page at `here`: `languages` (each with
    /// `code`, `name`, `url` and `isCurrent`), `hasLanguages`, and `alternates` (each with
    /// `code` and `url`, then `x-default` for the root's language list).
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

    /// What the pages' bytes take from the languages: the codes, the current one, the base URL
    /// and the pages that are not really translated.
    func combine(into hash: inout StableHash) {
        for language in all { hash.combine(language.code) }
        hash.combine("\(current) \(siteBaseURL ?? "-")")
        for (code, pages) in untranslated.sorted(by: { $0.key < $1.key }) {
            hash.combine(code)
            for page in pages.sorted() { hash.combine(page) }
        }
    }

    /// The sitemap's `xhtml:link` lines for the page at `path`, absolute under `siteBaseURL`.
    func sitemapAlternates(of path: String) -> [(code: String, url: String)] {
        guard let siteBaseURL else { return [] }
        return alternateIndices(of: path).map { (all[$0].code, siteBaseURL + all[$0].code + "/" + path) }
    }
}
